"""The "greedy" level for Sabra Rummikub: every turn, the largest play.

Before its initial meld it lays the largest rack-only opening worth the
threshold (:func:`engine.solver.solve` in initial-meld mode); after it, the
play of the most rack tiles (then the most value) that the solver finds,
laid out keeping as many table melds as it can. When the rules refuse that
layout (joker options), it tries the best play that leaves every meld with a
joker alone, then new melds from the rack alone; otherwise it draws (or
passes once the pool is empty). Deterministic.
"""

from __future__ import annotations

from ...solver import solve
from ..game import SabraGame
from ..moves import Move
from .solver_play import (best_legal_play, meld_tiles, no_play, rack_only_move,
                          seat_view)


def opening_move(game: SabraGame, view: dict, rack: list[int]) -> Move | None:
    """The largest legal initial meld from ``rack`` (a sub-rack of the
    player's), or ``None``."""
    sol = solve([], rack, initial_meld_done=False, rules=view["rules"].meld_rules,
                tileset=view["tileset"])
    if not sol.tiles_placed:
        return None
    return rack_only_move(game, view, sol.melds)


def largest_play(game: SabraGame, view: dict, rack: list[int]) -> tuple[Move, int] | None:
    """The legal move placing the most of ``rack`` (a sub-rack of the
    player's) after the initial meld, with how many tiles it places."""
    old = view["table"]
    ts = view["tileset"]
    table = [t for m in old for t in meld_tiles(m)]
    sol = solve(table, rack, tileset=ts)
    if sol.tiles_placed:
        move = best_legal_play(game, view, [int(t) for t in sol.play])
        if move is not None:
            return move, sol.tiles_placed
        # the joker rules refused it: leave the melds holding a joker alone
        free = [m for m in old if not any(s >= 52 for s in m)]
        if len(free) < len(old):
            sol2 = solve([t for m in free for t in meld_tiles(m)], rack, tileset=ts)
            if sol2.tiles_placed:
                move = best_legal_play(game, view, [int(t) for t in sol2.play])
                if move is not None:
                    return move, sol2.tiles_placed
    own = solve([], rack, tileset=ts)
    if own.tiles_placed:
        move = rack_only_move(game, view, own.melds)
        if move is not None:
            return move, own.tiles_placed
    return None


class GreedyPlayer:
    """Largest play every turn. ``choose(game)`` returns a move for
    ``game.to_move`` without changing the game."""

    name = "greedy"

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, game: SabraGame) -> Move:
        """:raises ValueError: the game is over."""
        if game.is_over:
            raise ValueError("the game is over")
        seat = game.to_move
        view = seat_view(game, seat)
        rack = view["rack"]
        if not view["initial_done"][seat]:
            move = opening_move(game, view, rack)
            return move if move is not None else no_play(view)
        got = largest_play(game, view, rack)
        return got[0] if got is not None else no_play(view)
