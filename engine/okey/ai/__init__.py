"""Okey's computer players, weakest first (:data:`LEVELS`).

Each is a class built from a seed with ``choose(game) -> Move`` for the
seat on turn, and reads only what that seat may see: its own rack, the
discard piles, the indicator. Every level finishes when it can (with the
move that costs the others most) and shows the Compare Stone when it holds
it.

- ``random``: draws or takes at random, discards a random tile.
- ``greedy``: keeps the rack that puts the most tiles in complete sets and
  runs (:func:`.eval.cover`); takes the discard only when that improves it.
- ``strong``: the same, and among racks as good, the one with the most
  near-melds (pairs of a set, two of a run; :func:`.eval.shape`); it keeps
  okeys, never discards a tile the next player could finish with when it
  can help it, and takes the discard when it improves the rack's shape.
- ``expert`` (:class:`ExpertPlayer`): plays for the distance to a win
  (seven pairs included where the rule allows them), then for the tiles it
  has not seen that would bring the rack nearer (it tracks the discards:
  what each player threw and took), looking two tiles ahead among its best
  discards (the draws expected to come two tiles nearer); a discard the next player visibly
  needs (a face they took, or one completing two they took) counts against
  it; it takes the discard when that brings the rack nearer a win, or
  keeps it as near with enough more unseen tiles to bring it nearer.

``bench/ai.py`` measures them (``docs/ai.md``).
"""

from __future__ import annotations

import random as _random

from ..game import OkeyGame
from ..hand import F_CODE, rack_counts
from ..moves import Move
from .eval import acceptance, cover, distance, fits, live_shape, shape, two_step

__all__ = ["LEVELS", "ExpertPlayer", "GreedyPlayer", "RandomPlayer", "StrongPlayer", "unseen_counts"]


class _Player:
    def __init__(self, seed: str = ""):
        self.rng = _random.Random(seed)

    def choose(self, game: OkeyGame, seat: int | None = None) -> Move:
        """The move of the seat on turn. Does not change ``game``.

        :raises ValueError: the game is over, or ``seat`` is not on turn.
        """
        if game.is_over:
            raise ValueError("the game is over")
        if seat is not None and seat != game.to_move:
            raise ValueError(f"seat {seat} is not on turn")
        seat = game.to_move
        moves = game.legal_moves()
        if any(m.action == "show" for m in moves):
            return Move("show")
        finishes = [m for m in moves if m.action == "finish"]
        if finishes:
            return max(finishes, key=lambda m: self._finish_value(game, seat, m))
        if game.phase == "draw":
            return self.draw(game, seat, moves)
        return self.discard(game, seat, [m for m in moves if m.action == "discard"])

    @staticmethod
    def _finish_value(game: OkeyGame, seat: int, move: Move) -> tuple[int, int]:
        rack = list(game.racks[seat])
        rack.remove(move.tile)
        from ..hand import winning_reading

        kind, _ = winning_reading(rack, game.okey, game.rules)
        return (move.tile == game.okey, kind == "pairs")

    def draw(self, game, seat, moves) -> Move:
        return self.rng.choice(moves)

    @staticmethod
    def _forced_draw(game, moves) -> Move | None:
        """The draw when there is no choice: ``take`` where no draw from
        the middle is offered, ``draw`` where there is nothing to take;
        else ``None``."""
        if not any(m.action == "draw" for m in moves):
            return Move("take")
        if game.takeable() is None:
            return Move("draw")
        return None

    def discard(self, game, seat, moves) -> Move:
        return self.rng.choice(moves)


class RandomPlayer(_Player):
    """Draws or takes at random and discards a random tile."""


class GreedyPlayer(_Player):
    """The most tiles in complete melds; ties broken at random."""

    def value(self, game: OkeyGame, rack: list[int]) -> tuple:
        return (cover(rack, game.okey, game.rules),)

    def _best_discard(self, game: OkeyGame, seat: int, rack: list[int]) -> tuple[tuple, int]:
        best = None
        tiles = sorted(set(rack))
        self.rng.shuffle(tiles)
        for t in tiles:
            rest = list(rack)
            rest.remove(t)
            v = self.value(game, rest) + self.discard_bonus(game, seat, t)
            if best is None or v > best[0]:
                best = (v, t)
        return best

    def discard_bonus(self, game, seat, tile) -> tuple:
        return ()

    def draw(self, game, seat, moves) -> Move:
        forced = self._forced_draw(game, moves)
        if forced is not None:
            return forced
        take = game.takeable()
        now = self.value(game, game.racks[seat])
        with_take = self._best_discard(game, seat, game.racks[seat] + [take])
        if with_take[1] != take and with_take[0][:len(now)] > now:
            return Move("take")
        return Move("draw")

    def discard(self, game, seat, moves) -> Move:
        _, tile = self._best_discard(game, seat, game.racks[seat])
        return Move("discard", tile)


class StrongPlayer(GreedyPlayer):
    """Greedy on complete melds, then on near-melds; keeps okeys; does not
    feed the next player a finishing tile when another discard is as good."""

    def value(self, game: OkeyGame, rack: list[int]) -> tuple:
        return (cover(rack, game.okey, game.rules), shape(rack, game.okey))

    def discard_bonus(self, game, seat, tile) -> tuple:
        keep_okey = 0 if tile in (game.okey,) else 1
        # a tile the next player's visible wants (they took that face before)
        nxt = (seat + 1) % game.n
        fed = 0 if tile in _wanted(game, nxt) else 1
        return (keep_okey, fed)


def _wanted(game: OkeyGame, seat: int) -> set[int]:
    """Faces near what ``seat`` was seen taking from the discards this game
    (public: the tiles taken were discarded face up)."""
    out: set[int] = set()
    for tile in game.taken[seat]:
        if tile == F_CODE:
            continue
        colour, number = divmod(tile, 13)
        for d in (-2, -1, 1, 2):
            if 0 <= number + d < 13:
                out.add(colour * 13 + number + d)
        for c in range(4):
            out.add(c * 13 + number)
    return out


class ExpertPlayer(_Player):
    """Plays for the distance to a win (:func:`.eval.distance`: the fewest
    tiles to change for a winning rack, seven pairs included where the rule
    allows them), then for the tiles still unseen that would bring it one
    nearer (:func:`.eval.acceptance`, counted from what it has seen:
    :func:`unseen_counts`); while the rack is more than :attr:`EXACT`
    tiles from a win (:attr:`PAIRS_EXACT` with seven pairs on), the near-melds weighted by their unseen completions
    (:func:`.eval.live_shape`) stand in for that count, which costs too
    much there. From two tiles to :attr:`EXACT` from a win, the best
    :attr:`TWO_STEP` discards by that count are weighed again by the draws
    expected to come two tiles nearer (:func:`.eval.two_step`: each tile
    that brings the rack nearer weighed by the unseen tiles that would then
    bring it nearer again), given in the same unit (tiles). A discard the next player visibly needs (a face they took,
    or one completing two tiles they took) counts as :attr:`FEED` fewer
    unseen tiles; then it keeps okeys, then avoids faces near what the next
    player took. It takes the discard when that brings the rack nearer a
    win; or, within :attr:`EXACT` of a win, when the rack with it (less its
    best discard) is as near and the draws expected to the next step
    (the unseen tiles over those that bring it nearer, counted over two
    steps as above from two tiles away) fall by more than
    :attr:`TAKE_TURN`; else it draws."""

    #: the farthest distance at which the unseen tiles are counted exactly
    EXACT = 4
    #: the same with seven pairs on (each face is tried: dearer)
    PAIRS_EXACT = 3
    #: what feeding the next player costs, in unseen tiles
    FEED = 4
    #: what a take costs, in draws: a take that keeps the distance is made
    #: when the draws expected to the next step, after it, are fewer by more
    TAKE_TURN = 1.0
    #: how many of the best discards (by the unseen tiles that bring the
    #: rack nearer) are weighed again over two steps (0: none)
    TWO_STEP = 4

    def _best_discard(self, game: OkeyGame, seat: int, rack: list[int]) -> tuple[tuple, int]:
        sp = game.rules.seven_pairs
        unseen, unseen_wilds = unseen_counts(game, seat)
        counts, wilds = rack_counts(rack, game.okey)
        floor = distance(counts, wilds, sp)          # no discard leaves it nearer
        nxt = (seat + 1) % game.n
        hard, soft = _needed(game, nxt), _wanted(game, nxt)
        tiles = sorted(set(rack))
        self.rng.shuffle(tiles)
        best = None
        keys = []
        for t in tiles:
            rest = list(rack)
            rest.remove(t)
            c, w = rack_counts(rest, game.okey)
            if best is None:
                d = distance(c, w, sp, floor)
            else:
                d = -best[0][0]
                if d > floor and fits(c, w + d - 1, sp, d - 1):
                    d = distance(c, w, sp, floor)
                elif not fits(c, w + d, sp, d):
                    continue                        # further from a win than the best
            if d <= (self.PAIRS_EXACT if sp else self.EXACT):
                score = acceptance(c, w, sp, d, unseen, unseen_wilds)
            else:
                score = live_shape(c, w, unseen)
            key = (-d, score - self.FEED * (t in hard), t != game.okey, t not in soft)
            keys.append((key, t, c, w))
            if best is None or key > best[0]:
                best = (key, t)
        d = -best[0][0]
        if self.TWO_STEP and not sp and 2 <= d <= self.EXACT:
            near = sorted((k for k in keys if k[0][0] == -d), key=lambda k: k[0], reverse=True)
            best = None
            for key, t, c, w in near[:self.TWO_STEP]:
                score = two_step(c, w, d, unseen, unseen_wilds)
                key = (-d, score - self.FEED * (t in hard)) + key[2:]
                if best is None or key > best[0]:
                    best = (key, t)
        return best

    def draw(self, game, seat, moves) -> Move:
        forced = self._forced_draw(game, moves)
        if forced is not None:
            return forced
        take = game.takeable()
        sp = game.rules.seven_pairs
        c, w = rack_counts(game.racks[seat], game.okey)
        now = distance(c, w, sp)
        if not now:
            return Move("draw")
        if distance(*rack_counts(game.racks[seat] + [take], game.okey), sp) < now:
            return Move("take")
        if now <= (self.PAIRS_EXACT if sp else self.EXACT):
            unseen, unseen_wilds = unseen_counts(game, seat)
            if self.TWO_STEP and not sp and now >= 2:
                acc = two_step(c, w, now, unseen, unseen_wilds)
            else:
                acc = acceptance(c, w, sp, now, unseen, unseen_wilds)
            key, tile = self._best_discard(game, seat, game.racks[seat] + [take])
            total = sum(unseen) + unseen_wilds
            if tile != take and key[0] == -now and key[1] > 0:
                # draws expected to the next step: total/acc by drawing; TAKE_TURN and total/acc' by taking
                if not acc or self.TAKE_TURN + total / key[1] < total / acc:
                    return Move("take")
        return Move("draw")

    def discard(self, game, seat, moves) -> Move:
        _, tile = self._best_discard(game, seat, game.racks[seat])
        return Move("discard", tile)


def unseen_counts(game: OkeyGame, seat: int) -> tuple[list[int], int]:
    """What ``seat`` has not seen: the copies of each natural face (52; the
    okey's own face is the false jokers) and the okeys it may still draw or
    be fed: two of each, less its own rack, every discard pile, the
    indicator and the tiles the others took from the piles (public, and in
    their racks)."""
    seen = list(game.racks[seat]) + [t for p in game.piles for t in p] + [game.indicator]
    seen += [t for s in range(game.n) if s != seat for t in game.taken[s]]
    counts, wilds = rack_counts(seen, game.okey)
    return [max(0, 2 - k) for k in counts], max(0, 2 - wilds)


def _needed(game: OkeyGame, seat: int) -> set[int]:
    """What ``seat`` visibly needs: the faces it took from the discards, and
    the tiles that complete a set or run with two tiles it took."""
    took = [t for t in game.taken[seat] if t != F_CODE]
    out = set(took)
    for i, a in enumerate(took):
        for b in took[i + 1:]:
            ca, na = divmod(a, 13)
            cb, nb = divmod(b, 13)
            if na == nb and ca != cb:
                out.update(k * 13 + na for k in range(4) if k not in (ca, cb))
            elif ca == cb and 0 < abs(na - nb) <= 2:
                lo, hi = min(na, nb), max(na, nb)
                xs = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
                out.update(ca * 13 + x for x in xs if 0 <= x < 13)
    return out


LEVELS = {"random": RandomPlayer, "greedy": GreedyPlayer, "strong": StrongPlayer, "expert": ExpertPlayer}
