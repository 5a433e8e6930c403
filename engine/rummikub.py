"""Sabra Rummikub and Rummikub XP: rule set, presets, game, move notation,
scoring and multi-game rounds.

The rules and every reading chosen are written down in
``docs/rules/rummikub.md``; the move notation in ``docs/records.md``.

>>> from engine.rummikub import SabraGame
>>> g = SabraGame.new(2, seed="club-night-1")
>>> g.to_move
0
>>> out = g.push(g.parse_move("draw"))
>>> out.kind, g.to_move
('drew', 1)

Move notation (canonical text; ``str(parse_move(t)) == t``)::

    draw                      draw one tile (seeded game: the engine knows it)
    draw R7                   draw, naming the tile (a game from a real table)
    timeout | timeout R7      the turn ran out of time: one tile drawn
    penalty | penalty R7 K3 J a manipulation that did not end valid: 3 tiles
    pass                      the pool is empty and the player does not play
    play R10 R11 R12 -> [R10 R11 R12]
    play B3 B8 : [B4 B5 B6] [K8 R8 O8] -> [B3 B4 B5 B6] [K8 R8 B8 O8]

A play lists the tiles taken from the rack, then (after ``:``) the melds of
the table it took apart or changed, then (after ``->``) the melds that
replace them. Melds left untouched are not written. The played tiles must be
exactly the tiles of the new melds less those of the old ones.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable

from .base import Game, Outcome
from .errors import (DealError, EngineError, IllegalMoveError, NotationError,
                     RuleOptionError)
from .melds import (RUN_JOKER, Meld, canonical, format_meld,
                    joker_candidates, meld_kind, meld_value, parse_meld,
                    parse_melds, why_invalid)
from .registry import register
from .tiles import (JOKER, NUM_CODES, STANDARD, TILES, XP, TileSet, _TEXT,
                    as_tile, counts_of, face_value, format_tiles, parse_tiles,
                    shuffled, tiles_of)

# ---------------------------------------------------------------------------
# Rule set
# ---------------------------------------------------------------------------

JOKER_REUSE = ("any", "new-meld", "new-meld-with-rack-tiles", "joker-and-rack-tiles-only")
JOKER_SETS = ("free", "keep-tile", "frozen")
JOKER_FREED_FROM = ("rack", "rack-or-table")
DIRECTIONS = ("clockwise", "counterclockwise")
POOL_EMPTY_END = ("all-pass", "first-pass")


@dataclass(frozen=True)
class RuleSet:
    """Every rule option of Sabra Rummikub, by name. The defaults are the
    boxed (Lemada) rules; :data:`PRESETS` names the published editions.

    - ``initial_meld``: points the first meld must reach from the rack
      alone (30; some play 50).
    - ``joker_penalty``: points a joker left on a rack costs (30; or 25).
    - ``joker_reuse``: where a joker freed from the table must go this turn:
      ``"any"`` meld (reading 1), a ``"new-meld"`` (2), a new meld with two
      or more tiles from the rack (``"new-meld-with-rack-tiles"``, 3), a new
      meld formed first of the joker and two or more rack tiles only
      (``"joker-and-rack-tiles-only"``, 4).
    - ``joker_sets``: how melds holding a joker may change.
      ``"free"`` (the boxed rules, seed 001's fourth way to clear a joker,
      and seed 000's reading): jokers are rearranged like any tile; a joker
      that ends up standing for another tile has been retrieved.
      ``"keep-tile"`` (Lemada 1999, Goliath, "Dutch Sabra"): melds with a
      joker may be split and rearranged but each joker keeps the tile it
      stands for until a player supplies that tile.
      ``"frozen"`` (Official Book): a meld holding a joker may only be added
      to, or have its joker replaced by the tile it stands for.
    - ``joker_freed_from`` (``keep-tile`` and ``frozen``): the tile replacing
      a joker comes from the ``"rack"`` only, or from the ``"rack-or-table"``.
    - ``joker_group_both_colours`` (``keep-tile`` and ``frozen``): freeing a
      joker from a group of three needs both missing colours.
    - ``manipulate_on_initial_turn``: whether the table may be rearranged
      (and jokers freed) on the turn of the initial meld.
    - ``direction``: ``"clockwise"`` (seat 0, 1, 2 ...) or
      ``"counterclockwise"`` (seat 0, n-1, n-2 ...).
    - ``turn_time_limit``: seconds per turn (0: none); the clock is the
      caller's, the engine records the option and takes ``timeout`` moves.
    - ``pool_empty_end``: with the pool empty, the game ends when every
      player in turn has passed (``"all-pass"``, the boxed "until no more
      plays can be made") or at the first pass (``"first-pass"``).
    - ``rack_size``: tiles dealt to each player (14).
    """

    initial_meld: int = 30
    joker_penalty: int = 30
    joker_reuse: str = "new-meld"
    joker_sets: str = "free"
    joker_freed_from: str = "rack-or-table"
    joker_group_both_colours: bool = False
    manipulate_on_initial_turn: bool = False
    direction: str = "clockwise"
    turn_time_limit: int = 60
    pool_empty_end: str = "all-pass"
    rack_size: int = 14

    def __post_init__(self):
        def need_int(name, lo, hi):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RuleOptionError(f"rule option {name} must be an integer "
                                      f"{lo}..{hi}, not {v!r}")

        def need_choice(name, choices):
            v = getattr(self, name)
            if v not in choices:
                raise RuleOptionError(f"rule option {name} must be one of "
                                      f"{', '.join(choices)}, not {v!r}")

        def need_bool(name):
            v = getattr(self, name)
            if not isinstance(v, bool):
                raise RuleOptionError(f"rule option {name} must be true or false, not {v!r}")

        need_int("initial_meld", 0, 500)
        need_int("joker_penalty", 0, 500)
        need_choice("joker_reuse", JOKER_REUSE)
        need_choice("joker_sets", JOKER_SETS)
        need_choice("joker_freed_from", JOKER_FREED_FROM)
        need_bool("joker_group_both_colours")
        need_bool("manipulate_on_initial_turn")
        need_choice("direction", DIRECTIONS)
        need_int("turn_time_limit", 0, 86400)
        need_choice("pool_empty_end", POOL_EMPTY_END)
        need_int("rack_size", 1, 40)


RULE_OPTIONS = tuple(f.name for f in fields(RuleSet))

PRESETS: dict[str, RuleSet] = {
    # The rules in the box (Lemada Light Industries, current): the defaults.
    "boxed": RuleSet(),
    # Hertzano's Official Rummikub Book (1978), as seed 001 reports it.
    "official-book": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                             joker_reuse="new-meld", direction="counterclockwise",
                             manipulate_on_initial_turn=True, turn_time_limit=120,
                             pool_empty_end="first-pass"),
    # Dutch translation of the Book (Goliath 1985), its "Dutch Sabra" variation.
    "dutch-sabra": RuleSet(joker_sets="keep-tile", joker_freed_from="rack",
                           joker_penalty=25, direction="counterclockwise",
                           manipulate_on_initial_turn=True, turn_time_limit=120),
    # 1980 Pressman: both missing colours free a group joker; liberal reuse.
    "pressman-1980": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                             joker_group_both_colours=True, joker_reuse="any",
                             manipulate_on_initial_turn=True),
    # 1987 Pressman: 50-point initial meld, joker reused with 2 rack tiles.
    "pressman-1987": RuleSet(initial_meld=50, joker_sets="frozen",
                             joker_freed_from="rack",
                             joker_reuse="new-meld-with-rack-tiles",
                             manipulate_on_initial_turn=True),
    # J W Spear & Sons 1988.
    "spears-1988": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                           joker_reuse="new-meld-with-rack-tiles",
                           manipulate_on_initial_turn=True),
    # Goliath 1994: joker sets manipulable, joker used in the same go.
    "goliath-1994": RuleSet(joker_sets="keep-tile", joker_freed_from="rack",
                            joker_reuse="any", manipulate_on_initial_turn=True),
    # Lemada 1999: new set; no manipulation on the initial-meld turn.
    "lemada-1999": RuleSet(joker_sets="keep-tile", joker_freed_from="rack",
                           joker_reuse="new-meld"),
    # The strictest club reading of the joker (reading 4).
    "strict-joker": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                            joker_reuse="joker-and-rack-tiles-only",
                            manipulate_on_initial_turn=True),
}


def rules_from_dict(data: dict[str, Any] | None, base: RuleSet | None = None) -> RuleSet:
    """A :class:`RuleSet` from named options over ``base`` (default: boxed).
    The key ``"preset"`` picks a base from :data:`PRESETS`. Values may be
    given as text (``"30"``, ``"true"``), as records hold them.

    :raises RuleOptionError: unknown option, preset or bad value.
    """
    if isinstance(data, RuleSet):
        return data
    data = dict(data or {})
    rules = base or RuleSet()
    if "preset" in data:
        name = data.pop("preset")
        if name not in PRESETS:
            raise RuleOptionError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
        rules = PRESETS[name]
    changes = {}
    for key, value in data.items():
        if key not in RULE_OPTIONS:
            raise RuleOptionError(f"unknown rule option {key!r} (known: {', '.join(RULE_OPTIONS)})")
        default = getattr(RuleSet(), key)
        if isinstance(value, str) and not isinstance(default, str):
            text = value.strip().lower()
            if isinstance(default, bool):
                if text not in ("true", "false"):
                    raise RuleOptionError(f"rule option {key} must be true or false, not {value!r}")
                value = text == "true"
            else:
                try:
                    value = int(text)
                except ValueError:
                    raise RuleOptionError(f"rule option {key} must be an integer, not {value!r}") from None
        changes[key] = value
    try:
        return RuleSet(**{**asdict(rules), **changes})
    except TypeError as exc:  # pragma: no cover - guarded above
        raise RuleOptionError(str(exc)) from None


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Every option of ``rules`` by name (JSON-safe)."""
    return asdict(rules)


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

class ScoreError(EngineError, ValueError):
    """A score sheet that cannot be scored (a winner with tiles left...)."""


def rack_value(rack: Iterable[int], joker_penalty: int = 30) -> int:
    """Points of the tiles on a rack: face values, a joker ``joker_penalty``."""
    return sum(face_value(t, joker_penalty) for t in rack)


def score_values(values: list[int], winner: int | None, tie_start: int = 0) -> tuple[list[int], list[int]]:
    """Zero-sum scores from rack values; returns ``(scores, winners)``.

    With a ``winner`` (went out: value 0), each other player scores minus
    their value and the winner the sum. With ``winner=None`` (the pool-empty
    end) the lowest value wins, every other player loses the difference to
    it, and the winner scores the sum of the differences. Players tied for
    lowest share the sum equally; the points that do not divide go one each
    to the tied players in seat order starting at ``tie_start``.

    :raises ScoreError: a winner whose rack is not empty, or bad input.
    """
    n = len(values)
    if n < 2:
        raise ScoreError("scoring needs at least two players")
    if any(not isinstance(v, int) or v < 0 for v in values):
        raise ScoreError(f"rack values must be non-negative integers: {values!r}")
    if winner is not None:
        if not 0 <= winner < n:
            raise ScoreError(f"winner seat {winner} out of range 0..{n - 1}")
        if values[winner] != 0:
            raise ScoreError(f"the winner (seat {winner}) still holds tiles worth {values[winner]}")
        scores = [-v for v in values]
        scores[winner] = sum(values)
        return scores, [winner]
    low = min(values)
    winners = [i for i in range(n) if values[i] == low]
    scores = [low - v for v in values]
    pot = -sum(scores)
    share, rest = divmod(pot, len(winners))
    order = sorted(winners, key=lambda s: (s - tie_start) % n)
    for k, s in enumerate(order):
        scores[s] = share + (1 if k < rest else 0)
    return scores, winners


def score_racks(racks: list[list], rules: RuleSet | None = None,
                winner: int | None = None, tie_start: int = 0) -> list[int]:
    """Score a game from the racks left at its end (for score sheets typed in
    by officials). Tiles may be :class:`~engine.tiles.Tile`, codes or text.
    ``winner`` is the seat that went out, or ``None`` for the pool-empty end
    (see :func:`score_values`). The result sums to zero.

    >>> score_racks([[], ["R5", "J"], ["K13"]], winner=0)
    [48, -35, -13]

    :raises ScoreError: the winner's rack is not empty.
    :raises NotationError: a rack holds something that is not a tile.
    """
    rules = rules or RuleSet()
    values = [rack_value(parse_tiles(r), rules.joker_penalty) for r in racks]
    return score_values(values, winner, tie_start)[0]


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------

def _meld_counts(melds) -> list[int]:
    c = [0] * NUM_CODES
    for m in melds:
        for s in m:
            c[s if s < 52 else JOKER] += 1
    return c


class Move:
    """One turn, an immutable value with a canonical text (see the module
    docstring). ``kind`` is ``"play"``, ``"draw"``, ``"timeout"``,
    ``"penalty"`` or ``"pass"``; ``tiles`` the tiles played (play) or named
    as drawn (draw, timeout, penalty); ``removed``/``added`` the old and new
    melds of a play, canonical and sorted."""

    __slots__ = ("kind", "tiles", "removed", "added", "_text")

    KINDS = ("play", "draw", "timeout", "penalty", "pass")

    def __init__(self, kind: str, tiles: Iterable[int] = (), removed: Iterable[Meld] = (),
                 added: Iterable[Meld] = ()):
        if kind not in self.KINDS:
            raise NotationError(f"unknown move {kind!r} (play, draw, timeout, penalty, pass)",
                                token=kind)
        tiles = tuple(sorted(as_tile(t) for t in tiles))
        removed = sorted(canonical(m) for m in removed)
        added = sorted(canonical(m) for m in added)
        if kind == "play":
            # melds on both sides are untouched: drop them
            for m in list(removed):
                if m in added:
                    removed.remove(m)
                    added.remove(m)
            if not added:
                raise NotationError("a play must lay at least one meld after '->'", token="->")
            diff = _meld_counts(added)
            for code, n in enumerate(_meld_counts(removed)):
                diff[code] -= n
            if diff != counts_of(tiles):
                want = tiles_of([max(0, d) for d in diff])
                raise NotationError(
                    f"the played tiles ({format_tiles(tiles) or 'none'}) are not the tiles "
                    f"the melds add ({format_tiles(want) or 'none'}"
                    f"{'; the new melds lack some old tiles' if min(diff) < 0 else ''})",
                    token=format_tiles(tiles))
        else:
            if removed or added:
                raise NotationError(f"a {kind} move has no melds", token=kind)
            limit = {"draw": 1, "timeout": 1, "penalty": 3, "pass": 0}[kind]
            if len(tiles) > limit:
                raise NotationError(f"a {kind} names at most {limit} tile(s)", token=kind)
        self.kind = kind
        self.tiles = tiles
        self.removed = tuple(removed)
        self.added = tuple(added)
        self._text = None

    @classmethod
    def play(cls, removed: Iterable[Meld], added: Iterable[Meld]) -> "Move":
        """A play from its old and new melds; the played tiles are derived.

        :raises NotationError: the new melds do not hold every old tile.
        """
        removed = [canonical(m) for m in removed]
        added = [canonical(m) for m in added]
        diff = _meld_counts(added)
        for code, n in enumerate(_meld_counts(removed)):
            diff[code] -= n
        if min(diff) < 0:
            raise NotationError("the new melds lack some tiles of the old ones", token="->")
        return cls("play", tiles_of(diff), removed, added)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read a move in the canonical notation (extra spaces and any order
        of tiles and melds are accepted).

        :raises NotationError: naming the bad token.
        """
        if not isinstance(text, str):
            raise NotationError(f"a move is text, not {type(text).__name__}", token=repr(text))
        simple = _SIMPLE_MOVES.get(text)
        if simple is not None:
            return simple
        body = text.strip()
        if not body:
            raise NotationError("empty move", token="")
        head, _, rest = body.partition(" ")
        kind = head.lower()
        if kind != "play":
            if kind not in cls.KINDS:
                raise NotationError(f"unknown move {head!r} (play, draw, timeout, penalty, pass)",
                                    token=head)
            return cls(kind, parse_tiles(rest))
        left, arrow, right = rest.partition("->")
        if not arrow:
            raise NotationError("a play needs '->' followed by the new melds", token=body)
        played_text, colon, old_text = left.partition(":")
        tiles = parse_tiles(played_text)
        removed = parse_melds(old_text) if colon else []
        added = parse_melds(right)
        return cls("play", tiles, removed, added)

    def __str__(self) -> str:
        if self._text is None:
            if self.kind == "play":
                parts = ["play", format_tiles(self.tiles)] if self.tiles else ["play"]
                if self.removed:
                    parts.append(":")
                    parts.extend(format_meld(m) for m in self.removed)
                parts.append("->")
                parts.extend(format_meld(m) for m in self.added)
                self._text = " ".join(parts)
            else:
                self._text = self.kind + ("" if not self.tiles else " " + format_tiles(self.tiles))
        return self._text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Move) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


_SIMPLE_MOVES = {k: Move(k) for k in ("draw", "timeout", "penalty", "pass")}

# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

def _sub_ok(small: list[int], big: list[int]) -> bool:
    for a, b in zip(small, big):
        if a > b:
            return False
    return True


def _counts_slots(m: Meld) -> dict[int, int]:
    d: dict[int, int] = {}
    for s in m:
        if s < 52:
            d[s] = d.get(s, 0) + 1
    return d


def _reals_within(small: Meld, big: Meld) -> bool:
    """Every numbered tile of ``small`` is in ``big`` (as multisets)."""
    bc = _counts_slots(big)
    for t, n in _counts_slots(small).items():
        if bc.get(t, 0) < n:
            return False
    return True


def _match(left: list[frozenset], right: list[frozenset]) -> tuple[int, list[int]]:
    """Maximum matching of ``left[i]`` to ``right[j]`` where right ⊆ left.
    Returns (size, match_of_right) with -1 for unmatched right items."""
    match_r = [-1] * len(right)

    def try_left(i, seen):
        for j, r in enumerate(right):
            if j in seen or not r <= left[i]:
                continue
            seen.add(j)
            if match_r[j] < 0 or try_left(match_r[j], seen):
                match_r[j] = i
                return True
        return False

    size = sum(1 for i in range(len(left)) if try_left(i, set()))
    return size, match_r


def _pick_distinct(needs: list[list[frozenset]], available: list[int]) -> bool:
    """Whether each need (a list of tile sets, one tile from each) can take
    distinct tiles from the multiset ``available`` (53 counts)."""
    flat = [c for need in needs for c in need]
    avail = list(available)

    def go(k):
        if k == len(flat):
            return True
        for t in sorted(flat[k]):
            if avail[t] > 0:
                avail[t] -= 1
                if go(k + 1):
                    return True
                avail[t] += 1
        return False

    return go(0)


class SabraGame(Game):
    """A game of Sabra Rummikub (2-4 players, 106 tiles). See the module
    docstring and ``docs/rules/rummikub.md``."""

    family = "rummikub"
    variant = "sabra"
    aliases = ("rummikub", "sabra-rummikub", "rummikub-sabra")
    min_players = 2
    max_players = 4
    RuleSet = RuleSet
    tileset: TileSet = STANDARD

    # ----------------------------------------------------------- rules
    @classmethod
    def rules_from_dict(cls, data):
        """:raises RuleOptionError: unknown option or bad value."""
        return rules_from_dict(data)

    @classmethod
    def rules_to_dict(cls, rules):
        return rules_to_dict(rules)

    # ----------------------------------------------------------- construction
    def __init__(self):
        self.rules: RuleSet = RuleSet()
        self.players = 0
        self.first = 0
        self.seed: str | None = None
        self.deal: dict[str, Any] | None = None
        self.racks: list[list[int]] = []
        self.rack_sizes: list[int] = []
        self.pool: list[int] | None = None  # known order, drawn from pool_pos
        self.pool_pos = 0
        self.pool_count = 0
        self.table: dict[Meld, int] = {}
        self.initial_done: list[bool] = []
        self.seat = 0
        self.turn = 0           # moves pushed so far
        self.passes = 0         # consecutive non-plays with the pool empty
        self.over = False
        self.end_reason: str | None = None
        self.winners: list[int] = []
        self._scores: list[int] | None = None
        self.move_stack: list[Move] = []
        self.move_seats: list[int] = []  # the seat that made each move

    @classmethod
    def new(cls, players: int, rules=None, *, seed: str | None = None,
            deal: dict[str, Any] | None = None, first: int = 0) -> "SabraGame":
        """Start a game from a ``seed`` (shuffle of :func:`engine.tiles.shuffled`;
        seat 0 takes the first ``rack_size`` tiles, seat 1 the next, ...; the
        rest is the pool, drawn from the front) or from a typed-in ``deal``:
        ``{"racks": [[tiles], ...], "pool": [tiles] (optional, in draw
        order)}``. Without a pool every draw must name its tile.

        :raises DealError: bad player count, seed or deal.
        :raises RuleOptionError: bad rules.
        """
        rules = rules_from_dict(rules) if not isinstance(rules, RuleSet) else rules
        if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
            raise DealError(f"{cls.variant} takes {cls.min_players}-{cls.max_players} "
                            f"players, not {players!r}")
        if not isinstance(first, int) or not 0 <= first < players:
            raise DealError(f"first seat {first!r} out of range 0..{players - 1}")
        if (seed is None) == (deal is None):
            raise DealError("give exactly one of seed and deal")
        ts = cls.tileset
        if players * rules.rack_size > ts.size:
            raise DealError(f"{players} racks of {rules.rack_size} do not fit in {ts.size} tiles")
        g = cls()
        g.rules, g.players, g.first, g.seat = rules, players, first, first
        if seed is not None:
            order = shuffled(ts, seed)
            g.seed = seed
            size = rules.rack_size
            racks = [order[i * size:(i + 1) * size] for i in range(players)]
            g.pool = [int(t) for t in order[players * size:]]
        else:
            if not isinstance(deal, dict) or "racks" not in deal:
                raise DealError("a deal is {'racks': [[tiles], ...], 'pool': [tiles] (optional)}")
            unknown = set(deal) - {"racks", "pool"}
            if unknown:
                raise DealError(f"unknown deal keys: {', '.join(sorted(unknown))}")
            try:
                racks = [parse_tiles(r) for r in deal["racks"]]
                pool = None if deal.get("pool") is None else parse_tiles(deal["pool"])
            except NotationError as exc:
                raise DealError(f"bad tile in the deal: {exc}") from None
            except TypeError:
                raise DealError("deal racks must be lists of tiles") from None
            if len(racks) != players:
                raise DealError(f"the deal has {len(racks)} racks for {players} players")
            for i, r in enumerate(racks):
                if len(r) != rules.rack_size:
                    raise DealError(f"rack {i} has {len(r)} tiles, not {rules.rack_size}")
            everything = [t for r in racks for t in r] + (pool or [])
            try:
                ts.check(everything)
            except NotationError as exc:
                raise DealError(f"impossible deal: {exc}") from None
            if pool is not None and len(everything) != ts.size:
                raise DealError(f"racks and pool hold {len(everything)} tiles; the "
                                f"{ts.name} set has {ts.size}")
            g.pool = None if pool is None else [int(t) for t in pool]
            g.deal = {"racks": [[str(t) for t in r] for r in racks]}
            if pool is not None:
                g.deal["pool"] = [str(t) for t in pool]
        g.racks = [counts_of(r) for r in racks]
        g.rack_sizes = [len(r) for r in racks]
        g.initial_done = [False] * players
        g.pool_count = ts.size - players * rules.rack_size
        return g

    @classmethod
    def from_position(cls, racks: list, table: list, rules=None, *, to_move: int = 0,
                      initial_meld_done: list[bool] | bool = True,
                      pool: list | None = None) -> "SabraGame":
        """A game set up in the middle: ``racks`` (tiles per seat), ``table``
        (melds as text or slots), the seat ``to_move``. The pool holds the
        rest of the tile set; its order is ``pool`` if given (all of the
        rest), else unknown (draws name their tile). For positions to study
        or to test; records start from deals.

        :raises DealError: more copies of a tile than the set holds, a bad
            meld text or seat.
        """
        rules = rules_from_dict(rules) if not isinstance(rules, RuleSet) else rules
        players = len(racks)
        if not cls.min_players <= players <= cls.max_players:
            raise DealError(f"{cls.variant} takes {cls.min_players}-{cls.max_players} players")
        if not 0 <= to_move < players:
            raise DealError(f"seat {to_move} out of range")
        try:
            rack_tiles = [parse_tiles(r) for r in racks]
            melds = [parse_meld(m) if isinstance(m, str) else canonical(m) for m in table]
            pool_tiles = None if pool is None else parse_tiles(pool)
        except NotationError as exc:
            raise DealError(f"bad position: {exc}") from None
        everything = [t for r in rack_tiles for t in r] + [
            s if s < 52 else JOKER for m in melds for s in m] + (pool_tiles or [])
        try:
            cls.tileset.check(everything)
        except NotationError as exc:
            raise DealError(f"impossible position: {exc}") from None
        if pool_tiles is not None and len(everything) != cls.tileset.size:
            raise DealError("the pool must hold every tile not on a rack or the table")
        g = cls()
        g.rules, g.players, g.first, g.seat = rules, players, to_move, to_move
        g.racks = [counts_of(r) for r in rack_tiles]
        g.rack_sizes = [len(r) for r in rack_tiles]
        for m in melds:
            g.table[m] = g.table.get(m, 0) + 1
        done = initial_meld_done
        g.initial_done = [done] * players if isinstance(done, bool) else list(done)
        g.pool = None if pool_tiles is None else [int(t) for t in pool_tiles]
        g.pool_count = cls.tileset.size - len(everything) + (len(pool_tiles) if pool_tiles else 0)
        g.deal = {"racks": [[str(t) for t in r] for r in rack_tiles]}
        return g

    # ----------------------------------------------------------- state access
    @property
    def to_move(self) -> int | None:
        return None if self.over else self.seat

    @property
    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[int] | None:
        return None if self._scores is None else list(self._scores)

    def rack(self, seat: int) -> list:
        """The tiles on ``seat``'s rack, sorted (server side: hidden info)."""
        return tiles_of(self.racks[seat])

    def table_melds(self) -> list[Meld]:
        """The melds on the table in canonical order."""
        out = []
        for m in sorted(self.table):
            out.extend([m] * self.table[m])
        return out

    def table_text(self) -> list[str]:
        return [format_meld(m) for m in self.table_melds()]

    def next_seat(self, seat: int) -> int:
        step = 1 if self.rules.direction == "clockwise" else -1
        return (seat + step) % self.players

    def unseen_counts(self) -> list[int]:
        """Tiles neither on a rack nor on the table (the pool's contents)."""
        c = self.tileset.counts()
        for r in self.racks:
            for i, n in enumerate(r):
                c[i] -= n
        for m, k in self.table.items():
            for s in m:
                c[s if s < 52 else JOKER] -= k
        return c

    # ----------------------------------------------------------- moves
    def parse_move(self, text: str) -> Move:
        """:raises NotationError: text not in the move notation."""
        return Move.parse(text)

    def play_to_table(self, melds: Iterable) -> Move:
        """The play that turns the table into ``melds`` (texts or slots; the
        whole table as it should be after the turn): the old melds that are
        gone and the new ones, the rack tiles derived. For a front end that
        lets a player lay out the whole table.

        :raises NotationError: a bad meld, or the new table lacks tiles of
            the old one.
        """
        new = [parse_meld(m) if isinstance(m, str) else canonical(m) for m in melds]
        left = dict(self.table)
        added = []
        for m in new:
            if left.get(m, 0) > 0:
                left[m] -= 1
            else:
                added.append(m)
        removed = [m for m, k in left.items() for _ in range(k)]
        return Move.play(removed, added)

    def legal(self, move: Move) -> bool:
        """Whether ``move`` may be pushed now (no state change)."""
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def push(self, move: Move | str) -> Outcome:
        """Check and apply a move.

        :raises NotationError: ``move`` is text that does not parse.
        :raises IllegalMoveError: the rules forbid it (``.rule`` names the
            rule; a play ending with an invalid table carries the 3-tile
            penalty in ``.penalty``); the state is unchanged.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        plan = self._check(move)
        return self._apply(move, plan)

    def _illegal(self, message: str, rule: str, penalty=None):
        return IllegalMoveError(message, rule=rule, penalty=penalty)

    def _check(self, move: Move):
        if self.over:
            raise self._illegal("the game is over", "game-over")
        if not isinstance(move, Move):
            raise self._illegal(f"not a move: {move!r}", "not-a-move")
        kind = move.kind
        if kind == "play":
            return self._check_play(move)
        pool_left = self.pool_count
        if kind == "pass":
            if pool_left:
                raise self._illegal(f"the pool still holds {pool_left} tiles: draw instead of passing",
                                    "pool-not-empty")
            return ()
        if kind == "timeout" and not self.rules.turn_time_limit:
            raise self._illegal("these rules have no turn time limit (turn_time_limit=0)",
                                "no-time-limit")
        if kind == "draw" and not pool_left:
            raise self._illegal("the pool is empty: play or pass", "pool-empty")
        want = {"draw": 1, "timeout": 1, "penalty": 3}[kind]
        k = min(want, pool_left)
        named = list(move.tiles)
        if self.pool is not None:
            drawn = sorted(self.pool[self.pool_pos:self.pool_pos + k])
            if named and self.seed is not None:
                # The shuffle is secret until the end: a refusal that said
                # whether a guessed tile was on top would leak the pool's order.
                raise self._illegal(f"in a game dealt from a seed a {kind} names no tile: "
                                    f"write '{kind}' alone", "draw-names-tile")
            if named and named != drawn:
                raise self._illegal(f"{kind} names {format_tiles(named)} but the pool gives "
                                    f"{'another tile' if k == 1 else 'other tiles'}",
                                    "wrong-tile-drawn")
            return drawn
        if len(named) != k:
            raise self._illegal(f"this game has no recorded pool: the {kind} must name the "
                                f"{k} tile(s) drawn", "draw-must-name-tile")
        unseen = self.unseen_counts()
        for t in named:
            unseen[t] -= 1
            if unseen[t] < 0:
                raise self._illegal(f"{_TEXT[t]} cannot be drawn: every copy is on a rack "
                                    f"or on the table", "tile-not-in-pool")
        return named

    def _check_play(self, move: Move):
        seat = self.seat
        rules = self.rules
        rack = self.racks[seat]
        # old melds on the table
        if move.removed:
            need: dict[Meld, int] = {}
            for m in move.removed:
                need[m] = need.get(m, 0) + 1
            for m, n in need.items():
                if self.table.get(m, 0) < n:
                    raise self._illegal(f"{format_meld(m)} is not on the table", "meld-not-on-table")
        # tiles from the rack
        played = counts_of(move.tiles)
        if not move.tiles:
            raise self._illegal("a play must lay at least one tile from the rack", "no-tile-from-rack")
        for code, n in enumerate(played):
            if n > rack[code]:
                raise self._illegal(f"{_TEXT[code]} is not on the rack of seat {seat}"
                                    + (f" ({n} played, {rack[code]} held)" if rack[code] else ""),
                                    "tiles-not-on-rack")
        # every new meld valid
        for m in move.added:
            if meld_kind(m) is None:
                raise self._illegal(f"{format_meld(m)} is not a valid meld: {why_invalid(m)}",
                                    "table-not-valid", penalty=Move("penalty"))
        # initial meld
        first_meld = not self.initial_done[seat]
        if first_meld:
            if move.removed and not rules.manipulate_on_initial_turn:
                raise self._illegal("the initial meld must come from the rack alone; the table "
                                    "may be changed from the next turn", "initial-meld-from-rack-only")
            if move.removed:
                value = self._rack_only_value(move.added, played)
            else:
                value = sum(meld_value(m) for m in move.added)
            if value < rules.initial_meld:
                raise self._illegal(f"the initial meld is worth {value}, below "
                                    f"{rules.initial_meld}", "initial-meld-below-threshold")
        # jokers
        if any(s >= RUN_JOKER for m in move.removed for s in m):
            self._check_jokers(move, played)
        return None

    @staticmethod
    def _rack_only_value(added, played) -> int:
        """The most points of new melds made wholly of rack tiles."""
        cands = []
        for m in added:
            c = counts_of(s if s < 52 else JOKER for s in m)
            if _sub_ok(c, played):
                cands.append((meld_value(m), c))
        best = 0
        if len(cands) <= 12:
            for r in range(1, len(cands) + 1):
                for combo in itertools.combinations(cands, r):
                    tot = [0] * NUM_CODES
                    for _, c in combo:
                        for i, n in enumerate(c):
                            if n:
                                tot[i] += n
                    if _sub_ok(tot, played):
                        best = max(best, sum(v for v, _ in combo))
        else:  # pragma: no cover - more than 12 new melds in one turn
            left = list(played)
            for v, c in sorted(cands, key=lambda x: -x[0]):
                if _sub_ok(c, left):
                    left = [a - b for a, b in zip(left, c)]
                    best += v
        return best

    def _check_jokers(self, move: Move, played: list[int]) -> None:
        rules = self.rules
        removed, added = move.removed, move.added
        old = []  # (candidates, removed index, slot index)
        for i, m in enumerate(removed):
            for k, s in enumerate(m):
                if s >= RUN_JOKER:
                    old.append((joker_candidates(m, k), i, k))
        new = []  # (candidates, added index, slot index)
        for j, m in enumerate(added):
            for k, s in enumerate(m):
                if s >= RUN_JOKER:
                    new.append((joker_candidates(m, k), j, k))
        both = rules.joker_group_both_colours
        needs: list[list[frozenset]] = []  # freeing tiles, per freed joker
        kept_new: set[int] = set()        # indices into ``new`` of kept jokers
        if rules.joker_sets == "frozen":
            freed = self._frozen_successors(removed, added, old, new, kept_new, needs)
        else:
            size, match_r = _match([c for c, _, _ in old], [c for c, _, _ in new])
            kept_new = {j for j, i in enumerate(match_r) if i >= 0}
            matched_old = {i for i in match_r if i >= 0}
            freed = 0
            for i, (cands, _, _) in enumerate(old):
                if i in matched_old:
                    continue
                freed += 1
                if rules.joker_sets == "free":
                    continue
                if both and len(cands) > 1:
                    needs.append([frozenset((t,)) for t in sorted(cands)])
                else:
                    needs.append([cands])
        if not freed:
            return
        if not self.initial_done[self.seat] and not rules.manipulate_on_initial_turn:
            raise self._illegal("a joker cannot be freed before the initial meld", "joker-before-initial-meld")
        # where the freeing tiles come from
        if rules.joker_freed_from == "rack":
            source = played
            where = "from the rack"
        else:
            source = _meld_counts(added)
            where = "on the table"
        if not _pick_distinct(needs, source):
            wanted = " and ".join("/".join(_TEXT[t] for t in sorted(c)) for n in needs for c in n)
            raise self._illegal(f"a joker left its tile without being replaced: it needs "
                                f"{wanted} {where}", "joker-not-replaced")
        # where the freed jokers go
        reuse = rules.joker_reuse
        if reuse == "any":
            return
        spots = [n for idx, n in enumerate(new) if idx not in kept_new]
        good = sum(1 for cands, j, k in spots if self._reuse_ok(reuse, removed, added[j], k, played))
        if good < freed:
            text = {"new-meld": "in a new meld",
                    "new-meld-with-rack-tiles": "in a new meld with two or more tiles from the rack",
                    "joker-and-rack-tiles-only": "in a new meld formed of the joker and two or more "
                                                 "rack tiles only"}[reuse]
            raise self._illegal(f"a freed joker must be used {text}", "joker-reuse")

    def _frozen_successors(self, removed, added, old, new, kept_new, needs) -> int:
        """Official Book: each old meld holding a joker continues, whole, in
        one new meld, its jokers kept in place or replaced there. Fills
        ``kept_new`` and ``needs``; returns the number of freed jokers."""
        both = self.rules.joker_group_both_colours
        joker_melds = sorted({i for _, i, _ in old})
        new_by_meld: dict[int, list[int]] = {}
        for idx, (_, j, _) in enumerate(new):
            new_by_meld.setdefault(j, []).append(idx)
        options: list[list[tuple[int, set[int], list, int]]] = []
        for i in joker_melds:
            r = removed[i]
            olds = [(c, k) for c, ii, k in old if ii == i]
            opts = []
            for j, a in enumerate(added):
                if not _reals_within(r, a):
                    continue
                extra = _counts_slots(a)
                for t, n in _counts_slots(r).items():
                    extra[t] -= n
                a_new = new_by_meld.get(j, [])
                # keep what can be kept in place, free the rest there
                size, match_r = _match([c for c, _ in olds], [new[x][0] for x in a_new])
                kept = {a_new[x] for x, y in enumerate(match_r) if y >= 0}
                matched = {y for y in match_r if y >= 0}
                ok, meld_needs, freed = True, [], 0
                pool = dict(extra)
                for y, (c, _) in enumerate(olds):
                    if y in matched:
                        continue
                    freed += 1
                    req = [frozenset((t,)) for t in sorted(c)] if both and len(c) > 1 else [c]
                    for need in req:
                        hit = next((t for t in sorted(need) if pool.get(t, 0) > 0), None)
                        if hit is None:
                            ok = False
                            break
                        pool[hit] -= 1
                    if not ok:
                        break
                    meld_needs.append(req)
                if ok:
                    opts.append((j, kept, meld_needs, freed))
            if not opts:
                raise self._illegal(
                    f"{format_meld(r)} holds a joker: it may only be added to, or have its joker "
                    f"replaced by the tile it stands for", "joker-set-frozen")
            options.append(opts)
        # choose distinct successors (few melds: try combinations)
        best = None
        for choice in itertools.product(*options):
            js = [c[0] for c in choice]
            if len(set(js)) != len(js):
                continue
            freed = sum(c[3] for c in choice)
            if best is None or freed < best[0]:
                best = (freed, choice)
        if best is None:
            raise self._illegal("melds holding jokers may only be added to, each on its own",
                                "joker-set-frozen")
        for c in best[1]:
            kept_new.update(c[1])
            needs.extend(c[2])
        return best[0]

    @staticmethod
    def _reuse_ok(reuse: str, removed, meld: Meld, k: int, played: list[int]) -> bool:
        if any(_reals_within(r, meld) for r in removed):
            return False  # an old meld continued: not a new meld
        if reuse == "new-meld":
            return True
        left = list(played)
        if reuse == "new-meld-with-rack-tiles":
            from_rack = 0
            jokers = -1  # the freed joker itself
            for s in meld:
                t = s if s < 52 else JOKER
                if t == JOKER:
                    jokers += 1
                    continue
                if left[t] > 0:
                    left[t] -= 1
                    from_rack += 1
            from_rack += min(max(jokers, 0), played[JOKER])
            return from_rack >= 2
        # joker-and-rack-tiles-only: a sub-meld of the joker and >= 2 rack tiles
        if meld_kind(meld) == "group":
            n = 0
            for s in meld:
                if s < 52 and left[s] > 0:
                    left[s] -= 1
                    n += 1
            return n >= 2
        for lo in range(0, k + 1):
            for hi in range(k + 1, len(meld) + 1):
                if hi - lo < 3:
                    continue
                window = [s for x, s in enumerate(meld[lo:hi], lo) if x != k]
                c = list(played)
                ok = True
                for s in window:
                    t = s if s < 52 else JOKER
                    c[t] -= 1
                    if c[t] < 0:
                        ok = False
                        break
                if ok:
                    return True
        return False

    def _apply(self, move: Move, plan) -> Outcome:
        seat = self.seat
        kind = move.kind
        n = self.players
        self.move_stack.append(move)
        self.move_seats.append(seat)
        self.turn += 1
        if kind == "play":
            rack = self.racks[seat]
            for t in move.tiles:
                rack[t] -= 1
            self.rack_sizes[seat] -= len(move.tiles)
            table = self.table
            for m in move.removed:
                c = table[m] - 1
                if c:
                    table[m] = c
                else:
                    del table[m]
            for m in move.added:
                table[m] = table.get(m, 0) + 1
            self.initial_done[seat] = True
            self.passes = 0
            detail = {"tiles": [str(t) for t in move.tiles]}
            if self.rack_sizes[seat] == 0:
                self._finish("rack-empty", winner=seat)
                return Outcome("game-over", seat, detail, True)
            self.seat = self.next_seat(seat)
            return Outcome("played", seat, detail, False)
        # draw-like
        drawn = list(plan)
        pool_was_empty = self.pool_count == 0
        if drawn:
            rack = self.racks[seat]
            for t in drawn:
                rack[t] += 1
            self.rack_sizes[seat] += len(drawn)
            self.pool_count -= len(drawn)
            if self.pool is not None:
                self.pool_pos += len(drawn)
        out_kind = {"draw": "drew", "timeout": "timeout", "penalty": "penalty", "pass": "passed"}[kind]
        detail = {"tiles": [str(TILES[t]) for t in drawn]}
        if pool_was_empty:
            self.passes += 1
            if self.rules.pool_empty_end == "first-pass" or self.passes >= n:
                self._finish("pool-empty")
                return Outcome("game-over", seat, detail, True)
        self.seat = self.next_seat(seat)
        return Outcome(out_kind, seat, detail, False)

    def _finish(self, reason: str, winner: int | None = None) -> None:
        self.over = True
        self.end_reason = reason
        values = [rack_value(tiles_of(r), self.rules.joker_penalty) for r in self.racks]
        # ties at the pool-empty end: the odd points go first to the seat
        # that would have moved next
        start = self.next_seat(self.seat)
        self._scores, self.winners = score_values(values, winner, tie_start=start)

    # ----------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public view). Other racks and
        the pool are counts only until the game is over.

        :raises DealError: no such seat.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise DealError(f"no seat {seat!r} in a {self.players}-player game")
        v: dict[str, Any] = {
            "family": self.family,
            "variant": self.variant,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "seat": seat,
            "to_move": self.to_move,
            "turn": self.turn,
            "table": self.table_text(),
            "rack_counts": list(self.rack_sizes),
            "pool_count": self.pool_count,
            "initial_meld_done": list(self.initial_done),
            "is_over": self.over,
        }
        if seat is not None:
            v["rack"] = [str(t) for t in tiles_of(self.racks[seat])]
        if self.over:
            v["racks"] = [[str(t) for t in tiles_of(r)] for r in self.racks]
            v["scores"] = list(self._scores)
            v["winners"] = list(self.winners)
            v["end_reason"] = self.end_reason
        return v

    def snapshot(self) -> dict[str, Any]:
        """The whole state, JSON-safe (server side: it holds the racks, the
        pool and the seed)."""
        return {
            "variant": self.variant,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "first": self.first,
            "seed": self.seed,
            "deal": self.deal,
            "racks": [[str(t) for t in tiles_of(r)] for r in self.racks],
            "pool": None if self.pool is None else [_TEXT[t] for t in self.pool[self.pool_pos:]],
            "pool_count": self.pool_count,
            "table": self.table_text(),
            "initial_meld_done": list(self.initial_done),
            "to_move": self.seat,
            "turn": self.turn,
            "passes": self.passes,
            "over": self.over,
            "end_reason": self.end_reason,
            "winners": list(self.winners),
            "scores": None if self._scores is None else list(self._scores),
            "moves": [str(m) for m in self.move_stack],
            "move_seats": list(self.move_seats),
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "SabraGame":
        """:raises DealError: a snapshot of another variant or malformed."""
        from .registry import find_variant

        try:
            if data.get("variant") != cls.variant:
                klass = find_variant(data["variant"])
                if klass is not cls:
                    return klass.from_snapshot(data)
            g = cls()
            g.rules = rules_from_dict(data["rules"])
            g.players = data["players"]
            g.first = data["first"]
            g.seed = data.get("seed")
            g.deal = data.get("deal")
            g.racks = [counts_of(parse_tiles(r)) for r in data["racks"]]
            g.rack_sizes = [sum(r) for r in g.racks]
            g.pool = None if data.get("pool") is None else [int(t) for t in parse_tiles(data["pool"])]
            g.pool_pos = 0
            g.pool_count = data["pool_count"]
            g.table = {}
            for text in data["table"]:
                m = parse_meld(text)
                g.table[m] = g.table.get(m, 0) + 1
            g.initial_done = list(data["initial_meld_done"])
            g.seat = data["to_move"]
            g.turn = data["turn"]
            g.passes = data["passes"]
            g.over = data["over"]
            g.end_reason = data.get("end_reason")
            g.winners = list(data.get("winners") or [])
            g._scores = None if data.get("scores") is None else list(data["scores"])
            g.move_stack = [Move.parse(t) for t in data.get("moves", [])]
            g.move_seats = list(data.get("move_seats", []))
        except (KeyError, TypeError, NotationError) as exc:
            raise DealError(f"malformed snapshot: {exc!r}") from None
        return g

    # ----------------------------------------------------------- records
    def setup_tags(self) -> dict[str, Any]:
        """What a game record needs to start this game again: players,
        first seat, rules, and the seed or the deal."""
        out: dict[str, Any] = {"players": self.players, "first": self.first,
                               "rules": rules_to_dict(self.rules)}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            out["deal"] = self.deal
        return out


@register
class SabraXPGame(SabraGame):
    """Rummikub XP: the Sabra rules with 160 tiles (three of each, 4 jokers)
    for 2-6 players."""

    variant = "sabra-xp"
    aliases = ("xp", "rummikub-xp")
    min_players = 2
    max_players = 6
    tileset = XP


register(SabraGame)


# ---------------------------------------------------------------------------
# Rounds
# ---------------------------------------------------------------------------

class Round:
    """A round of ``games`` games (by default as many as players, seed 001)
    with the first player rotating one seat in the direction of play each
    game. Record each game's scores and winners; the round's winner has
    won the most games, then has the highest total.

    >>> r = Round(2)
    >>> r.first_player(0), r.first_player(1)
    (0, 1)
    """

    def __init__(self, players: int, games: int | None = None, first: int = 0,
                 direction: str = "clockwise"):
        if not isinstance(players, int) or players < 2:
            raise DealError("a round needs at least two players")
        if direction not in DIRECTIONS:
            raise RuleOptionError(f"direction must be one of {', '.join(DIRECTIONS)}")
        self.players = players
        self.games = players if games is None else games
        if not isinstance(self.games, int) or self.games < 1:
            raise DealError("a round has at least one game")
        self.first = first
        self.direction = direction
        self.results: list[tuple[list[int], list[int]]] = []

    def first_player(self, index: int) -> int:
        """The seat that moves first in game ``index`` (0-based)."""
        step = 1 if self.direction == "clockwise" else -1
        return (self.first + step * index) % self.players

    def record(self, scores: list[int], winners: list[int]) -> None:
        """Add one game's result.

        :raises ScoreError: wrong length, not zero-sum, round complete.
        """
        if self.is_complete:
            raise ScoreError(f"the round's {self.games} games are all recorded")
        if len(scores) != self.players or sum(scores) != 0:
            raise ScoreError(f"a game's scores must be {self.players} numbers summing to 0: {scores}")
        if not winners or any(not 0 <= w < self.players for w in winners):
            raise ScoreError(f"bad winners {winners!r}")
        self.results.append((list(scores), list(winners)))

    def record_game(self, game: SabraGame) -> None:
        """Add a finished game.

        :raises ScoreError: the game is not over.
        """
        if not game.is_over:
            raise ScoreError("the game is not over")
        self.record(game.scores(), game.winners)

    @property
    def is_complete(self) -> bool:
        return len(self.results) >= self.games

    def totals(self) -> list[int]:
        return [sum(s[i] for s, _ in self.results) for i in range(self.players)]

    def games_won(self) -> list[int]:
        """Games won per seat; a game tied at the pool-empty end counts as a
        win for each tied player."""
        won = [0] * self.players
        for _, winners in self.results:
            for w in winners:
                won[w] += 1
        return won

    def standings(self) -> list[int]:
        """Seats best first: most games won, then highest total, then seat."""
        won, tot = self.games_won(), self.totals()
        return sorted(range(self.players), key=lambda s: (-won[s], -tot[s], s))

    def winner(self) -> int | None:
        """The round's winner, ``None`` while tied on games won and score."""
        order = self.standings()
        won, tot = self.games_won(), self.totals()
        a, b = order[0], order[1]
        if (won[a], tot[a]) == (won[b], tot[b]):
            return None
        return a


__all__ = ["RuleSet", "PRESETS", "RULE_OPTIONS", "rules_from_dict", "rules_to_dict",
           "Move", "SabraGame", "SabraXPGame", "Round", "score_racks", "score_values",
           "rack_value", "ScoreError"]
