"""Scoring a Rummikub game: rack values and zero-sum scores, for a game
played through the engine and for score sheets typed in by officials."""

from __future__ import annotations

from typing import Iterable

from ..scores import ScoreError, score_values
from ..tiles import face_value, parse_tiles
from .rules import RuleSet

__all__ = ["ScoreError", "rack_value", "score_values", "score_racks"]


def rack_value(rack: Iterable[int], joker_penalty: int = 30) -> int:
    """Points of the tiles on a rack: face values, a joker ``joker_penalty``."""
    return sum(face_value(t, joker_penalty) for t in rack)


def score_racks(racks: list[list], rules: RuleSet | None = None,
                winner: int | None = None, tie_start: int = 0) -> list[int]:
    """Score a game from the racks left at its end (for score sheets typed in
    by officials). Tiles may be :class:`~engine.tiles.Tile`, codes or text.
    ``winner`` is the seat that went out, or ``None`` for the pool-empty end
    (see :func:`score_values`). The result sums to zero.

    >>> score_racks([[], ["R5", "J"], ["K13"]], winner=0)
    [48, -35, -13]

    :raises ScoreError: the winner's rack is not empty.
    :raises NotationError: a rack holds something that is not a tile.
    """
    rules = rules or RuleSet()
    values = [rack_value(parse_tiles(r), rules.joker_penalty) for r in racks]
    return score_values(values, winner, tie_start)[0]
