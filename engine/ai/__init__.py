"""Computer players, by game family and level: the one registry the rest
of tablekeeper asks (:func:`levels_for`). Each family keeps its players.

Rummikub, American and International (:mod:`engine.rummikub.ai`,
:mod:`engine.american.ai`) and Okey (:mod:`engine.okey.ai`): ``"random"``,
``"greedy"``, ``"strong"`` and ``"expert"``, each a class with
``choose(game) -> move`` for the seat to move.

Contract rummy (:mod:`engine.contract.ai`): ``"random"``, ``"basic"``,
``"strong"`` and ``"expert"`` (``"standard"`` an alias of ``"strong"``),
whose ``choose(game, seat) -> move or None`` also acts for seats off turn
(buys). ``docs/ai.md`` describes and measures every level.
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


def level_aliases(family: str) -> dict[str, str]:
    """Other names of a family's AI levels (old name -> level), which a
    stored seat may still carry; not offered for new seats."""
    from ..registry import family_for

    try:
        return family_for(family).ai_level_aliases()
    except ValueError:
        return {}


def resolve_level(family: str, level: str) -> str:
    """``level``, or the level it is another name of."""
    return level_aliases(family).get(level, level)


__all__ = ["level_aliases", "levels_for", "resolve_level"]
