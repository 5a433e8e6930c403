"""The "strong" level for Sabra Rummikub: the greedy player with the club
player's habits of seed 001's strategy advice.

- **Keep a joker while it is safe.** A joker is worth most later (it makes
  plays that nothing else makes) and costs 30 points if caught. While no
  opponent is close to going out and the pool is not nearly empty, the
  player opens and plays without its jokers whenever it can still play.
- **Hold back a fourth tile.** When, after its play, the rack would have
  nothing to play next turn, the player keeps back one tile of the play
  whose removal leaves the table valid (the fourth tile of a group or the
  end of a run: the lowest such), so that next turn it lays that tile
  instead of drawing.
- **Mind the pool and the other racks.** When an opponent has few tiles
  left or the pool runs low, it stops holding back: the largest play, jokers
  included, so as not to be caught with them. A play that empties the rack
  is always made.

It sees only what its seat may see (:meth:`SabraGame.view`). Deterministic.
"""

from __future__ import annotations

from ..rummikub import Move, SabraGame
from ..solver import divide, solve
from ..tiles import JOKER
from .greedy import largest_play, opening_move
from .solver_play import best_legal_play, meld_tiles, no_play, seat_view

DANGER_RACK = 4   # an opponent with this many tiles or fewer may go out soon
DANGER_POOL = 6   # a pool this small ends the game soon


def in_danger(view: dict, seat: int) -> bool:
    """Whether holding tiles back has become risky."""
    others = [n for s, n in enumerate(view["rack_counts"]) if s != seat]
    return min(others, default=99) <= DANGER_RACK or view["pool_count"] <= DANGER_POOL


def _without(rack: list[int], tiles: list[int]) -> list[int]:
    left = list(rack)
    for t in tiles:
        left.remove(t)
    return left


class StrongPlayer:
    """Plays like a strong club player (see the module docstring).
    ``choose(game)`` returns a move for ``game.to_move``."""

    name = "strong"

    def __init__(self, seed=None):
        self.seed = seed

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
            if jokers and not danger:
                move = opening_move(game, view, plain)
                if move is not None:
                    return move
            move = opening_move(game, view, rack)
            return move if move is not None else no_play(view)

        full = largest_play(game, view, rack)
        if full is None:
            return no_play(view)
        full_move, placed = full
        if placed == len(rack) or danger:
            return full_move
        ts = view["tileset"]
        table = [t for m in view["table"] for t in meld_tiles(m)]
        sol = None
        if jokers:
            sol = solve(table, plain, tileset=ts)
            if not sol.tiles_placed:
                sol = None
        if sol is None:
            sol = solve(table, rack, tileset=ts)
        play = [int(t) for t in sol.play]
        if not play:
            return full_move
        play = self._hold_back(table, rack, play, ts)
        move = best_legal_play(game, view, play)
        return move if move is not None else full_move

    @staticmethod
    def _hold_back(table: list[int], rack: list[int], play: list[int], ts) -> list[int]:
        """``play`` less one tile kept for next turn, when the rest of the
        rack would have nothing to play then."""
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
        return play
