"""Okey (seed 003): Turkish rummy with 106 tiles, played four to a table.

Variant ``okey``; every reading of the rules is written down in
``docs/rules/okey.md``. Where each part lives:

- :mod:`.rules`: :class:`OkeyRules`, the room settings
- :mod:`.options`: the settings described for people
- :mod:`.hand`: the hand checker: does a rack of 14 win, as sets and runs
  or as seven pairs; with 15, which discard leaves a winning 14
  (``python -m engine okey-hand`` answers it as JSON Lines, :mod:`.cli`)
- :mod:`.moves`: :class:`Move` and its notation
- :mod:`.game`: :class:`OkeyGame`, a match played down from the starting
  points (state, push, views, snapshots, records)
- :mod:`.judge`: a claimed win judged by the hand checker (disputes)
- :mod:`.scoring`: score sheets of matches played at a real table
- :mod:`.ai`: the computer players (``random``, ``greedy``, ``strong``)

Importing this package registers the variant (:mod:`engine.registry`).
"""

from .game import TILES, OkeyGame
from .hand import HandAnswer, check, okey_of, parse_okey_tile
from .judge import judge_finish
from .moves import Move
from .rules import OkeyRules
from .scoring import MatchSheet, score_match

__all__ = ["TILES", "HandAnswer", "MatchSheet", "Move", "OkeyGame", "OkeyRules", "check", "judge_finish", "okey_of",
           "parse_okey_tile", "score_match"]
