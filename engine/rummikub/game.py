"""The Rummikub game: Sabra (106 tiles, 2-4 players) and XP (160 tiles,
2-6 players). A game is set up from a seed, a typed-in deal or a position;
:meth:`SabraGame.push` checks and applies a move; :meth:`SabraGame.view`
shows a seat what it may see; :meth:`SabraGame.snapshot` keeps the whole
state. The joker rules of a play are checked in :mod:`.jokers`.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable

from ..base import Game, Outcome
from ..errors import DealError, IllegalMoveError, NotationError
from ..melds import (RUN_JOKER, Meld, canonical, format_meld, meld_kind, meld_value,
                     parse_meld, why_invalid)
from ..registry import find_variant, register
from ..tiles import (JOKER, NUM_CODES, STANDARD, TILES, XP, TileSet, _TEXT, counts_of,
                     format_tiles, parse_tiles, shuffled, tiles_of)
from .jokers import check_jokers
from .moves import Move
from .options import OPTIONS
from .rules import RuleSet, rules_from_dict, rules_to_dict
from .scoring import rack_value, score_values


def _sub_ok(small: list[int], big: list[int]) -> bool:
    for a, b in zip(small, big):
        if a > b:
            return False
    return True


class SabraGame(Game):
    """A game of Sabra Rummikub (2-4 players, 106 tiles). See the module
    docstring and ``docs/rules/rummikub.md``."""

    family = "rummikub"
    variant = "sabra"
    aliases = ("rummikub", "sabra-rummikub", "rummikub-sabra")
    min_players = 2
    max_players = 4
    RuleSet = RuleSet
    OPTIONS = OPTIONS
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

    def compose(self, melds) -> dict[str, Any]:
        """The turn a front end laid out (the whole table after it, tile
        codes per meld): :func:`engine.rummikub.compose.compose_turn`."""
        from .compose import compose_turn

        return compose_turn(self, melds)

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
            check_jokers(rules, self.initial_done[seat], move, played)
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
    def turn_clock(self) -> tuple[int, str] | None:
        """``(turn_time_limit, "timeout")`` while the game is on and the rules
        set a limit (seed 001's minute); the timeout draws the penalty tile."""
        if self.over or not self.rules.turn_time_limit:
            return None
        return self.rules.turn_time_limit, "timeout"

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
