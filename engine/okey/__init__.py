"""Okey (seed 003): Turkish rummy with 106 tiles, played four to a table.

Built so far: the hand checker (:mod:`engine.okey.hand`): does a rack of 14
tiles win, as sets and runs or as seven pairs, with the okey (the real
joker) wild and the false jokers standing for the okey's face; and, with 15
tiles, which discard leaves a winning 14. ``python -m engine okey-hand``
answers it as JSON Lines. The readings are in ``docs/rules/okey.md``.
"""

from .hand import HandAnswer, OkeyRules, check, okey_of, parse_okey_tile

__all__ = ["HandAnswer", "OkeyRules", "check", "okey_of", "parse_okey_tile"]
