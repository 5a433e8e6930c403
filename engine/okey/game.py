"""A match of Okey: :class:`OkeyGame` (variant ``okey``).

One event-sourced game is a **match**: game after game at one table of
(usually) four, each player starting with ``start_points`` and losing
points when another player wins, until someone has 0 or less after a game.
The points each player keeps are the match's scores (more is better).

A session::

    >>> from engine.registry import find_variant
    >>> Game = find_variant("okey")
    >>> game = Game.new(4, seed="coffee-house-1")
    >>> game.to_move, len(game.racks[0])
    (0, 15)

Seats are numbered in the order of play (counter-clockwise at the table):
seat ``s`` takes the discard of seat ``s - 1``. The starting seat of each
next game is the next seat in turn.

Tile codes: 0..51 the numbered tiles (``colour * 13 + number - 1``, the
engine's tile codes), 52 a false joker (``F``); every reading is in
``docs/rules/okey.md``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, ClassVar

from ..base import Outcome, check_new_args
from ..drawdiscard import DrawDiscardGame
from ..cards import seeded_shuffle
from ..errors import DealError, IllegalMoveError, NotationError, RecordError, RuleOptionError
from ..records import write_game
from ..registry import register
from .hand import F_CODE, finishing_discards, okey_of, parse_okey_tile, tile_text, winning_reading
from .moves import Move
from .options import OPTIONS
from .rules import OkeyRules
from .scoring import game_loss

#: The 106 tiles: two of each numbered tile and two false jokers.
TILES: tuple[int, ...] = tuple(sorted(list(range(52)) * 2 + [F_CODE, F_CODE]))
HAND = 14
RED, BLACK = 1, 0  # colours K R B O


def sort_key(code: int) -> tuple[int, int]:
    return (code // 13, code % 13) if code != F_CODE else (9, 0)


def _code(text: str) -> int:
    code = parse_okey_tile(text)
    return F_CODE if code == "F" else int(code)


@register
class OkeyGame(DrawDiscardGame):
    """A match of Okey (seed 003)."""

    family: ClassVar[str] = "okey"
    Move = Move
    over_text = "the match is over"
    variant: ClassVar[str] = "okey"
    aliases: ClassVar[tuple[str, ...]] = ("okey-003", "turkish-okey")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    RuleSet: ClassVar[type] = OkeyRules
    OPTIONS: ClassVar[tuple] = OPTIONS
    zero_sum: ClassVar[bool] = False  # the points each keeps from the start

    # --- construction ---------------------------------------------------------
    @classmethod
    def rules_from_dict(cls, data: dict[str, Any] | None) -> OkeyRules:
        return OkeyRules.from_dict(data)

    @classmethod
    def rules_to_dict(cls, rules: OkeyRules) -> dict[str, Any]:
        return rules.to_dict()

    @classmethod
    def new(cls, players: int, rules=None, *, seed: str | None = None,
            deal: dict[str, Any] | None = None, first: int = 0) -> "OkeyGame":
        """Start a match.

        ``deal`` (games dealt at a real table): ``{"hands": [[seat 0's 15 or
        14 tiles], ...], "indicator": [tile], "middle": [tiles, top first]}``
        for the first game, with ``hands.N``/``indicator.N``/``middle.N``
        keys numbered from 0 in a record; a game beyond the typed deals is
        dealt from a seed derived from the deal (see ``docs/rules/okey.md``).

        :raises DealError: bad seed, deal, player count or first seat.
        :raises RuleOptionError: bad rules.
        """
        if rules is None:
            rules = OkeyRules()
        elif isinstance(rules, dict):
            rules = OkeyRules.from_dict(rules)
        elif not isinstance(rules, OkeyRules):
            raise RuleOptionError(f"rules must be OkeyRules or a dict, not {type(rules).__name__}")
        check_new_args(players, seed, deal, first, low=cls.min_players, high=cls.max_players, name="Okey")
        game = cls.__new__(cls)
        game.n, game.rules, game.seed, game.first = players, rules, seed, first
        game.deals = _check_deals(deal, players, first) if deal is not None else []
        game.game_no = 0
        game.game_first = first
        game.points = [rules.start_points] * players
        game.results = []
        game.move_stack = []
        game.move_seats = []
        game.over = False
        game._deal()
        return game

    def _deal(self) -> None:
        n, k = self.n, self.game_no
        if k < len(self.deals):
            d = self.deals[k]
            racks = [list(h) for h in d["hands"]]
            indicator = d["indicator"]
            middle = list(reversed(d["middle"]))
        else:
            seed = self.seed if self.seed is not None else "typed-deal:" + _deal_digest(self.deals)
            tiles = [int(t) for t in seeded_shuffle(list(TILES), f"{seed}/game-{k + 1}")]
            racks = [[] for _ in range(n)]
            pos = 0
            for i in range(n):
                seat = (self.game_first + i) % n
                size = HAND + (1 if i == 0 else 0)
                racks[seat] = tiles[pos:pos + size]
                pos += size
            rest = tiles[pos:]
            at = next(i for i, t in enumerate(rest) if t != F_CODE)  # F is never the indicator
            indicator = rest.pop(at)
            middle = list(reversed(rest))
        self.racks: list[list[int]] = racks
        self.indicator: int = indicator
        self.okey: int = okey_of(indicator)
        self.middle: list[int] = middle            # top is the last element
        self.piles: list[list[int]] = [[] for _ in range(n)]  # each seat's discards, top last
        self.active = self.game_first
        self.phase = "discard"                     # the starter discards without drawing
        self.drawn = [False] * n
        self.shown: int | None = None
        self.last_chance = False
        self.taken: list[list[int]] = [[] for _ in range(n)]  # discards each seat took (public)
        self.finish_tile: int | None = None        # the winner's 15th tile, face up on the middle
        self.turn = 1

    # --- who may act (to_move, is_over, players, previous: engine.drawdiscard) --------
    def scores(self) -> list[int] | None:
        """The points each seat keeps at the end of the match (more is better)."""
        return list(self.points) if self.over else None

    @property
    def winners(self) -> list[int]:
        """The seats with the most points once the match is over, else ``[]``."""
        if not self.over:
            return []
        top = max(self.points)
        return [i for i, p in enumerate(self.points) if p == top]

    @property
    def end_reason(self) -> str | None:
        if not self.over:
            return None
        return f"a player reached 0 points after game {self.game_no + 1}"

    def takeable(self) -> int | None:
        """The discard the seat on turn may take now, or ``None``."""
        if self.over or self.phase != "draw":
            return None
        pile = self.piles[self.previous]
        return pile[-1] if pile else None

    def can_show(self, seat: int) -> bool:
        """Whether ``seat`` may show the Compare Stone now."""
        return (not self.over and self.rules.compare_stone and seat == self.active
                and not self.drawn[seat] and self.shown is None
                and self.indicator in self.racks[seat])

    def legal_moves(self) -> list[Move]:
        """Every move the seat on turn may push now."""
        if self.over:
            return []
        seat = self.active
        out: list[Move] = []
        if self.can_show(seat):
            out.append(Move("show"))
        if self.phase == "draw":
            if self.middle and not self.last_chance:
                out.append(Move("draw"))
            if self.takeable() is not None:
                out.append(Move("take"))
            return out
        finishes = set(self.finishing_tiles(seat))
        for tile in sorted(set(self.racks[seat]), key=sort_key):
            out.append(Move("discard", tile))
            if tile in finishes:
                out.append(Move("finish", tile))
        return out

    def finishing_tiles(self, seat: int) -> list[int]:
        """The tiles ``seat`` (on turn, holding 15) may finish with now."""
        if self.over or seat != self.active or self.phase != "discard":
            return []
        return finishing_discards(self.racks[seat], self.okey, self.rules)

    def _reading(self, seat: int, tile: int):
        rest = list(self.racks[seat])
        rest.remove(tile)
        return winning_reading(rest, self.okey, self.rules)

    # --- moves (parse_move: engine.drawdiscard) -----------------------------------
    def push(self, move: Move | str) -> Outcome:
        """Check and apply ``move`` for the seat on turn.

        :raises IllegalMoveError: the rules forbid it; the state is unchanged.
        :raises NotationError: text that does not parse.
        """
        move = self._accept(move)
        seat = self.active
        handler = getattr(self, "_" + move.action)
        out = handler(seat, move.tile) if move.tile is not None else handler(seat)
        self.move_stack.append(str(move))
        self.move_seats.append(seat)
        return out

    def _show(self, seat: int) -> Outcome:
        if not self.rules.compare_stone:
            raise IllegalMoveError("these rules have no Compare Stone", "no-compare-stone")
        if self.drawn[seat]:
            raise IllegalMoveError("the Compare Stone is shown before one's first draw",
                                   "compare-stone-after-draw")
        if self.shown is not None:
            raise IllegalMoveError(f"seat {self.shown} has shown the Compare Stone",
                                   "compare-stone-shown")
        if self.indicator not in self.racks[seat]:
            raise IllegalMoveError(f"the rack holds no {tile_text(self.indicator)}, "
                                   f"the indicator's twin", "no-compare-stone-tile")
        self.shown = seat
        for s in range(self.n):
            if s != seat:
                self.points[s] -= 1
        return Outcome("shown", seat, {"tile": tile_text(self.indicator)})

    def _need(self, phase: str) -> None:
        if self.phase != phase:
            if phase == "draw":
                raise IllegalMoveError("a tile was taken this turn: now discard one",
                                       "must-discard")
            raise IllegalMoveError("draw from the middle or take the discard first", "must-draw")

    def _draw(self, seat: int) -> Outcome:
        self._need("draw")
        if self.last_chance or not self.middle:
            raise IllegalMoveError("the middle is empty: only taking the discard to win is left",
                                   "middle-empty")
        tile = self.middle.pop()
        self.racks[seat].append(tile)
        self.drawn[seat] = True
        self.phase = "discard"
        return Outcome("drew", seat, {"tile": tile_text(tile)})

    def _take(self, seat: int) -> Outcome:
        self._need("draw")
        tile = self.takeable()
        if tile is None:
            raise IllegalMoveError(f"seat {self.previous} has no discard to take", "no-discard")
        self.piles[self.previous].pop()
        self.taken[seat].append(tile)
        self.racks[seat].append(tile)
        self.drawn[seat] = True
        self.phase = "discard"
        return Outcome("took", seat, {"tile": tile_text(tile)})

    def _hold(self, seat: int, tile: int) -> None:
        self._need("discard")
        if tile not in self.racks[seat]:
            raise IllegalMoveError(f"{tile_text(tile)} is not in the rack", "tile-not-held")

    def _discard(self, seat: int, tile: int) -> Outcome:
        self._hold(seat, tile)
        self.racks[seat].remove(tile)
        self.piles[seat].append(tile)
        if self.last_chance:
            return self._end_game(None, None, tile)
        if not self.middle and not self._can_win_with(tile):
            self.last_chance = False
            return self._end_game(None, None, tile)
        self.last_chance = not self.middle
        self.active = (seat + 1) % self.n
        self.phase = "draw"
        self.turn += 1
        return Outcome("discarded", seat, {"tile": tile_text(tile)})

    def _can_win_with(self, tile: int) -> bool:
        """Whether the next seat could finish by taking ``tile`` (the middle
        is empty: the game goes on only if it can)."""
        nxt = (self.active + 1) % self.n
        return bool(finishing_discards(self.racks[nxt] + [tile], self.okey, self.rules))

    def _finish(self, seat: int, tile: int) -> Outcome:
        self._hold(seat, tile)
        reading = self._reading(seat, tile)
        if reading is None:
            raise IllegalMoveError(f"the 14 tiles left after {tile_text(tile)} are not a "
                                   "winning hand (all in sets and runs"
                                   + (", or seven pairs" if self.rules.seven_pairs else "")
                                   + ")", "not-a-winning-hand")
        self.racks[seat].remove(tile)
        self.finish_tile = tile
        return self._end_game(seat, reading, tile)

    def _end_game(self, winner: int | None, reading, tile: int) -> Outcome:
        r = self.rules
        entry: dict[str, Any] = {
            "game": self.game_no + 1, "first": self.game_first,
            "indicator": tile_text(self.indicator), "okey": tile_text(self.okey),
            "winner": winner, "kind": None, "okey_finish": False, "with_color": False,
            "loss": 0, "melds": [], "finish": tile_text(tile), "shown": self.shown}
        if winner is not None:
            kind, melds = reading
            okey_finish = tile == self.okey
            coloured = r.with_color and self.indicator // 13 in (RED, BLACK)
            loss = game_loss(r, kind, okey_finish, coloured)
            for s in range(self.n):
                if s != winner:
                    self.points[s] -= loss
            entry.update(kind=kind, okey_finish=okey_finish, with_color=coloured,
                         loss=loss, melds=[list(m) for m in melds])
        entry["points"] = list(self.points)
        self.results.append(entry)
        detail = {"game": self.game_no + 1, "winner": winner, "loss": entry["loss"],
                  "points": list(self.points)}
        if min(self.points) <= 0:
            self.over = True
            self.phase = "over"
            return Outcome("game-over", winner, detail, True)
        self.game_no += 1
        self.game_first = (self.game_first + 1) % self.n
        self._deal()
        return Outcome("game-won" if winner is not None else "middle-empty", winner, detail)

    # --- views and persistence ----------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public view): its own rack,
        every discard pile, the indicator, counts of the other racks and of
        the middle (never its order), the points and finished games.

        :raises IllegalMoveError: no such seat.
        """
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool)
                                     and 0 <= seat < self.n):
            raise IllegalMoveError(f"no seat {seat!r}", "no-such-seat")
        take = self.takeable()
        v: dict[str, Any] = {
            "family": self.family, "variant": self.variant, "players": self.n,
            "rules": self.rules.to_dict(),
            "game": self.game_no + 1, "first": self.game_first,
            "indicator": tile_text(self.indicator), "okey": tile_text(self.okey),
            "to_move": self.to_move, "phase": self.phase, "turn": self.turn,
            "rack_counts": [len(r) for r in self.racks],
            "middle_count": len(self.middle), "pool_count": len(self.middle),
            "piles": [[tile_text(t) for t in p] for p in self.piles],
            "takeable": tile_text(take) if take is not None else None,
            "last_chance": self.last_chance, "shown": self.shown,
            "taken": [[tile_text(t) for t in p] for p in self.taken],
            "points": list(self.points), "results": json.loads(json.dumps(self.results)),
            "is_over": self.over, "scores": self.scores(), "winners": self.winners,
        }
        if seat is not None:
            v["seat"] = seat
            v["my_rack"] = [tile_text(t) for t in sorted(self.racks[seat], key=sort_key)]
            v["can_show"] = self.can_show(seat)
            v["may_act"] = seat == self.to_move
            if seat == self.to_move and self.phase == "discard":
                v["can_finish"] = [tile_text(t) for t in self.finishing_tiles(seat)]
        return v

    def setup_tags(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.n, "first": self.first, "rules": self.rules.diff()}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            out["deal"] = _deals_to_json(self.deals)
        return out

    def snapshot(self) -> dict[str, Any]:
        t = lambda cs: [tile_text(c) for c in cs]  # noqa: E731
        return {
            "family": self.family, "variant": self.variant, "rules": self.rules.to_dict(),
            "players": self.n, "seed": self.seed, "first": self.first,
            "deals": [_deal_json(d) for d in self.deals],
            "game_no": self.game_no, "game_first": self.game_first,
            "points": list(self.points), "results": json.loads(json.dumps(self.results)),
            "move_stack": list(self.move_stack), "move_seats": list(self.move_seats),
            "over": self.over, "racks": [t(r) for r in self.racks],
            "indicator": tile_text(self.indicator), "middle": t(self.middle),
            "piles": [t(p) for p in self.piles], "active": self.active, "phase": self.phase,
            "drawn": list(self.drawn), "shown": self.shown, "last_chance": self.last_chance,
            "taken": [t(p) for p in self.taken],
            "finish_tile": None if self.finish_tile is None else tile_text(self.finish_tile),
            "turn": self.turn,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "OkeyGame":
        """:raises RecordError: a malformed snapshot."""
        try:
            g = cls.__new__(cls)
            g.rules = OkeyRules.from_dict(data["rules"])
            g.n, g.seed, g.first = data["players"], data["seed"], data["first"]
            g.deals = [_deal_codes(d) for d in data["deals"]]
            g.game_no, g.game_first = data["game_no"], data["game_first"]
            g.points, g.results = list(data["points"]), json.loads(json.dumps(data["results"]))
            g.move_stack, g.move_seats = list(data["move_stack"]), list(data["move_seats"])
            g.over = data["over"]
            c = lambda ts: [_code(x) for x in ts]  # noqa: E731
            g.racks = [c(r) for r in data["racks"]]
            g.indicator = _code(data["indicator"])
            g.okey = okey_of(g.indicator)
            g.middle, g.piles = c(data["middle"]), [c(p) for p in data["piles"]]
            for name in ("active", "phase", "shown", "last_chance", "turn"):
                setattr(g, name, data[name])
            g.drawn = list(data["drawn"])
            g.taken = [c(p) for p in data["taken"]]
            g.finish_tile = None if data["finish_tile"] is None else _code(data["finish_tile"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not an Okey snapshot: {exc}") from exc
        return g

    def tile_count(self) -> Counter:
        """Every tile of the current game, wherever it is (racks, middle,
        discard piles, the indicator; a finished game's tiles are dealt
        again): the set's 106 when nothing was lost or made up."""
        c: Counter = Counter(self.middle)
        for r in self.racks:
            c.update(r)
        for p in self.piles:
            c.update(p)
        c[self.indicator] += 1
        if self.finish_tile is not None:
            c[self.finish_tile] += 1
        return c

    def describe(self) -> str:
        lines = [f"okey, {self.n} players, points " + " ".join(map(str, self.points))]
        for r in self.results:
            who = "nobody (middle empty)" if r["winner"] is None else f"seat {r['winner']}"
            lines.append(f"game {r['game']}: {who} won ({r['kind'] or '-'}), "
                         f"each other lost {r['loss']}")
        if not self.over:
            lines.append(f"game {self.game_no + 1}: indicator {tile_text(self.indicator)}, "
                         f"okey {tile_text(self.okey)}, seat {self.active} to {self.phase}")
            for s, rack in enumerate(self.racks):
                lines.append(f"  seat {s}: " + " ".join(tile_text(t) for t in sorted(rack, key=sort_key)))
        return "\n".join(lines)

    def record(self, seats: list[str] | None = None, tags: dict[str, str] | None = None) -> str:
        """The match record in the shared format (:mod:`engine.records`)."""
        return write_game(self, seats, tags)


# --- typed-in deals --------------------------------------------------------------
def _deal_json(d: dict[str, Any]) -> dict[str, Any]:
    return {"hands": [[tile_text(t) for t in h] for h in d["hands"]],
            "indicator": tile_text(d["indicator"]), "middle": [tile_text(t) for t in d["middle"]]}


def _deal_codes(d: dict[str, Any]) -> dict[str, Any]:
    return {"hands": [[_code(t) for t in h] for h in d["hands"]],
            "indicator": _code(d["indicator"]), "middle": [_code(t) for t in d["middle"]]}


def _deals_to_json(deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The deals as a record's Deal tags want them: ``hands0`` (a list per
    seat), ``indicator0`` and ``middle0``, then ``hands1`` ..."""
    out: dict[str, Any] = {}
    for k, d in enumerate(deals):
        j = _deal_json(d)
        out[f"hands{k}"] = j["hands"]
        out[f"indicator{k}"] = [j["indicator"]]
        out[f"middle{k}"] = j["middle"]
    return out


def _deal_digest(deals) -> str:
    import hashlib

    return hashlib.sha256(json.dumps([_deal_json(d) for d in deals]).encode()).hexdigest()[:16]


def _check_deals(deal: dict[str, Any], players: int, first: int) -> list[dict[str, Any]]:
    """Typed-in deals, checked: one game's ``{"hands", "indicator",
    "middle"}``, or a record's ``hands0``/``indicator0``/``middle0`` ...

    :raises DealError: a malformed deal or one that is not the 106 tiles.
    """
    if not isinstance(deal, dict):
        raise DealError('a deal is {"hands": [[tiles of seat 0], ...], "indicator": tile, '
                        '"middle": [tiles, top first]}')
    if "hands" in deal:
        games = [deal]
        extra = sorted(set(deal) - {"hands", "indicator", "middle"})
        if extra:
            raise DealError(f"unknown deal key(s): {', '.join(extra)}")
    else:
        games = []
        k = 0
        while f"hands{k}" in deal:
            ind = deal.get(f"indicator{k}")
            games.append({"hands": deal[f"hands{k}"],
                          "indicator": ind[0] if isinstance(ind, list) and len(ind) == 1 else ind,
                          "middle": deal.get(f"middle{k}")})
            k += 1
        known = {f"{key}{i}" for key in ("hands", "indicator", "middle") for i in range(k)}
        extra = sorted(set(deal) - known)
        if extra or not games:
            raise DealError(f"unknown deal key(s): {', '.join(extra) or 'none given'}")
    out = []
    for k, g in enumerate(games):
        where = f"game {k + 1}'s deal"
        hands, middle = g.get("hands"), g.get("middle")
        if not isinstance(hands, list) or len(hands) != players or \
                not all(isinstance(h, list) for h in hands):
            raise DealError(f"{where}: hands is one list of tiles per seat ({players})")
        if not isinstance(middle, list):
            raise DealError(f"{where}: middle is a list of tiles, top first")
        starter = (first + k) % players
        try:
            codes = [[_code(t) for t in h] for h in hands]
            indicator = _code(g.get("indicator") if isinstance(g.get("indicator"), str) else "")
            mid = [_code(t) for t in middle]
        except NotationError as exc:
            raise DealError(f"{where}: {exc}") from None
        for s, h in enumerate(codes):
            want = HAND + (1 if s == starter else 0)
            if len(h) != want:
                raise DealError(f"{where}: seat {s} has {len(h)} tiles, not {want}"
                                + (" (the starter takes 15)" if s == starter else ""))
        if indicator == F_CODE:
            raise DealError(f"{where}: a false joker is never the indicator")
        have = Counter(mid + [indicator] + [t for h in codes for t in h])
        want = Counter(TILES)
        if have != want:
            diff = (want - have) + (have - want)
            name = tile_text(sorted(diff, key=sort_key)[0])
            raise DealError(f"{where}: the tiles are not Okey's 106 (two of each, two F): "
                            f"{name} appears {have[_code(name)]} times")
        out.append({"hands": codes, "indicator": indicator, "middle": mid})
    return out
