"""The Rummikub AI levels, weakest first, and one call to move a seat.

    >>> from engine.rummikub.ai.levels import choose_move, LEVEL_NAMES
    >>> LEVEL_NAMES
    ('random', 'greedy', 'strong', 'expert')

``choose_move(game, seat, level)`` is what an AI seat's worker calls: it
returns a move in the engine's notation that ``game.push`` accepts, and
never changes the game. Each level sees only ``game.view(seat)``.
"""

from __future__ import annotations

from ..game import SabraGame
from ..moves import Move
from .expert import ExpertPlayer
from .greedy import GreedyPlayer
from .random_player import RandomPlayer
from .strong import StrongPlayer

LEVELS: dict[str, type] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "strong": StrongPlayer,
    "expert": ExpertPlayer,
}
LEVEL_NAMES = tuple(LEVELS)


def player(level: str, seed=None):
    """A player object of ``level`` (``choose(game) -> Move``).

    :raises ValueError: unknown level.
    """
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVEL_NAMES)})") from None
    return cls(seed)


def choose_move(game: SabraGame, seat: int, level: str, seed=None) -> Move:
    """The move ``level`` makes for ``seat``, which must be the seat to move.

    :raises ValueError: unknown level, the game is over, or it is not
        ``seat``'s turn.
    """
    if game.is_over:
        raise ValueError("the game is over")
    if game.to_move != seat:
        raise ValueError(f"it is seat {game.to_move}'s turn, not seat {seat}'s")
    return player(level, seed).choose(game)
