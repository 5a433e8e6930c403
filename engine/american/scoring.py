"""Scoring American and International Rummikub (seed 001).

American: each loser scores minus the tiles left on the rack (face value, a
1 counts 1, a joker the joker penalty) and the winner the sum; when the
stacks run out, Sabra's rule (the lowest rack wins the differences).

International: the winner scores by the way of winning (Open 100, or 200
when nobody else has melded; Foot 200; Closed by the hand's type), plus 50
for the trump's twin where that is played. A loser who has melded loses
the tiles left (2-9 at face value; 10-13 and 1 count 10; a joker the joker
penalty); one who has not loses 100, or after a Closed win the winner's
score. A joker as the winning discard doubles every score. The scores of a
deal do not sum to zero; :func:`settle` turns a session's totals into what
each player pays or receives.
"""

from __future__ import annotations

from ..scores import score_values
from ..tiles import JOKER

OPEN, OPEN_ALONE, FOOT = 100, 200, 200
NOT_MELDED = 100
TWIN_BONUS = 50


def tile_points(code: int, joker: int) -> int:
    """What a tile left on a rack costs in American: face value, a 1 counts 1."""
    return joker if code == JOKER else code % 13 + 1


def international_points(code: int, joker: int) -> int:
    """What an unmelded tile costs in International: 2-9 face value, 10-13
    and 1 count 10 (a joker: the joker penalty)."""
    if code == JOKER:
        return joker
    n = code % 13 + 1
    return 10 if n >= 10 or n == 1 else n


def american_scores(racks: list[list[int]], winner: int, joker: int) -> tuple[list[int], list[int]]:
    """``(scores, rack values)`` of an American deal that ``winner`` went out of."""
    values = [sum(tile_points(t, joker) for t in rack) for rack in racks]
    scores, _ = score_values(values, winner)
    return scores, values


def pool_empty_scores(racks: list[list[int]], joker: int, tie_start: int = 0):
    """``(scores, rack values, winners)`` when the stacks ran out: the
    lowest rack wins the differences (Sabra's rule)."""
    values = [sum(tile_points(t, joker) for t in rack) for rack in racks]
    scores, lowest = score_values(values, None, tie_start=tie_start)
    return scores, values, lowest


def win_points(kind: str, closed_score: int, alone: bool, twin: bool = False) -> int:
    """What an International winner scores: ``kind`` is ``open``, ``foot`` or
    ``closed`` (with its table score); ``alone``: nobody else has melded."""
    base = {"open": OPEN_ALONE if alone else OPEN, "foot": FOOT, "closed": closed_score}[kind]
    return base + (TWIN_BONUS if twin else 0)


def international_scores(racks: list[list[int]], melded: list[bool], winner: int | None, kind: str,
                         base: int, joker: int, doubled: bool = False) -> list[int]:
    """Every seat's score of an International deal (``winner`` ``None``:
    nobody won)."""
    scores = []
    for s, rack in enumerate(racks):
        if s == winner:
            scores.append(base)
        elif melded[s]:
            scores.append(-sum(international_points(t, joker) for t in rack))
        else:
            scores.append(-(base if kind == "closed" else NOT_MELDED))
    return [2 * x for x in scores] if doubled else scores


def settle(totals: list[int]) -> list[int]:
    """The end-of-session settlement: each pair of players settles the
    difference of their totals, so each receives (or pays, when negative)
    the sum of its differences to every other player. The result sums to
    zero."""
    n = len(totals)
    return [n * t - sum(totals) for t in totals]
