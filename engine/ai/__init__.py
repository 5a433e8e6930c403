"""Computer players, by game family and level.

Rummikub levels, weakest first (:mod:`engine.ai.levels`): ``"random"`` (a
random legal play), ``"greedy"`` (the solver's largest play, initial-meld
aware) and ``"strong"`` (seed 001's club-player habits on top of the
solver). Each is a class with ``choose(game) -> move`` for the seat to move.

Contract rummy: ``"standard"`` (:mod:`engine.contract.ai.seat`), whose
``choose(game, seat) -> move or None`` also acts for seats off turn (buys).

:func:`levels_for` is the one registry the rest of tablekeeper asks.
"""

from __future__ import annotations

from .levels import LEVEL_NAMES, LEVELS, choose_move, player
from .random_player import RandomPlayer


def levels_for(family: str) -> dict[str, type]:
    """The AI levels of a game family, by name (empty if it has none)."""
    if family == "rummikub":
        return dict(LEVELS)
    if family == "contract":
        from ..contract.ai.seat import ContractSeatPlayer

        return {"standard": ContractSeatPlayer}
    return {}


__all__ = ["LEVELS", "LEVEL_NAMES", "RandomPlayer", "choose_move", "levels_for", "player"]
