"""Score sheets of American and International Rummikub games played at a
real table, scored by :mod:`engine.american.scoring`."""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import EngineError
from ..family import SheetError
from ..tiles import format_tiles, parse_tiles

HOWS = ("open", "foot", "closed")
WON_FIELDS = ("how", "closed_type", "closed_jokers", "melded", "joker_discard", "twin")


def read_sheet(ruleset, racks: Sequence[str], *, seats: int, first: int = 0, how: str | None = None,
               closed_type: int | None = None, closed_jokers: int = 0, melded: Sequence[bool] | None = None,
               joker_discard: bool = False, twin: bool = False) -> dict[str, Any]:
    """Read and score one game: the tiles left on each rack (empty for the
    player who went out). International also gives how the game was won
    (``open``, ``foot`` or ``closed`` with the hand's type 1-40 and its
    jokers), which losers had melded, whether the winning discard was a
    joker, and (with the rule) whether the winner held the trump's twin.

    :returns: the result's payload: ``racks``, ``ending`` (``"out"``,
        ``"pool-empty"`` (American: the lowest rack won) or ``"no-winner"``
        (International)), ``scores``, ``winners``, and how it was won.
    :raises SheetError: the wrong number of racks, an unknown tile, more
        than two of a tile or of jokers, two empty racks, or a missing or
        impossible way of winning, named.
    """
    from .closed import TYPES
    from .scoring import american_scores, international_scores, pool_empty_scores, win_points

    if isinstance(racks, str) or len(racks) != seats:
        raise SheetError(f"expected {seats} racks (one per seat), got {len(racks)}")
    parsed = []
    for i, text in enumerate(racks):
        try:
            parsed.append([int(t) for t in parse_tiles(text or "")])
        except EngineError as exc:
            raise SheetError(f"seat {i + 1}: {exc}", seat=i + 1, token=getattr(exc, "token", None)) from None
    every = [t for tiles in parsed for t in tiles]
    for t in set(every):
        if every.count(t) > 2:
            raise SheetError(f"{format_tiles([t])} appears {every.count(t)} times over the racks "
                             "(the set has two)")
    empty = [i for i, tiles in enumerate(parsed) if not tiles]
    if len(empty) > 1:
        raise SheetError(f"seats {', '.join(str(i + 1) for i in empty)} all have empty racks: "
                         "only one player can go out")
    winner = empty[0] if empty else None
    text = [format_tiles(t) for t in parsed]

    def out(scores, winners, ending, **more):
        return {"source": "score_sheet", "racks": text, "ending": ending, "scores": scores,
                "winners": winners, **more}

    if not ruleset.international:
        if winner is None:
            scores, _, lowest = pool_empty_scores(parsed, ruleset.joker_penalty, tie_start=first)
            return out(scores, lowest, "pool-empty")
        scores, _ = american_scores(parsed, winner, ruleset.joker_penalty)
        return out(scores, [winner], "out")
    given_melded = list(melded or [])
    melded = list(melded) if melded is not None else [False] * seats
    if len(melded) != seats:
        raise SheetError(f"say for each of the {seats} seats whether it had melded")
    if winner is None:
        if how:
            raise SheetError(f"won {how}, but no rack is empty: leave the winner's rack empty")
        scores = international_scores(parsed, melded, None, "no winner", 0, ruleset.joker_penalty)
        return out(scores, [], "no-winner")
    if how not in HOWS:
        raise SheetError("say how the game was won: open, foot or closed")
    score = 0
    if how == "closed":
        if closed_type not in TYPES:
            raise SheetError("a closed win gives its hand's type, 1-40 (seed 001's table)")
        if closed_jokers not in (0, 1, 2):
            raise SheetError("a closed hand holds 0, 1 or 2 jokers")
        score = TYPES[closed_type][1][closed_jokers]
    elif closed_type:
        raise SheetError(f"a hand type goes with a closed win, not {how}")
    alone = not any(m for s, m in enumerate(melded) if s != winner)
    base = win_points(how, score, alone, twin=bool(twin and ruleset.trump_twin_bonus))
    melded[winner] = True
    scores = international_scores(parsed, melded, winner, how, base, ruleset.joker_penalty,
                                  doubled=bool(joker_discard))
    return out(scores, [winner], "out", how=how, closed_type=closed_type if how == "closed" else None,
               melded=given_melded, joker_discard=bool(joker_discard))
