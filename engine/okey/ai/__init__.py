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

``bench/ai.py --family okey`` measures each against the one below.
"""

from __future__ import annotations

import random as _random

from ..game import OkeyGame
from ..hand import F_CODE
from ..moves import Move
from .eval import cover, shape

__all__ = ["LEVELS", "GreedyPlayer", "RandomPlayer", "StrongPlayer"]


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
        take = game.takeable()
        if not any(m.action == "draw" for m in moves):
            return Move("take")
        if take is None:
            return Move("draw")
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


LEVELS = {"random": RandomPlayer, "greedy": GreedyPlayer, "strong": StrongPlayer}
