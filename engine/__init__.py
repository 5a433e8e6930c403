"""tablekeeper's rules engine: pure Python, no Django, no Celery.

Families live one to a module (:mod:`engine.rummikub`, :mod:`engine.contract`);
:func:`engine.registry.find_variant` finds a game class by name.
"""

from .errors import (DealError, EngineError, IllegalMoveError, NotationError,
                     RecordError, RuleOptionError)

__all__ = ["EngineError", "NotationError", "IllegalMoveError",
           "RuleOptionError", "DealError", "RecordError"]
