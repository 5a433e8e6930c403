"""Seven-hand contract rummy (seeds 002 and 004), one package for the family.

Variants ``contract`` (the three-decks profile, seed 002) and
``international`` (seed 004); every reading of the rules is written down in
``docs/rules/contract.md``. Where each part lives:

- :mod:`.rules`: the seven contracts, :class:`ContractRules` and its profiles
- :mod:`.melds`: a meld on the table and the checks on sets and runs
- :mod:`.moves`: :class:`Move` and its text notation
- :mod:`.game`: :class:`ContractGame` (state, who may act, push, views,
  snapshots), :class:`InternationalGame`
- :mod:`.turns`: what each move does (draw, take, buy, discard, down, ...)
- :mod:`.deals`: deals typed in from a real table
- :mod:`.records`: reading a contract record back
- :mod:`.judge`: judging a claimed going-out
- :mod:`.scoring`: score sheets of games played at a real table
- :mod:`.ai`: the computer player, whole turns and one move at a time

Importing this package registers both variants (:mod:`engine.registry`).
"""

from ..cards import TEXT  # imported from here by older code
from .game import ContractGame, InternationalGame
from .judge import claims_going_out, judge_going_out
from .melds import Meld, lay
from .moves import Move
from .records import replay_record
from .rules import CONTRACTS, HANDS, PROFILES, ContractRules, contract_text
from .scoring import score_hands

__all__ = [
    "CONTRACTS", "HANDS", "PROFILES", "TEXT", "ContractGame", "ContractRules",
    "InternationalGame", "Meld", "Move", "claims_going_out", "contract_text",
    "judge_going_out", "lay", "replay_record", "score_hands",
]
