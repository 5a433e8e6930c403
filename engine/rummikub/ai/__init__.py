"""Rummikub's computer players, weakest first (:mod:`.levels`):
``"random"`` (:mod:`.random_player`, a random legal play), ``"greedy"``
(:mod:`.greedy`, the solver's largest play, initial-meld aware) and
``"strong"`` (:mod:`.strong`, club-player habits and a sampled look-ahead,
:mod:`.lookahead`, on top of the solver) and ``"expert"`` (:mod:`.expert`, a
determinized search over the hidden tiles every turn). Each is a class with
``choose(game) -> move`` for the seat to move; :mod:`.solver_play` turns a
solver answer into a move the game accepts.
"""

from __future__ import annotations

from .levels import LEVEL_NAMES, LEVELS, choose_move, player
from .random_player import RandomPlayer

__all__ = ["LEVELS", "LEVEL_NAMES", "RandomPlayer", "choose_move", "player"]
