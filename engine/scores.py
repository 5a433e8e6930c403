"""Zero-sum scores from what each player has left, shared by the tile
games whose loser pays the winner (Sabra, American Rummikub): the winner
gains what the others hold, and when nobody goes out (the pool-empty end)
the lowest rack wins the differences."""

from __future__ import annotations

from .errors import EngineError


class ScoreError(EngineError, ValueError):
    """A score sheet that cannot be scored (a winner with tiles left...)."""


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
