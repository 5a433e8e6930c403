"""The "strong" level for Sabra Rummikub: the greedy player (the largest
play every turn, exact by the solver) with two habits on by default and
others, from seed 001's strategy advice, that can be switched on.

On by default:

- **Look ahead before laying** (``lookahead``, :mod:`engine.rummikub.ai.lookahead`).
  When the largest play would leave at most ``LOOKAHEAD_LEFT`` tiles on the
  rack (and does not empty it), it weighs laying the play now against
  drawing and keeping it: the tiles it cannot see are dealt at random
  ``LOOKAHEAD_SAMPLES`` times, both choices are played on for
  ``LOOKAHEAD_TURNS`` turns by every seat, and scored by who went out, else
  by the tiles each rack cannot place. A tile that can be laid now can nearly
  always be laid later, and the draw it forgoes may be the tile the rest of
  the rack waits for: near the end, waiting with the play in hand often goes
  out sooner.
- **Lay the edge numbers, keep the middle ones** (``lay_edges``). Among the
  plays of the most tiles, it lays the one heaviest in 1s and 13s, then 2s
  and 12s, ... (a second objective for the solver, :func:`edge_weights`),
  where greedy lays the most points. A 7 left on the rack fits runs from
  5-6-7 to 7-8-9 and groups; a 1 only 1-2-3 and groups, so the rack left
  behind is easier to get rid of. Jokers weigh nothing: among plays of the
  same size it keeps the joker.

Off by default (each measured within noise of ``greedy``, or below it; see
``docs/solver.md``):

- ``keep_jokers``: keep a joker back when it would place nothing but itself
  (opening without jokers when it can).
- ``reserve_opening``: open with one meld fewer while the rest still reaches
  the threshold, to lay it next turn instead of drawing.
- ``hold_back``: when the rest of the rack would have nothing to play next
  turn, keep one tile of the play (a fourth tile, a run's end) for then.
- ``keep_connected``: keep the tiles with the most possible partners (own
  rack and unseen tiles) among plays of the same size.
- ``spread``: lay only the smallest playable part each turn.

The holding habits stop when the game gets dangerous (an opponent with 4
tiles or fewer, or 6 tiles or fewer in the pool); a play that empties the
rack is always made.

Measured (``bench/ai.py``, duplicate deals; figures in ``docs/solver.md``):
the look-ahead is what makes ``strong`` better than ``greedy``; no fixed
habit moved the win rate beyond the noise. It sees only what its seat may
see (:meth:`SabraGame.view`). Deterministic (the samples are seeded by the
position); a move takes about 10 ms, or a few hundred milliseconds when it
looks ahead.
"""

from __future__ import annotations

from ...melds import meld_value
from ...solver import divide, solve
from ...tiles import JOKER
from ..game import SabraGame
from ..moves import Move
from .greedy import largest_play, opening_move
from .lookahead import prefer_draw
from .solver_play import (best_legal_play, meld_tiles, no_play, rack_only_move,
                          seat_view)

LOOKAHEAD_LEFT = 5     # look ahead when at most this many tiles would stay on the rack
LOOKAHEAD_SAMPLES = 6  # sampled deals of the unseen tiles
LOOKAHEAD_TURNS = 2    # turns each seat plays on in a sample
DANGER_RACK = 4   # an opponent with this many tiles or fewer may go out soon
DANGER_POOL = 6   # a pool this small ends the game soon


def in_danger(view: dict, seat: int) -> bool:
    """Whether holding tiles back has become risky."""
    others = [n for s, n in enumerate(view["rack_counts"]) if s != seat]
    return min(others, default=99) <= DANGER_RACK or view["pool_count"] <= DANGER_POOL


def keep_weights(view: dict) -> list[int]:
    """Second-objective weights that play isolated tiles and keep connected
    ones: a tile's weight falls with the number of tiles that could meld with
    it (its neighbours in colour, its number in other colours) still on the
    rack or unseen (the pool and the other racks, as counts: what this seat
    can know)."""
    ts = view["tileset"]
    unseen = ts.counts()
    for m in view["table"]:
        for t in meld_tiles(m):
            unseen[t] -= 1
    own = [0] * 53
    for t in view["rack"]:
        own[t] += 1
        unseen[t] -= 1
    w = [0] * 53
    for t in range(52):
        c, n = divmod(t, 13)
        partners = 0
        for d in (-2, -1, 1, 2):
            if 0 <= n + d <= 12:
                partners += own[c * 13 + n + d] * 2 + unseen[c * 13 + n + d]
        for c2 in range(4):
            if c2 != c:
                partners += own[c2 * 13 + n] * 2 + unseen[c2 * 13 + n]
        w[t] = max(0, 300 + 4 * (n + 1) - 8 * partners)
    w[JOKER] = 0
    return w


def edge_weights() -> list[int]:
    """Second-objective weights that lay the edge numbers first (1 and 13
    most, then 2 and 12, ...) and keep the middle ones, which have the most
    ways into a run (a 7 fits runs from 5-6-7 to 7-8-9; a 1 only 1-2-3).
    Jokers weigh nothing: among plays of the same size, one without them."""
    w = [0] * 53
    for t in range(52):
        n = t % 13
        w[t] = 600 - 100 * min(n, 12 - n)
    return w


def _without(rack: list[int], tiles: list[int]) -> list[int]:
    left = list(rack)
    for t in tiles:
        left.remove(t)
    return left


class StrongPlayer:
    """Plays like a strong club player (see the module docstring).
    ``choose(game)`` returns a move for ``game.to_move``."""

    name = "strong"

    def __init__(self, seed=None, *, lay_edges: bool = True, lookahead: bool = True,
                 keep_jokers: bool = False,
                 hold_back: bool = False, reserve_opening: bool = False,
                 keep_connected: bool = False, spread: bool = False):
        self.seed = seed
        self.lay_edges = lay_edges
        self.lookahead = lookahead
        self.spread = spread
        self.keep_connected = keep_connected
        self.keep_jokers = keep_jokers
        self.hold_back = hold_back
        self.reserve_opening = reserve_opening

    def choose(self, game: SabraGame) -> Move:
        """:raises ValueError: the game is over."""
        if game.is_over:
            raise ValueError("the game is over")
        seat = game.to_move
        view = seat_view(game, seat)
        rack = view["rack"]
        danger = in_danger(view, seat)
        jokers = rack.count(JOKER)
        plain = [t for t in rack if t != JOKER]
        if not view["initial_done"][seat]:
            keep = jokers and not danger and self.keep_jokers
            for sub in ([plain] if keep else []) + [rack]:
                sol = solve([], sub, initial_meld_done=False, rules=view["rules"].meld_rules,
                            tileset=view["tileset"])
                if not sol.tiles_placed:
                    continue
                melds = list(sol.melds)
                if not danger and self.reserve_opening and sol.tiles_placed < len(rack):
                    melds = self._reserve_opening(melds, view["rules"].initial_meld)
                move = rack_only_move(game, view, melds)
                if move is not None:
                    return move
            move = opening_move(game, view, rack)
            return move if move is not None else no_play(view)

        full = largest_play(game, view, rack)
        if full is None:
            return no_play(view)
        full_move, placed = full
        if placed == len(rack):
            return full_move
        table = [t for m in view["table"] for t in meld_tiles(m)]
        if (self.lookahead and len(rack) - placed <= LOOKAHEAD_LEFT
                and self._rather_draw(game, view, seat, table)):
            return no_play(view)
        ts = view["tileset"]
        sol = None
        if jokers and self.keep_jokers and not danger:
            # keep the jokers only when they enable nothing but themselves
            sol = solve(table, plain, tileset=ts)
            if not sol.tiles_placed or sol.tiles_placed < placed - jokers:
                sol = None
        if sol is None:
            if self.keep_connected and not danger:
                weights = keep_weights(view)
            elif self.lay_edges:
                weights = edge_weights()
            else:
                weights = None
            if weights is None and danger:
                return full_move
            sol = solve(table, rack, tileset=ts, weights=weights)
            if sol.tiles_placed < placed:
                return full_move
        play = [int(t) for t in sol.play]
        if not play:
            return full_move
        if not danger:
            if self.spread:
                play = self._smallest_part(table, play, ts)
            elif self.hold_back:
                play = self._hold_back(table, rack, play, ts)
        move = best_legal_play(game, view, play)
        return move if move is not None else full_move

    def _rather_draw(self, game: SabraGame, view: dict, seat: int, table: list[int]) -> bool:
        """The sampled look-ahead (:mod:`engine.rummikub.ai.lookahead`): whether
        drawing and keeping the largest play onto ``table`` (the table's
        tiles) beats laying it now."""
        if not view["pool_count"]:
            return False
        play = [int(t) for t in solve(table, view["rack"], tileset=view["tileset"]).play]
        if not play:
            return False
        order, s = [], seat
        for _ in range(len(view["rack_counts"])):
            s = game.next_seat(s)
            order.append(s)
        return prefer_draw(dict(view, table_tiles=table), seat, play, order,
                           samples=LOOKAHEAD_SAMPLES, horizon=LOOKAHEAD_TURNS, seed=self.seed)

    @staticmethod
    def _smallest_part(table: list[int], play: list[int], ts) -> list[int]:
        """The smallest part of ``play`` that can be laid now, keeping the
        rest (still playable next turn: the table only grows) as a buffer
        that spares a draw on each coming turn: one tile (the highest), else
        a meld of the play's own tiles, else the whole play."""
        if len(play) < 2:
            return play
        for t in sorted(set(play), key=lambda t: (t == JOKER, -(t % 13))):
            if t != JOKER and divide(table + [t], tileset=ts) is not None:
                return [t]
        own = solve([], play, tileset=ts)
        for m in sorted(own.melds, key=len):
            tiles = [s if s < 52 else JOKER for s in m]
            if divide(table + tiles, tileset=ts) is not None:
                return tiles
        return play

    @staticmethod
    def _reserve_opening(melds: list[tuple], threshold: int) -> list[tuple]:
        """The opening melds less one kept in reserve (the smallest whose
        removal still reaches the threshold), to lay next turn instead of
        drawing."""
        total = sum(meld_value(m) for m in melds)
        for m in sorted(melds, key=lambda m: (len(m), meld_value(m))):
            if len(melds) > 1 and total - meld_value(m) >= threshold:
                rest = list(melds)
                rest.remove(m)
                return rest
        return melds

    @staticmethod
    def _hold_back(table: list[int], rack: list[int], play: list[int], ts) -> list[int]:
        """``play`` less a reserve for next turn, when the rest of the rack
        would have nothing to play then: one tile whose removal leaves the
        table valid (a fourth tile, the end of a run), else a meld of the
        play's own tiles."""
        if len(play) < 2:
            return play
        after = table + play
        rest = _without(rack, play)
        if rest and solve(after, rest, tileset=ts).tiles_placed:
            return play  # next turn has a play anyway
        for t in sorted(set(play), key=lambda t: (t == JOKER, t % 13)):
            if t == JOKER:
                continue
            smaller = _without(play, [t])
            if divide(table + smaller, tileset=ts) is not None:
                return smaller
        own = solve([], play, tileset=ts)
        for m in sorted(own.melds, key=len):
            tiles = [s if s < 52 else JOKER for s in m]
            if len(tiles) >= len(play):
                continue
            smaller = _without(play, tiles)
            if divide(table + smaller, tileset=ts) is not None:
                return smaller
        return play
