"""Computer players, by game family and level: the one registry the rest
of tablekeeper asks (:func:`levels_for`). Each family keeps its players.

Rummikub (:mod:`engine.rummikub.ai`): ``"random"``, ``"greedy"`` and
``"strong"``, each a class with ``choose(game) -> move`` for the seat to move.

Contract rummy: ``"standard"`` (:mod:`engine.contract.ai.seat`), whose
``choose(game, seat) -> move or None`` also acts for seats off turn (buys).
"""

from __future__ import annotations


def levels_for(family: str) -> dict[str, type]:
    """The AI levels of a game family, by name (empty if it has none)."""
    if family == "rummikub":
        from ..rummikub.ai import LEVELS

        return dict(LEVELS)
    if family == "contract":
        from ..contract.ai.seat import ContractSeatPlayer

        return {"standard": ContractSeatPlayer}
    return {}


__all__ = ["levels_for"]
