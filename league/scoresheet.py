"""Score sheets: the tiles left on each rack of a game played on a real table.

Pure (no database). The official types one line per seat, in seat order:
the tiles left on that rack in the engine's notation (``"R7 K13 J"``), or
nothing for the player who went out. The engine's tile reader checks each
token; the engine's scoring (:func:`engine.rummikub.score_racks`) turns
racks into scores:

- one empty rack: that player won; each other player scores minus their
  rack, the winner the sum (seed 001);
- no empty rack: the pool ran out; the lowest rack wins and each other player
  pays the difference (seed 001's pool-empty rule);
- a joker on a rack counts the rule set's joker value (30, or 25).

The scores must sum to zero; a sheet that cannot be right (an unknown tile,
two empty racks, three copies of R7 in a standard set, the wrong number of
racks) is refused with a :class:`ScoreSheetError` naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.errors import EngineError
from engine.registry import find_variant
from engine.rummikub import score_racks
from engine.tiles import face_value, format_tiles, parse_tiles


class ScoreSheetError(ValueError):
    """A score sheet that cannot be right; the message names the problem."""


@dataclass(frozen=True)
class SheetResult:
    racks: list[str]        # canonical text of each rack
    values: list[int]       # points on each rack
    scores: list[int]       # the game's score per seat (sum 0)
    winners: list[int]      # seat positions
    ending: str             # "out" or "pool-empty"
    joker_value: int


def _ruleset(variant: str, rules: dict | None):
    """The engine's game class and frozen rule set for ``variant``.

    :raises ScoreSheetError: an unknown variant or rule options the engine
        refuses.
    """
    try:
        cls = find_variant(variant)
        return cls, cls.rules_from_dict(dict(rules or {}))
    except EngineError as exc:
        raise ScoreSheetError(f"rule options refused: {exc}") from None


def score_sheet(racks: Sequence[str], *, seats: int, variant: str = "sabra",
                rules: dict | None = None, first: int = 0) -> SheetResult:
    """Read and score one game's score sheet with the engine's scoring
    (:func:`engine.rummikub.score_racks`).

    :param racks: one text per seat position (empty: went out).
    :param seats: how many seats the table has.
    :param first: the seat that started the game (the engine shares the odd
        points of a tied pool-empty end in seat order from it).
    :raises ScoreSheetError: wrong number of racks, an unknown tile (named,
        with its seat), more copies of a tile than the set holds, more than
        one empty rack, rule options the engine refuses, or scores that do
        not sum to zero.
    """
    if len(racks) != seats:
        raise ScoreSheetError(f"expected {seats} racks (one per seat), got {len(racks)}")
    cls, ruleset = _ruleset(variant, rules)
    joker_value = ruleset.joker_penalty
    parsed = []
    for i, text in enumerate(racks):
        try:
            parsed.append(parse_tiles(text or ""))
        except EngineError as exc:
            raise ScoreSheetError(f"seat {i + 1}: {exc}") from None
    tileset = getattr(cls, "tileset", None)
    if tileset is not None:
        try:
            tileset.check([t for tiles in parsed for t in tiles])
        except EngineError as exc:
            raise ScoreSheetError(f"{exc} (over all racks)") from None
    empty = [i for i, tiles in enumerate(parsed) if not tiles]
    if len(empty) > 1:
        raise ScoreSheetError(
            f"seats {', '.join(str(i + 1) for i in empty)} all have empty racks: "
            "only one player can go out")
    winner = empty[0] if empty else None
    try:
        scores = [int(s) for s in score_racks(parsed, ruleset, winner=winner,
                                              tie_start=first)]
    except EngineError as exc:
        raise ScoreSheetError(str(exc)) from None
    if sum(scores) != 0:  # the engine guarantees it; checked all the same
        raise ScoreSheetError(f"scores {scores} do not sum to zero")
    values = [sum(face_value(t, joker_value) for t in tiles) for tiles in parsed]
    if winner is not None:
        winners = [winner]
    else:
        low = min(values)
        winners = [i for i, v in enumerate(values) if v == low]
    return SheetResult(racks=[format_tiles(t) for t in parsed], values=values,
                       scores=scores, winners=winners,
                       ending="out" if winner is not None else "pool-empty",
                       joker_value=joker_value)


# --- contract rummy ---------------------------------------------------------------

@dataclass(frozen=True)
class ContractSheetResult:
    """A contract rummy game's score sheet, read and scored.

    ``hands[h][s]`` is the canonical text of the cards seat ``s`` had left
    after hand ``h + 1`` (empty: went out), ``points[h][s]`` what they count,
    ``totals[s]`` the game's points (fewer is better), ``scores`` the league
    scores (``-totals``: more is better, as for a game recorded from its
    stream) and ``winners`` the seats with the fewest points.
    """

    hands: list[list[str]]
    points: list[list[int]]
    totals: list[int]
    scores: list[int]
    winners: list[int]


def contract_score_sheet(hands: Sequence[Sequence[str]], *, seats: int,
                         variant: str = "contract", rules: dict | None = None
                         ) -> ContractSheetResult:
    """Read and score a contract rummy score sheet with the engine's scoring
    (:func:`engine.contract.score_hands`): one line per hand (seven), each
    with the cards every seat had left, in seat order (``"KD 7H JK"``;
    empty for the player who went out).

    :raises ScoreSheetError: not seven hands, a hand without one entry per
        seat, a token that is not a card (named with its hand and seat), two
        players out in one hand, more copies of a card than the pack holds,
        or rule options the engine refuses.
    """
    from engine.cards import cards_text, parse_cards, sort_key
    from engine.contract import HANDS, ContractRules, contract_text, score_hands

    _, ruleset = _ruleset(variant, rules)
    if not isinstance(ruleset, ContractRules):
        raise ScoreSheetError(f"{variant} is not a contract rummy variant")
    if isinstance(hands, str) or len(hands) != HANDS:
        got = "text" if isinstance(hands, str) else f"{len(hands)} hands"
        raise ScoreSheetError(f"a contract game is {HANDS} hands: give one line per hand "
                              f"({HANDS}), got {got}")
    parsed = []
    for h, line in enumerate(hands, 1):
        if isinstance(line, str) or len(line) != seats:
            got = "one text" if isinstance(line, str) else f"{len(line)} entries"
            raise ScoreSheetError(f"hand {h} ({contract_text(h - 1)}): expected {seats} entries "
                                  f"(one per seat), got {got}")
        row = []
        for s, text in enumerate(line):
            try:
                row.append(sorted(parse_cards(text or ""), key=sort_key))
            except EngineError as exc:
                raise ScoreSheetError(f"hand {h}, seat {s + 1}: {exc}") from None
        out = [s + 1 for s, cards in enumerate(row) if not cards]
        if len(out) > 1:
            raise ScoreSheetError(f"hand {h}: seats {', '.join(map(str, out))} all have no cards "
                                  "left: only one player goes out in a hand")
        parsed.append(row)
    try:
        points = score_hands(parsed, ruleset, players=seats)
    except EngineError as exc:
        raise ScoreSheetError(str(exc)) from None
    totals = [sum(p[s] for p in points) for s in range(seats)]
    low = min(totals)
    return ContractSheetResult(hands=[[cards_text(c) for c in row] for row in parsed],
                               points=points, totals=totals, scores=[-t for t in totals],
                               winners=[s for s, t in enumerate(totals) if t == low])


# --- American and International Rummikub ------------------------------------------

@dataclass(frozen=True)
class AmericanSheetResult:
    """An American or International Rummikub game's score sheet, scored by
    the engine (:mod:`engine.american.scoring`). ``ending`` is ``"out"``,
    ``"pool-empty"`` (American: the lowest rack won) or ``"no-winner"``
    (International); ``how`` and ``closed_type`` say how an International
    game was won."""

    racks: list[str]
    scores: list[int]
    winners: list[int]
    ending: str
    how: str | None = None
    closed_type: int | None = None


HOWS = ("open", "foot", "closed")


def american_score_sheet(racks: Sequence[str], *, seats: int, variant: str, rules: dict | None = None,
                         first: int = 0, how: str | None = None, closed_type: int | None = None,
                         closed_jokers: int = 0, melded: Sequence[bool] | None = None,
                         joker_discard: bool = False, twin: bool = False) -> AmericanSheetResult:
    """Read and score one game: the tiles left on each rack (empty for the
    player who went out). International also gives how the game was won
    (``open``, ``foot`` or ``closed`` with the hand's type 1-40 and its
    jokers), which losers had melded, whether the winning discard was a
    joker, and (with the rule) whether the winner held the trump's twin.

    :raises ScoreSheetError: the wrong number of racks, an unknown tile,
        more than two of a tile or of jokers, two empty racks, or a missing
        or impossible way of winning, named.
    """
    from engine.american.closed import TYPES
    from engine.american.scoring import american_scores, international_scores, pool_empty_scores, win_points
    if len(racks) != seats:
        raise ScoreSheetError(f"expected {seats} racks (one per seat), got {len(racks)}")
    _, ruleset = _ruleset(variant, rules)
    parsed = []
    for i, text in enumerate(racks):
        try:
            parsed.append([int(t) for t in parse_tiles(text or "")])
        except EngineError as exc:
            raise ScoreSheetError(f"seat {i + 1}: {exc}") from None
    every = [t for tiles in parsed for t in tiles]
    for t in set(every):
        if every.count(t) > 2:
            raise ScoreSheetError(f"{format_tiles([t])} appears {every.count(t)} times over the racks "
                                  "(the set has two)")
    empty = [i for i, tiles in enumerate(parsed) if not tiles]
    if len(empty) > 1:
        raise ScoreSheetError(f"seats {', '.join(str(i + 1) for i in empty)} all have empty racks: "
                              "only one player can go out")
    winner = empty[0] if empty else None
    text = [format_tiles(t) for t in parsed]
    if not ruleset.international:
        if winner is None:
            scores, _, lowest = pool_empty_scores(parsed, ruleset.joker_penalty, tie_start=first)
            return AmericanSheetResult(text, scores, lowest, "pool-empty")
        scores, _ = american_scores(parsed, winner, ruleset.joker_penalty)
        return AmericanSheetResult(text, scores, [winner], "out")
    melded = list(melded) if melded is not None else [False] * seats
    if len(melded) != seats:
        raise ScoreSheetError(f"say for each of the {seats} seats whether it had melded")
    if winner is None:
        if how:
            raise ScoreSheetError(f"won {how}, but no rack is empty: leave the winner's rack empty")
        scores = international_scores(parsed, melded, None, "no winner", 0, ruleset.joker_penalty)
        return AmericanSheetResult(text, scores, [], "no-winner")
    if how not in HOWS:
        raise ScoreSheetError("say how the game was won: open, foot or closed")
    score = 0
    if how == "closed":
        if closed_type not in TYPES:
            raise ScoreSheetError("a closed win gives its hand's type, 1-40 (seed 001's table)")
        if closed_jokers not in (0, 1, 2):
            raise ScoreSheetError("a closed hand holds 0, 1 or 2 jokers")
        score = TYPES[closed_type][1][closed_jokers]
    elif closed_type:
        raise ScoreSheetError(f"a hand type goes with a closed win, not {how}")
    alone = not any(m for s, m in enumerate(melded) if s != winner)
    base = win_points(how, score, alone, twin=bool(twin and ruleset.trump_twin_bonus))
    melded[winner] = True
    scores = international_scores(parsed, melded, winner, how, base, ruleset.joker_penalty,
                                  doubled=bool(joker_discard))
    return AmericanSheetResult(text, scores, [winner], "out", how, closed_type if how == "closed" else None)
