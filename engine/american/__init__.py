"""American and International Rummikub (seed 001): draw-and-discard games
played with Rummikub tiles.

Built so far: International's closed-hand classifier (:mod:`.closed`):
which of the 40 hand types of seed 001's table a 14-tile hand is, and what
it scores; ``python -m engine closed-hand`` answers it as JSON Lines
(:mod:`.cli`). The readings are in ``docs/rules/international.md``.
"""

from .closed import TYPES, Answer, classify

__all__ = ["TYPES", "Answer", "classify"]
