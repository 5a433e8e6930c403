"""Scoring a Rummikub game: rack values and zero-sum scores, for a game
played through the engine and for score sheets typed in by officials."""

from __future__ import annotations

from typing import Iterable

from ..errors import EngineError
from ..tiles import face_value, parse_tiles
from .rules import RuleSet


class ScoreError(EngineError, ValueError):
    """A score sheet that cannot be scored (a winner with tiles left...)."""


def rack_value(rack: Iterable[int], joker_penalty: int = 30) -> int:
    """Points of the tiles on a rack: face values, a joker ``joker_penalty``."""
    return sum(face_value(t, joker_penalty) for t in rack)


def score_values(values: list[int], winner: int | None, tie_start: int = 0) -> tuple[list[int], list[int]]:
    """Zero-sum scores from rack values; returns ``(scores, winners)``.

    With a ``winner`` (went out: value 0), each other player scores minus
    their value and the winner the sum. With ``winner=None`` (the pool-empty
    end) the lowest value wins, every other player loses the difference to
    it, and the winner scores the sum of the differences. Players tied for
    lowest share the sum equally; the points that do not divide go one each
    to the tied players in seat order starting at ``tie_start``.

    :raises ScoreError: a winner whose rack is not empty, or bad input.
    """
    n = len(values)
    if n < 2:
        raise ScoreError("scoring needs at least two players")
    if any(not isinstance(v, int) or v < 0 for v in values):
        raise ScoreError(f"rack values must be non-negative integers: {values!r}")
    if winner is not None:
        if not 0 <= winner < n:
            raise ScoreError(f"winner seat {winner} out of range 0..{n - 1}")
        if values[winner] != 0:
            raise ScoreError(f"the winner (seat {winner}) still holds tiles worth {values[winner]}")
        scores = [-v for v in values]
        scores[winner] = sum(values)
        return scores, [winner]
    low = min(values)
    winners = [i for i in range(n) if values[i] == low]
    scores = [low - v for v in values]
    pot = -sum(scores)
    share, rest = divmod(pot, len(winners))
    order = sorted(winners, key=lambda s: (s - tie_start) % n)
    for k, s in enumerate(order):
        scores[s] = share + (1 if k < rest else 0)
    return scores, winners


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
