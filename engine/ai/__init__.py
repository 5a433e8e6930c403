"""Computer players, by game family and level: the one registry the rest
of tablekeeper asks (:func:`levels_for`). Each family keeps its players.

Rummikub (:mod:`engine.rummikub.ai`): ``"random"``, ``"greedy"`` and
``"strong"``, each a class with ``choose(game) -> move`` for the seat to move.

Contract rummy (:mod:`engine.contract.ai`): ``"standard"``, whose
``choose(game, seat) -> move or None`` also acts for seats off turn (buys).
"""

from __future__ import annotations

def levels_for(family: str) -> dict[str, type]:
    """The AI levels of a game family, by name, weakest first (empty if it
    has none): its description's :meth:`~engine.family.Family.ai_levels`
    (the ``LEVELS`` of the family's ``ai`` package, ``engine/<family>/ai/``,
    the one place a new family adds its players)."""
    from ..registry import family_for

    try:
        return family_for(family).ai_levels()
    except ValueError:
        return {}


__all__ = ["levels_for"]
