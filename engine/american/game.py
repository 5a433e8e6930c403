"""American and International Rummikub (seed 001): :class:`AmericanGame`
(variant ``american``) and :class:`InternationalGame` (variant
``international-rummikub``). One event-sourced game is one deal.

A session::

    >>> from engine.registry import find_variant
    >>> Game = find_variant("american")
    >>> game = Game.new(3, seed="club-night-1")
    >>> game.to_move, [len(r) for r in game.racks], game.phase
    (0, [14, 14, 14], 'draw')

The deal (seed 001): the 106 tiles shuffled from the seed and built into 15
stacks of 7 with one tile over. Each player takes two stacks in turn from
the starting seat. American: the odd tile is the face-up trump in the
centre. International: the odd tile goes to the starter, who holds 15 and
begins by laying or discarding (no draw), and the trump is the face-up top
tile of the stack drawn last: whoever draws it, everyone knows.

A turn: ``draw`` (or ``take`` the previous player's discard; American: the
``trump``, only to win with it in the same move), any number of ``lay``
moves, then ``discard``. Seats are numbered in the order of play (the turn
passes counter-clockwise at the table): seat ``s`` takes the discard of seat
``s - 1``. Every reading is in ``docs/rules/american.md`` and
``docs/rules/international.md``.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any, ClassVar

from ..base import Outcome, check_new_args
from ..drawdiscard import DrawDiscardGame
from ..errors import IllegalMoveError, NotationError, RecordError, RuleOptionError
from ..melds import format_meld, meld_tiles, parse_meld
from ..records import write_game
from ..registry import register
from ..tiles import JOKER, STANDARD, format_tile, parse_tile, shuffled
from .closed import classify
from .deal import HAND, STACK, check_deal, deal_from
from .lay import check_lay
from .moves import Move
from .options import OPTIONS
from .rules import AMERICAN, INTERNATIONAL, AmericanRules
from .scoring import american_scores, international_scores, pool_empty_scores, win_points



def _code(text: str) -> int:
    return int(parse_tile(text))


@register
class AmericanGame(DrawDiscardGame):
    """American Rummikub (seed 001)."""

    family: ClassVar[str] = "american"
    Move = Move
    variant: ClassVar[str] = "american"
    aliases: ClassVar[tuple[str, ...]] = ("american-rummikub",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    RuleSet: ClassVar[type] = AmericanRules
    OPTIONS: ClassVar[tuple] = OPTIONS
    BASE: ClassVar[AmericanRules] = AMERICAN

    # --- construction ---------------------------------------------------------
    @classmethod
    def rules_from_dict(cls, data: dict[str, Any] | None) -> AmericanRules:
        return AmericanRules.from_dict(data, cls.BASE)

    @classmethod
    def rules_to_dict(cls, rules: AmericanRules) -> dict[str, Any]:
        return rules.to_dict()

    @classmethod
    def new(cls, players: int, rules=None, *, seed: str | None = None,
            deal: dict[str, Any] | None = None, first: int = 0) -> "AmericanGame":
        """Start a deal.

        ``deal`` (a game at a real table): ``{"hands": [[tiles of seat 0], ...],
        "pool": [the face-down tiles in the order drawn]}`` and for American
        ``"trump": tile``; International's starter holds 15 and its trump is
        the seventh tile from the end of the pool.

        :raises DealError: bad seed, deal, player count or first seat.
        :raises RuleOptionError: bad rules.
        """
        if rules is None:
            rules = cls.BASE
        elif isinstance(rules, dict):
            rules = cls.rules_from_dict(rules)
        elif not isinstance(rules, AmericanRules):
            raise RuleOptionError(f"rules must be AmericanRules or a dict, not {type(rules).__name__}")
        if rules.international != cls.BASE.international:
            raise RuleOptionError(f"these rules are not {cls.variant}'s")
        check_new_args(players, seed, deal, first, low=cls.min_players, high=cls.max_players, name=cls.variant)
        g = cls.__new__(cls)
        g.n, g.rules, g.seed, g.first = players, rules, seed, first
        if deal is not None:
            g.racks, g.pool, g.trump = check_deal(deal, players, first, rules.international)
            g.deal = {"hands": [list(r) for r in g.racks], "pool": list(g.pool),
                      **({"trump": g.trump} if not rules.international else {})}
        else:
            g.deal = None
            g.racks, g.pool, g.trump = deal_from(list(shuffled(STANDARD, seed)), players, first, rules.international)
        g.piles = [[] for _ in range(players)]
        g.table = []                   # [owner seat, meld slots]
        g.melded = [False] * players
        g.turns = [0] * players
        g.announced = [False] * players
        g.twin = [False] * players     # held the trump's twin at some time
        g.active = first
        g.phase = "draw"
        g.takeable_from = None         # the seat whose discard may be taken now
        g.drew_trump = False
        g.drawn_tile = None
        g.first_lay_turn = False       # this turn is the seat's first laying
        g.added_to_others = False
        g.laid_now = []                # tiles laid this turn
        g.over = False
        g.winner = None
        g.win = {}
        g.final = None
        g.move_stack, g.move_seats = [], []
        g._start_turn()
        if rules.international:        # the starter holds 15: no draw first
            g.phase = "play"
        g._note_twins()
        return g

    # --- who may act (to_move, is_over, players, previous: engine.drawdiscard) --------
    def scores(self) -> list[int] | None:
        return list(self.final) if self.over else None

    @property
    def winners(self) -> list[int]:
        if not self.over:
            return []
        if self.winner is not None:
            return [self.winner]
        return list(self.win.get("lowest", []))

    @property
    def end_reason(self) -> str | None:
        if not self.over:
            return None
        if self.winner is None:
            return "the face-down stacks ran out with no winner"
        return f"seat {self.winner} won ({self.win.get('kind')})"

    def takeable(self) -> int | None:
        """The discard the seat on turn may take now, or ``None``."""
        if self.over or self.phase != "draw" or self.takeable_from != self.previous:
            return None
        if self.rules.take_discard == "from-second-turn" and self.turns[self.active] < 2:
            return None
        pile = self.piles[self.previous]
        return pile[-1] if pile else None

    def trump_in_pool(self) -> bool:
        """International: the trump is still the face-up top of the last stack."""
        return self.rules.international and len(self.pool) >= STACK

    # --- moves (parse_move: engine.drawdiscard) -----------------------------------
    def push(self, move: Move | str) -> Outcome:
        """Check and apply ``move`` for the seat on turn.

        :raises IllegalMoveError: the rules forbid it; the state is unchanged.
        :raises NotationError: text that does not parse.
        """
        move = self._accept(move)
        seat = self.active
        saved = self._save()
        try:
            out = getattr(self, "_" + move.action)(seat, move)
        except IllegalMoveError:
            self._restore(saved)
            raise
        self.move_stack.append(str(move))
        self.move_seats.append(seat)
        return out

    _STATE = ("racks", "pool", "trump", "piles", "table", "melded", "turns", "announced", "twin", "active",
              "phase", "takeable_from", "drew_trump", "drawn_tile", "first_lay_turn", "added_to_others",
              "laid_now", "over", "winner", "win", "final")

    def _save(self) -> dict[str, Any]:
        return {k: copy.deepcopy(getattr(self, k)) for k in self._STATE}

    def _restore(self, saved: dict[str, Any]) -> None:
        for k, v in saved.items():
            setattr(self, k, v)

    def _need(self, phase: str, what: str) -> None:
        if self.phase != phase:
            raise IllegalMoveError(f"{what}: the turn begins with draw or take" if phase == "draw"
                                   else f"{what}: draw or take a tile first", "wrong-phase")

    def _draw(self, seat: int, move: Move) -> Outcome:
        self._need("draw", "draw")
        if not self.pool:
            raise IllegalMoveError("the face-down stacks are empty", "pool-empty")
        trump = self.trump_in_pool() and len(self.pool) == STACK
        tile = self.pool.pop(0)
        self.racks[seat].append(tile)
        self.drawn_tile = tile
        self.drew_trump = trump
        self.phase = "play"
        self._note_twins()
        return Outcome("trump" if trump else "drew", seat, {"tile": format_tile(tile)})

    def _take(self, seat: int, move: Move) -> Outcome:
        self._need("draw", "take")
        if self.takeable_from != self.previous or not self.piles[self.previous]:
            raise IllegalMoveError("no discard to take: only the one the previous player just made",
                                   "nothing-to-take")
        tile = self.takeable()
        if tile is None:
            raise IllegalMoveError("the previous player's discard may be taken from one's second turn on",
                                   "take-too-early")
        self.piles[self.previous].pop()
        self.racks[seat].append(tile)
        self.drawn_tile = tile
        self.takeable_from = None
        self.phase = "play"
        self._note_twins()
        return Outcome("took", seat, {"tile": format_tile(tile)})

    def _trump(self, seat: int, move: Move) -> Outcome:
        """American: take the face-up trump and win with it, in one move
        (its lay parts, then the final discard)."""
        if self.rules.international:
            raise IllegalMoveError("International's trump is drawn with the stack it tops", "no-trump-move")
        self._need("draw", "trump")
        if self.trump is None:
            raise IllegalMoveError("the trump has been taken", "no-trump")
        self.racks[seat].append(self.trump)
        self.drawn_tile, self.trump, self.drew_trump, self.phase = self.trump, None, True, "play"
        if move.melds or move.adds or move.frees:
            self._lay(seat, Move("lay", melds=move.melds, adds=move.adds, frees=move.frees))
        out = self._discard(seat, Move("discard", move.tile))
        if not self.over:
            raise IllegalMoveError("the trump is taken only to win with it: this move does not go out",
                                   "trump-to-win")
        return out

    def _announce(self, seat: int, move: Move) -> Outcome:
        if not self.rules.announce:
            raise IllegalMoveError("these rules have no announcing", "no-announce")
        self._need("play", "announce")
        if len(self.racks[seat]) > 4:
            raise IllegalMoveError("announce when three or fewer tiles will be left after the discard",
                                   "announce-too-early")
        self.announced[seat] = True
        return Outcome("announced", seat, {"tiles": len(self.racks[seat]) - 1})

    def _lay(self, seat: int, move: Move) -> Outcome:
        self._need("play", "lay")
        first = not self.melded[seat]
        new_table, used, added_others, value = self._check_lay(seat, move)
        rack = Counter(self.racks[seat])
        rack.subtract(used)
        left = sum(rack.values())
        if left < 1:
            raise IllegalMoveError("a player keeps one tile to discard: laying every tile is not allowed",
                                   "no-discard-left")
        if first:
            self._check_initial(move, value, left)
        elif self.rules.international and self.drew_trump and left == 1:
            raise IllegalMoveError("the trump cannot be the final draw of an Open win: keep two tiles "
                                   "this turn", "trump-final-draw")
        self.table = new_table
        rest = list(self.racks[seat])
        for t, k in used.items():
            for _ in range(k):
                rest.remove(t)
        self.racks[seat] = rest
        self.laid_now += [t for t, k in used.items() for _ in range(k)]
        self.added_to_others = self.added_to_others or added_others
        if first:
            self.melded[seat] = True
            self.first_lay_turn = True
        return Outcome("laid", seat, {"tiles": sum(used.values()), "left": left})

    def _check_initial(self, move: Move, value: int, left: int) -> None:
        r = self.rules
        if r.international and left == 1:
            # all but one at once: a Foot (with additions to others' melds) or a
            # closed hand on one's own melds (judged at the discard)
            if (move.adds or move.frees) and value < r.initial_meld:
                raise IllegalMoveError(f"a Foot lays tiles worth {r.initial_meld} or more; these are worth "
                                       f"{value}", "foot-too-small")
            return
        if move.adds or move.frees:
            raise IllegalMoveError("before the initial meld a player lays new melds from the rack only",
                                   "initial-meld-first")
        if value < r.initial_meld:
            raise IllegalMoveError(f"the initial meld needs {r.initial_meld} points from the rack; these "
                                   f"melds are worth {value}", "initial-meld-too-small")

    def _check_lay(self, seat: int, move: Move):
        return check_lay(self.table, self.racks[seat], seat, move, self.rules)

    def _discard(self, seat: int, move: Move) -> Outcome:
        self._need("play", "discard")
        tile = move.tile
        if tile not in self.racks[seat]:
            raise IllegalMoveError(f"{format_tile(tile)} is not on the rack", "not-on-rack")
        self.racks[seat].remove(tile)
        if not self.racks[seat]:
            return self._won(seat, tile)
        r = self.rules
        if r.announce and self.melded[seat] and len(self.racks[seat]) <= 3 and not self.announced[seat]:
            raise IllegalMoveError("announce first: three or fewer tiles would be left", "announce-first")
        self.piles[seat].append(tile)
        self.takeable_from = seat
        if not self.pool:
            return self._end_no_winner(seat)
        self._next()
        return Outcome("discarded", seat, {"tile": format_tile(tile)})

    def _closed(self, seat: int, move: Move) -> Outcome:
        if not self.rules.international:
            raise IllegalMoveError("closed hands are International's", "no-closed")
        self._need("play", "closed")
        if self.melded[seat]:
            raise IllegalMoveError("a closed hand is all 14 at once: this player has laid tiles already",
                                   "closed-after-lay")
        rack = list(self.racks[seat])
        if move.tile not in rack:
            raise IllegalMoveError(f"{format_tile(move.tile)} is not on the rack", "not-on-rack")
        rack.remove(move.tile)
        if len(rack) != HAND:
            raise IllegalMoveError(f"a closed hand is 14 tiles, not {len(rack)}", "closed-size")
        answer = self._classify(seat, rack, move.tile)
        if answer.best is None:
            raise IllegalMoveError("these 14 tiles are none of the 40 closed hands", "not-closed")
        self.racks[seat] = []
        return self._won(seat, move.tile, closed=answer, shown=rack)

    def _classify(self, seat: int, tiles: list[int], discard: int):
        first_turn = self.turns[seat] == 1
        original = first_turn and seat != self.first and discard == self.drawn_tile
        return classify([format_tile(t) for t in tiles], first_turn=first_turn, original_hand=original)

    # --- the end ------------------------------------------------------------------
    def _won(self, seat: int, discard: int, closed=None, shown=None) -> Outcome:
        r = self.rules
        if not r.international:
            self.final, values = american_scores(self.racks, seat, r.joker_penalty)
            self.win = {"kind": "trump" if self.drew_trump else "melded all",
                        "discard": format_tile(discard), "values": values}
            return self._finish(seat)
        kind = None
        if closed is None and self.first_lay_turn:
            if self.added_to_others:
                kind = "foot"
            else:
                answer = self._classify(seat, list(self.laid_now), discard)
                if answer.best is not None:
                    closed, shown = answer, list(self.laid_now)
        if closed is not None:
            kind = "closed"
        elif kind is None:
            if self.drew_trump:
                raise IllegalMoveError("the trump cannot be the final draw of an Open win", "trump-final-draw")
            kind = "open"
        alone = not any(self.melded[s] for s in range(self.n) if s != seat)
        base = win_points(kind, closed.score if closed is not None else 0, alone,
                          twin=r.trump_twin_bonus and self.twin[seat])
        self.final = international_scores(self.racks, self.melded, seat, kind, base, r.joker_penalty,
                                          doubled=discard == JOKER)
        self.win = {"kind": kind, "discard": format_tile(discard), "doubled": discard == JOKER}
        if closed is not None:
            self.win.update(type=closed.best, melds=closed.melds, shown=[format_tile(t) for t in sorted(shown)],
                            on_table=not self.racks[seat] and bool(self.laid_now))
        return self._finish(seat)

    def _end_no_winner(self, seat: int) -> Outcome:
        r = self.rules
        if r.pool_empty == "lowest-rack":
            self.final, values, lowest = pool_empty_scores(self.racks, r.joker_penalty, tie_start=(seat + 1) % self.n)
            self.win = {"kind": "pool empty", "values": values, "lowest": lowest}
        else:
            self.final = international_scores(self.racks, self.melded, None, "no winner", 0, r.joker_penalty)
            self.win = {"kind": "no winner"}
        self.over = True
        self.phase = "over"
        return Outcome("game-over", seat, {"winner": None}, game_over=True)

    def _finish(self, seat: int) -> Outcome:
        self.winner = seat
        self.over = True
        self.phase = "over"
        return Outcome("game-over", seat, {"winner": seat, **self.win}, game_over=True)

    def _next(self) -> None:
        self.active = (self.active + 1) % self.n
        self.phase = "draw"
        self._start_turn()

    def _start_turn(self) -> None:
        self.turns[self.active] += 1
        self.drew_trump = False
        self.drawn_tile = None
        self.first_lay_turn = False
        self.added_to_others = False
        self.laid_now = []

    def _note_twins(self) -> None:
        if self.trump is None:
            return
        for s, rack in enumerate(self.racks):
            if self.trump in rack:
                self.twin[s] = True

    def compose(self, melds: list[list[str]]) -> dict[str, Any]:
        """A lay laid out by a front end (:func:`.compose.compose_lay`)."""
        from .compose import compose_lay

        return compose_lay(self, melds)

    # --- views and persistence -------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: everyone): its own rack, the table,
        each pile's top discard, the counts, the trump; every rack once the
        game is over. Never another rack or the pool's order."""
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.n):
            raise IllegalMoveError(f"no seat {seat!r}", "no-such-seat")
        take = self.takeable()
        v: dict[str, Any] = {
            "family": self.family, "variant": self.variant, "players": self.n,
            "rules": self.rules.to_dict(), "international": self.rules.international, "first": self.first,
            "to_move": self.to_move, "phase": self.phase,
            "rack_counts": [len(r) for r in self.racks], "pool_count": len(self.pool),
            "table": [{"owner": o, "meld": format_meld(m)} for o, m in self.table],
            "piles": [format_tile(p[-1]) if p else None for p in self.piles],
            "pile_counts": [len(p) for p in self.piles],
            "takeable": format_tile(take) if take is not None else None,
            "trump": format_tile(self.trump) if self.trump is not None else None,
            "trump_in_pool": self.trump_in_pool(),
            "melded": list(self.melded), "announced": list(self.announced),
            "is_over": self.over, "scores": self.scores(), "winners": self.winners,
            "win": json.loads(json.dumps(self.win)) if self.over else None,
        }
        if self.over:
            v["racks"] = [[format_tile(t) for t in sorted(r)] for r in self.racks]
        if seat is not None:
            v["seat"] = seat
            v["my_rack"] = [format_tile(t) for t in sorted(self.racks[seat])]
            v["may_act"] = seat == self.to_move
        return v

    def setup_tags(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.n, "first": self.first, "rules": self.rules.diff(self.BASE)}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            d = {"hands": [[format_tile(t) for t in h] for h in self.deal["hands"]],
                 "pool": [format_tile(t) for t in self.deal["pool"]]}
            if "trump" in self.deal:
                d["trump"] = [format_tile(self.deal["trump"])]
            out["deal"] = d
        return out

    def snapshot(self) -> dict[str, Any]:
        state = self._save()
        t = lambda cs: [format_tile(c) for c in cs]  # noqa: E731
        state.update(racks=[t(r) for r in self.racks], pool=t(self.pool), piles=[t(p) for p in self.piles],
                     trump=None if self.trump is None else format_tile(self.trump),
                     table=[[o, format_meld(m)] for o, m in self.table], laid_now=t(self.laid_now),
                     drawn_tile=None if self.drawn_tile is None else format_tile(self.drawn_tile))
        deal = None
        if self.deal is not None:
            deal = {"hands": [t(h) for h in self.deal["hands"]], "pool": t(self.deal["pool"])}
            if "trump" in self.deal:
                deal["trump"] = format_tile(self.deal["trump"])
        return {"family": self.family, "variant": self.variant, "rules": self.rules.to_dict(),
                "players": self.n, "seed": self.seed, "first": self.first, "deal": deal,
                "move_stack": list(self.move_stack), "move_seats": list(self.move_seats),
                "state": json.loads(json.dumps(state))}

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "AmericanGame":
        """:raises RecordError: a malformed snapshot."""
        try:
            g = cls.__new__(cls)
            g.rules = cls.rules_from_dict(data["rules"])
            g.n, g.seed, g.first = data["players"], data["seed"], data["first"]
            d = data["deal"]
            g.deal = None if d is None else {
                "hands": [[_code(x) for x in h] for h in d["hands"]], "pool": [_code(x) for x in d["pool"]],
                **({"trump": _code(d["trump"])} if "trump" in d else {})}
            g.move_stack, g.move_seats = list(data["move_stack"]), list(data["move_seats"])
            s = dict(data["state"])
            c = lambda ts: [_code(x) for x in ts]  # noqa: E731
            s["racks"] = [c(r) for r in s["racks"]]
            s["pool"], s["piles"] = c(s["pool"]), [c(p) for p in s["piles"]]
            s["trump"] = None if s["trump"] is None else _code(s["trump"])
            s["table"] = [[o, parse_meld(m)] for o, m in s["table"]]
            s["laid_now"] = c(s["laid_now"])
            s["drawn_tile"] = None if s["drawn_tile"] is None else _code(s["drawn_tile"])
            g._restore(s)
        except (KeyError, TypeError, ValueError, NotationError, RuleOptionError) as exc:
            raise RecordError(f"not a {cls.variant} snapshot: {exc}") from exc
        return g

    def tile_count(self) -> Counter:
        """Every tile wherever it is (racks, pool, piles, table, the American
        trump): the set's 106 when nothing was lost or made up."""
        c: Counter = Counter(self.pool)
        for r in self.racks:
            c.update(r)
        for p in self.piles:
            c.update(p)
        for _, m in self.table:
            c.update(meld_tiles(m))
        if not self.rules.international and self.trump is not None:
            c[self.trump] += 1
        if self.over and self.win.get("discard"):
            c[_code(self.win["discard"])] += 1
        if self.over and self.win.get("kind") == "closed" and not self.win.get("on_table"):
            c.update(_code(x) for x in self.win["shown"])
        return c

    def record(self, seats: list[str] | None = None, tags: dict[str, str] | None = None) -> str:
        """The game's record in the shared format (:mod:`engine.records`)."""
        return write_game(self, seats, tags)


@register
class InternationalGame(AmericanGame):
    """International Rummikub (seed 001): Open, Foot and Closed wins."""

    variant: ClassVar[str] = "international-rummikub"
    aliases: ClassVar[tuple[str, ...]] = ("rummikub-international",)
    BASE: ClassVar[AmericanRules] = INTERNATIONAL
    zero_sum: ClassVar[bool] = False
