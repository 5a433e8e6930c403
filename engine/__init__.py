"""tablekeeper's rules engine: pure Python, no Django, no Celery.

Each game family is one package (:mod:`engine.rummikub`,
:mod:`engine.contract`) over a shared core (:mod:`engine.base`,
:mod:`engine.tiles`, :mod:`engine.cards`, :mod:`engine.melds`,
:mod:`engine.records`); :func:`engine.registry.find_variant` finds a game
class by name. Post-game analysis: :mod:`engine.analysis` and each family's
``analysis`` module, found by :func:`engine.registry.analyser_for`
(``docs/analysis.md``). ``docs/architecture.md`` draws the layers.
"""

from .errors import (DealError, EngineError, IllegalMoveError, NotationError,
                     RecordError, RuleOptionError)

__all__ = ["EngineError", "NotationError", "IllegalMoveError",
           "RuleOptionError", "DealError", "RecordError"]
