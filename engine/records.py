"""Game records: a text format for any game family, as PGN is for chess.

A record is a header of tag lines, then one line per turn::

    [Family "rummikub"]
    [Variant "sabra"]
    [Players "2"]
    [First "0"]
    [Seat "0 Alice"]
    [Seat "1 Bob"]
    [Rule "initial_meld=30"]
    [Seed "club-night-1"]
    [Result "1"]
    [Scores "-42 42"]

    1. 0 draw ; Alice
    2. 1 play R10 R11 R12 -> [R10 R11 R12] ; Bob

Tags are ``[Name "value"]`` (``\\"`` and ``\\\\`` escape inside the value);
``Seat``, ``Rule``, ``Deal`` and ``Warning`` may repeat. A move line is the
turn number, a dot, the seat that moved and the move in the family's
notation; ``;`` starts a comment to the end of the line (the writer names
the player there; readers ignore it). Older records name no seat
(``1. draw``): the seat on turn is assumed. Lines starting with ``;`` or
``#`` and blank lines are skipped.

This module knows no rules: it finds the game class with
:func:`engine.registry.find_variant`, builds the rule set with its
``rules_from_dict`` and starts the game with ``new(players, rules, seed=...,
deal=..., first=...)``; then pushes each move, refusing one by a seat that
may not move then. A family's game supports records when it also offers
``setup_tags()`` (players, first, rules, and seed or deal), ``move_stack``
(the moves pushed) and ``move_seats`` (who pushed each). ``docs/records.md``
specifies the format.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import (DealError, EngineError, IllegalMoveError, NotationError,
                     RecordError, ResultMismatchError, RuleOptionError)
from .registry import find_variant

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE = re.compile(r"^(\d+)\.\s*(.*)$")
_SEAT = re.compile(r"^(\d+)\s+(\S.*)$")
REPEATABLE = ("Seat", "Rule", "Deal", "Warning")


@dataclass
class GameRecord:
    """A parsed record: ordered ``tags`` (name, value) and the ``moves``
    (text, comment, line number); a move's text keeps the seat written in
    front of it (:func:`split_seat` takes it apart)."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    moves: list[tuple[str, str, int]] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        for k, v in self.tags:
            if k == name:
                return v
        return default

    def get_all(self, name: str) -> list[str]:
        return [v for k, v in self.tags if k == name]

    def set(self, name: str, value: str) -> None:
        self.tags = [(k, v) for k, v in self.tags if k != name] + [(name, value)]

    # -- the setup the tags describe -------------------------------------
    @property
    def variant(self) -> str:
        v = self.get("Variant")
        if not v:
            raise RecordError("the record has no Variant tag")
        return v

    def players(self) -> int:
        return _int_tag(self, "Players")

    def first(self) -> int:
        v = self.get("First")
        return 0 if v is None else _int_tag(self, "First")

    def rules(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for text in self.get_all("Rule"):
            name, eq, value = text.partition("=")
            if not eq or not name.strip():
                raise RecordError(f"a Rule tag is 'name=value', not {text!r}")
            out[name.strip()] = _decode_value(value.strip())
        return out

    def seats(self) -> dict[int, str]:
        out = {}
        for text in self.get_all("Seat"):
            idx, _, name = text.partition(" ")
            if not idx.isdigit():
                raise RecordError(f"a Seat tag is 'index name', not {text!r}")
            out[int(idx)] = name.strip()
        return out

    def deal(self) -> dict[str, Any] | None:
        texts = self.get_all("Deal")
        if not texts:
            return None
        out: dict[str, Any] = {}
        for text in texts:
            key, _, rest = text.partition(" ")
            tokens = rest.split()
            name, dot, index = key.partition(".")
            if not name:
                raise RecordError(f"a Deal tag is 'key tokens' or 'key.N tokens', not {text!r}")
            if dot:
                if not index.isdigit():
                    raise RecordError(f"bad Deal index in {key!r}")
                lst = out.setdefault(name, [])
                if not isinstance(lst, list) or len(lst) != int(index):
                    raise RecordError(f"Deal {key!r} out of order (expected {name}.{len(lst)})")
                lst.append(tokens)
            else:
                out[name] = tokens
        return out


def _int_tag(rec: GameRecord, name: str) -> int:
    v = rec.get(name)
    if v is None:
        raise RecordError(f"the record has no {name} tag")
    try:
        return int(v)
    except ValueError:
        raise RecordError(f"the {name} tag must be a number, not {v!r}") from None


def _decode_value(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _encode_value(value) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def read_record(text: str) -> GameRecord:
    """Parse a record.

    :raises RecordError: a line that is neither a tag nor a numbered move,
        or turn numbers out of sequence (the error names the line).
    """
    if not isinstance(text, str):
        raise RecordError("a record is text")
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write first
    rec = GameRecord()
    seen_moves = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";") or line.startswith("#"):
            continue
        if line.startswith("["):
            if seen_moves:
                raise RecordError("a tag after the moves", line=lineno)
            m = _TAG.match(line)
            if not m:
                raise RecordError(f'a tag must read [Name "value"], not {line[:60]!r}', line=lineno)
            name, value = m.group(1), _unescape(m.group(2))
            if name not in REPEATABLE and rec.get(name) is not None:
                raise RecordError(f"the {name} tag appears twice", line=lineno)
            rec.tags.append((name, value))
            continue
        m = _MOVE.match(line)
        if not m:
            raise RecordError(f"expected a tag or a numbered move, not {line[:60]!r}", line=lineno)
        seen_moves = True
        number = int(m.group(1))
        if number != len(rec.moves) + 1:
            raise RecordError(f"turn {number} where turn {len(rec.moves) + 1} was expected", line=lineno)
        body, _, comment = m.group(2).partition(";")
        body = body.strip()
        if not body:
            raise RecordError(f"turn {number} has no move", line=lineno)
        rec.moves.append((body, comment.strip(), lineno))
    return rec


def write_record(rec: GameRecord) -> str:
    """The record as text (tags, a blank line, one move per line)."""
    lines = [f'[{k} "{_escape(v)}"]' for k, v in rec.tags]
    lines.append("")
    for i, (text, comment, _) in enumerate(rec.moves, 1):
        lines.append(f"{i}. {text}" + (f" ; {comment}" if comment else ""))
    return "\n".join(lines) + "\n"


def record_from_game(game, seats: list[str] | dict[int, str] | None = None,
                     tags: dict[str, str] | None = None, moves=None,
                     comments: bool = True) -> GameRecord:
    """A record of ``game`` (any family whose game has ``setup_tags()`` and
    ``move_stack``). ``seats`` names the players; ``tags`` adds free tags
    (Event, Site, Date ...). Each move line names the seat that moved (from
    the game's ``move_seats``; in front of the move unless the family's
    notation names it, :attr:`engine.base.Game.moves_name_seat`) and, with
    ``comments``, the player's name as a comment. A ``Warning`` tag keeps
    each rule option the other options leave without effect (the rule set's
    ``warnings()``). The Result and Scores tags are written once the game
    is over.
    """
    setup = game.setup_tags()
    rec = GameRecord()
    for k, v in (tags or {}).items():
        rec.tags.append((k, str(v)))
    rec.tags.append(("Family", game.family))
    rec.tags.append(("Variant", game.variant))
    rec.tags.append(("Players", str(setup["players"])))
    rec.tags.append(("First", str(setup.get("first", 0))))
    names = dict(enumerate(seats)) if isinstance(seats, list) else dict(seats or {})
    for i in sorted(names):
        rec.tags.append(("Seat", f"{i} {names[i]}"))
    for name, value in setup["rules"].items():
        rec.tags.append(("Rule", f"{name}={_encode_value(value)}"))
    if setup.get("seed") is not None:
        rec.tags.append(("Seed", setup["seed"]))
    else:
        for key, value in (setup.get("deal") or {}).items():
            if value and isinstance(value[0], (list, tuple)):
                for i, part in enumerate(value):
                    rec.tags.append(("Deal", f"{key}.{i} " + " ".join(str(x) for x in part)))
            else:
                rec.tags.append(("Deal", f"{key} " + " ".join(str(x) for x in value)))
    if game.is_over:
        winners = getattr(game, "winners", None)
        rec.tags.append(("Result", " ".join(str(w) for w in winners) if winners else "-"))
        rec.tags.append(("Scores", " ".join(str(s) for s in game.scores())))
    else:
        rec.tags.append(("Result", "*"))
    for text in _rule_warnings(game):
        rec.tags.append(("Warning", text))
    stack = getattr(game, "move_stack", [])
    moves = stack if moves is None else moves
    # who moved: families that track it expose ``move_seats`` (one per move
    # of ``move_stack``); their notation may already name it (contract rummy)
    seats_of = getattr(game, "move_seats", None) if moves is stack else None
    if seats_of is not None and len(seats_of) != len(moves):  # pragma: no cover - a family bug
        seats_of = None
    prefix = not getattr(game, "moves_name_seat", False)
    for i, mv in enumerate(moves):
        text, comment = str(mv), ""
        if seats_of is not None:
            s = seats_of[i]
            if prefix:
                text = f"{s} {text}"
            if comments:
                comment = names.get(s, f"seat {s}")
        rec.moves.append((text, comment, 0))
    return rec


def _rule_warnings(game) -> list[str]:
    """The warnings of the game's rule set (options that have no effect
    under the others), where the family's rule set gives them."""
    warnings = getattr(getattr(game, "rules", None), "warnings", None)
    return list(warnings()) if callable(warnings) else []


def write_game(game, seats=None, tags=None) -> str:
    """Shorthand: ``write_record(record_from_game(game, seats, tags))``."""
    return write_record(record_from_game(game, seats, tags))


class ReplayError(IllegalMoveError):
    """A move of a record that the rules refuse (or that does not parse),
    with where it is: ``turn`` (1-based), ``seat`` (the seat that moved),
    ``player`` (the Seat tag's name or ``None``), ``move`` (its text),
    ``rule``, and ``to_move`` (the seat whose turn it was; with rule
    ``not-your-turn`` it differs from ``seat``)."""

    def __init__(self, message: str, rule: str, turn: int, seat: int | None,
                 player: str | None, move: str, line: int | None = None,
                 to_move: int | None = None):
        super().__init__(message, rule=rule)
        self.turn, self.seat, self.player, self.move, self.line = turn, seat, player, move, line
        self.to_move = to_move


def split_seat(text: str) -> tuple[int | None, str]:
    """The seat written in front of a move line's move and the rest:
    ``"2 play R1 R2 R3 -> [R1 R2 R3]"`` gives ``(2, "play ...")``; a line
    of an older record, ``"draw"``, gives ``(None, "draw")``."""
    m = _SEAT.match(text.strip())
    if not m:
        return None, text.strip()
    return int(m.group(1)), m.group(2)


def start_game(rec: GameRecord):
    """A fresh game set up as the record's header says.

    :raises RecordError: missing or bad tags, unknown variant, bad rules, or
        a seed/deal that cannot start the game.
    """
    try:
        cls = find_variant(rec.variant)
        rules = cls.rules_from_dict(rec.rules())
        seed = rec.get("Seed")
        deal = rec.deal()
        return cls.new(rec.players(), rules, seed=seed, deal=deal, first=rec.first())
    except RecordError:
        raise
    except (RuleOptionError, DealError, NotationError) as exc:
        raise RecordError(f"cannot start the game: {exc}") from None


def _move_seat(move, game) -> int | None:
    """The seat a parsed move is pushed for: its own ``seat`` where the
    family's moves carry one (a buy by a player not on turn), else the seat
    on turn."""
    seat = getattr(move, "seat", None)
    return seat if isinstance(seat, int) else game.to_move


def _name(names: dict[int, str], seat: int | None) -> str:
    name = names.get(seat) if seat is not None else None
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def replay(rec: GameRecord, on_move: Callable | None = None, check_result: bool = True):
    """Start the game and push every move; returns the game.
    ``on_move(game, turn, move, outcome)`` is called after each push.

    A move line that names its seat is checked against who may move: the
    seat on turn, or, in a family whose notation names the seat (contract
    rummy), whoever the family lets act then (a buyer out of turn).

    :raises RecordError: bad header (a Seat tag past the table included).
    :raises ResultMismatchError: (a ``RecordError``) the Result/Scores tags
        disagree with the replayed game.
    :raises ReplayError: a move that does not parse, is illegal, or is made
        by a seat whose turn it is not (rule ``not-your-turn``); it names the
        turn, the seat that moved, the seat on turn and the rule.
    """
    game = start_game(rec)
    names = rec.seats()
    seat_in_move = getattr(game, "moves_name_seat", False)
    players = getattr(game, "players", 0)
    for index in sorted(names):
        if index >= players:
            raise RecordError(f"a Seat tag names seat {index} ({names[index]!r}), but the game has "
                              f"{players} players (seats 0 to {players - 1})")
    for turn, (text, _, line) in enumerate(rec.moves, 1):
        named, body = split_seat(text)
        on_turn = game.to_move
        seat = named if named is not None else on_turn
        move = None

        def fail(message: str, rule: str, seat: int | None):
            return ReplayError(message, rule, turn, seat, names.get(seat), text, line, on_turn)

        try:
            if named is not None and not named < players:
                raise IllegalMoveError(f"no seat {named} at a table of {players}", "no-such-seat")
            if seat_in_move:
                move = game.parse_move(text)
                seat = _move_seat(move, game)
            else:
                move = game.parse_move(body)
                if named is not None and on_turn is not None and named != on_turn:
                    raise IllegalMoveError("not on turn", "not-your-turn")
            outcome = game.push(move)
        except NotationError as exc:
            raise fail(str(exc), "notation", seat) from None
        except IllegalMoveError as exc:
            if exc.rule == "not-your-turn":
                raise fail(f"{_name(names, seat)} moved at turn {turn}, but it was "
                           f"{_name(names, on_turn)}'s turn", exc.rule, seat) from None
            raise fail(str(exc), exc.rule, seat) from None
        except EngineError as exc:  # pragma: no cover - a family's other errors
            raise fail(str(exc), "error", seat) from None
        if on_move is not None:
            on_move(game, turn, move, outcome)
    if check_result:
        result = rec.get("Result")
        if result is not None and result.strip() != "*":
            if not game.is_over:
                raise ResultMismatchError(f"the record gives the result {result!r} but the game "
                                          f"is not over after {len(rec.moves)} turns",
                                          "game-not-over")
            winners = getattr(game, "winners", None)
            if winners is not None:
                got = " ".join(str(w) for w in winners) or "-"
                if got != " ".join(result.split()):
                    raise ResultMismatchError(f"the record gives the result {result!r}; the "
                                              f"replay gives {got!r}", "result-differs")
        scores = rec.get("Scores")
        if scores is not None:
            got = game.scores()
            if got is None:
                raise ResultMismatchError(f"the record gives scores {scores} but the game is "
                                          f"not over after {len(rec.moves)} turns",
                                          "game-not-over")
            if " ".join(str(s) for s in got) != " ".join(scores.split()):
                raise ResultMismatchError(f"the record gives scores {scores}; the replay "
                                          f"gives {' '.join(str(s) for s in got)}",
                                          "scores-differ")
    return game


def replay_text(text: str, **kw):
    """:func:`replay` of a record given as text (same errors)."""
    return replay(read_record(text), **kw)
