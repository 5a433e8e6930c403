"""American and International Rummikub (seed 001): draw-and-discard games
played with Rummikub tiles.

- :mod:`.game`: :class:`AmericanGame` (variant ``american``) and
  :class:`InternationalGame` (variant ``international-rummikub``), one deal
  each, with records, replay, snapshots and views;
- :mod:`.rules` and :mod:`.options`: the rule options and each variant's
  defaults;
- :mod:`.moves`: the move notation;
- :mod:`.closed`: International's closed-hand classifier (the 40 types of
  seed 001's table); ``python -m engine closed-hand`` answers it as JSON
  Lines (:mod:`.cli`);
- :mod:`.ai`: computer players.

The readings are in ``docs/rules/american.md`` and
``docs/rules/international.md``.
"""

from .closed import TYPES, Answer, classify
from .game import AmericanGame, InternationalGame
from .rules import AMERICAN, INTERNATIONAL, AmericanRules

__all__ = ["TYPES", "Answer", "classify", "AmericanGame", "InternationalGame", "AmericanRules",
           "AMERICAN", "INTERNATIONAL"]
