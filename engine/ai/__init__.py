"""Computer players. Each level is a class with ``choose(game) -> move``
for the seat to move; :data:`LEVELS` finds them by name.

Rummikub: ``"random"`` (:class:`engine.ai.random_player.RandomPlayer`), a
random legal play. Stronger levels are added beside it.
"""

from __future__ import annotations

from .random_player import RandomPlayer

LEVELS: dict[str, type] = {"random": RandomPlayer}

__all__ = ["LEVELS", "RandomPlayer"]
