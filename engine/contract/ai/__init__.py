"""The contract rummy computer player.

- :mod:`.player`: :class:`ContractPlayer`, its policy (draw, buy, go down,
  lay off, discard) and :func:`play_turn` / :func:`play_game`, which drive
  whole turns of every seat (self-play, examples, tests);
- :mod:`.seat`: :class:`ContractSeatPlayer`, the same policy one move at a
  time for a seat of a server (the ``"standard"`` level of
  :func:`engine.ai.levels_for`), and :func:`next_ai_move`.

Like every engine AI it reads only what its seat may see.
"""

from .player import ContractPlayer, find_contract, play_game, play_turn
from .seat import ContractSeatPlayer, next_ai_move

#: The family's AI levels, weakest first (read by :func:`engine.ai.levels_for`).
LEVELS: dict[str, type] = {"standard": ContractSeatPlayer}

__all__ = ["LEVELS", "ContractPlayer", "ContractSeatPlayer", "find_contract", "next_ai_move",
           "play_game", "play_turn"]
