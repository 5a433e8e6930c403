"""The contract rummy computer player.

- :mod:`.player`: :class:`ContractPlayer`, its policy (draw, buy, go down,
  lay off, discard) and :func:`play_turn` / :func:`play_game`, which drive
  whole turns of every seat (self-play, examples, tests);
- :mod:`.seat`: :class:`ContractSeatPlayer`, the same policy one move at a
  time for a seat of a server (the ``"standard"`` level of
  :func:`engine.ai.levels_for`), :func:`next_ai_move`, and
  :func:`play_seats`, which plays a game with a player per seat;
- :mod:`.random_player`: :class:`RandomContractPlayer`, legal moves at
  random (it goes down when it can), the opponent of the self-play tests;
- :mod:`.levels`: the ladder ``random`` < ``basic`` < ``strong`` <
  ``expert`` (``standard``, the one level's old name, is an alias of
  ``strong``: :data:`ALIASES`).

Like every engine AI it reads only what its seat may see.
"""

from .player import ContractPlayer, find_contract, play_game, play_turn
from .random_player import RandomContractPlayer
from .levels import BasicPolicy, BasicSeatPlayer, ExpertPolicy, ExpertSeatPlayer, StrongSeatPlayer
from .seat import ContractSeatPlayer, next_ai_move, play_seats

#: The family's AI levels, weakest first (read by :func:`engine.ai.levels_for`).
LEVELS: dict[str, type] = {"random": RandomContractPlayer, "basic": BasicSeatPlayer,
                           "strong": StrongSeatPlayer, "expert": ExpertSeatPlayer}
#: Other names a seat's level may have been stored under (the level they mean).
ALIASES: dict[str, str] = {"standard": "strong"}

__all__ = ["ALIASES", "BasicPolicy", "BasicSeatPlayer", "ExpertPolicy", "ExpertSeatPlayer", "StrongSeatPlayer",
           "LEVELS", "ContractPlayer", "ContractSeatPlayer", "RandomContractPlayer", "find_contract",
           "next_ai_move", "play_game", "play_seats", "play_turn"]
