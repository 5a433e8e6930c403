"""tablekeeper's rules engine: pure Python, no Django, no Celery.

Each game family is one package (:mod:`engine.rummikub`,
:mod:`engine.contract`) over a shared core (:mod:`engine.base`,
:mod:`engine.tiles`, :mod:`engine.cards`, :mod:`engine.melds`,
:mod:`engine.records`); :func:`engine.registry.find_variant` finds a game
class by name. ``docs/architecture.md`` draws the layers.
"""

from .errors import (DealError, EngineError, IllegalMoveError, NotationError,
                     RecordError, RuleOptionError)

__all__ = ["EngineError", "NotationError", "IllegalMoveError",
           "RuleOptionError", "DealError", "RecordError"]
