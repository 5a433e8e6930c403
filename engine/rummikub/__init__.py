"""The Rummikub family: Sabra Rummikub and Rummikub XP.

The rules and every reading chosen are written down in
``docs/rules/rummikub.md``; the move notation in ``docs/records.md``.

>>> from engine.rummikub import SabraGame
>>> g = SabraGame.new(2, seed="club-night-1")
>>> g.to_move
0
>>> out = g.push(g.parse_move("draw"))
>>> out.kind, g.to_move
('drew', 1)

Where each part lives:

- :mod:`.rules` - :class:`RuleSet` (every rule option by name), the
  published editions (:data:`PRESETS`), ``rules_from_dict`` /
  ``rules_to_dict``; ``RuleSet.meld_rules`` hands the shared options to the
  meld checks and the solver (:class:`engine.melds.MeldRules`).
- :mod:`.moves` - :class:`Move`, a value with one canonical text.
- :mod:`.game` - :class:`SabraGame` and :class:`SabraXPGame`: set-up from a
  seed, a deal or a position; ``push``, ``legal``, ``view``, ``snapshot``,
  the setup a game record needs.
- :mod:`.jokers` - the joker rules of a play.
- :mod:`.scoring` - rack values, zero-sum scores, score sheets.
- :mod:`.rounds` - :class:`Round`, several games with the first seat rotating.
- :mod:`.ai` - the computer players, by level.

Tiles and melds (their notation and checks) are shared with other tile
games and live in :mod:`engine.tiles` and :mod:`engine.melds`; the solver in
:mod:`engine.solver`.
"""

from __future__ import annotations

from .game import SabraGame, SabraXPGame
from .moves import Move
from .rounds import Round
from .rules import (DIRECTIONS, JOKER_FREED_FROM, PRESETS, POOL_EMPTY_END, RULE_OPTIONS,
                    RuleSet, rules_from_dict, rules_to_dict)
from .scoring import ScoreError, rack_value, score_racks, score_values

__all__ = ["RuleSet", "PRESETS", "RULE_OPTIONS", "rules_from_dict", "rules_to_dict",
           "Move", "SabraGame", "SabraXPGame", "Round", "score_racks", "score_values",
           "rack_value", "ScoreError", "DIRECTIONS", "JOKER_FREED_FROM", "POOL_EMPTY_END"]
