"""International Rummikub's closed hands (seed 001's table of 40 types) and
``python -m engine closed-hand``: a hand built for every type, played with
0, 1 and 2 jokers; hands of several types scoring the most valuable; the
arrangement search checked against a brute-force enumeration; malformed
lines answered with error lines."""

from __future__ import annotations

import io
import json
import random
from itertools import combinations

import pytest

from engine.american import TYPES, classify
from engine.american.cli import answer, main
from engine.errors import NotationError
from engine.tiles import JOKER, parse_tile

T = str.split

# a hand of each type, no joker; the index of tiles a joker may replace
HANDS = {
    1: "K1 K2 K3 R5 B5 O5 B9 B10 B11 B12 O13 R13 K13 B13",
    2: "K1 K2 K3 R5 B5 O5 K5 B6 B7 B8 B9 O7 R7 K7",
    3: "K1 K2 K3 K4 R1 R2 R3 R4 B4 B5 B6 O5 R5 K5",
    4: "K1 R1 B1 O1 K2 R2 B2 O2 K3 R3 B3 K9 R9 B9",
    5: "K1 K2 K3 K4 R1 R2 R3 B1 B2 B3 B4 O1 O2 O3",
    6: "K1 K1 R1 R1 B1 B1 O1 O1 K2 K2 R2 R2 B3 O13",
    7: "K1 K2 K3 R1 R2 R3 B1 B2 B3 O1 O2 O3 K4 R4",
    8: "K1 K2 K3 R1 R2 R3 B1 B2 B3 O1 O2 O3 O4 K4",
    9: "K1 R1 B1 O1 K2 R2 B2 O2 K3 R3 B3 K4 R4 B4",
    10: "K10 K11 K12 R13 R1 B10 B10 O11 K13 R12 B12 O12 O1 K1",
    11: "K10 K11 K12 R10 B10 O10 R11 R12 R13 B13 O13 K13 O11 O12",
    12: "K7 K7 R7 R7 B7 B7 O7 O7 K1 R3 B12 O9 K4 R10",
    13: "K1 K2 K3 R4 R5 R6 B7 B8 B9 O10 O11 O12 O13 B10",
    14: "K1 K2 K3 R4 R5 R6 B7 B8 B9 O2 O3 O4 O5 O6",
    15: "K10 K11 K12 R10 R11 R12 B11 B12 B13 O10 O11 O12 O13 O1",
    16: "K1 K2 K3 K4 K5 R4 R5 R6 R7 R8 B9 B10 B11 B12",
    17: "K1 K2 K3 K4 K5 R4 R5 R6 R7 R8 B2 B3 B4 B5",
    18: "K10 K11 K12 K13 K1 R10 R11 R12 R13 B10 B11 B12 B13 B1",
    19: "K1 K2 K3 K4 K5 K6 K7 R7 R8 R9 R10 R11 R12 R13",
    20: "K1 K2 K3 K4 K5 K6 K7 R3 R4 R5 R6 R7 R8 R9",
    21: "K10 K11 K12 K13 K1 R10 R11 R12 R13 R1 K10 K11 K12 K13",
    22: "K1 K1 K3 K5 K5 K7 K8 K9 K9 K11 K12 K12 K13 K4",
    23: "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1",
    24: "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B1",
    25: "K5 R5 B5 O5 K8 R8 B8 O8 K11 R11 B11 K2 R2 B2",
    26: "K5 R5 B5 O5 K8 R8 B8 O8 K9 R9 B9 K2 R2 B2",
    27: "K10 R10 B10 O10 K11 R11 B11 O11 K12 R12 B12 K1 R1 B1",
    28: "K1 R2 B3 O4 K5 R6 B7 O8 K9 R10 B11 O12 K13 R1",
    29: "K1 R2 K3 R4 K5 R6 K7 B1 O2 B3 O4 B5 O6 B7",
    30: "K8 R9 K10 R11 K12 R13 K1 B8 O9 B10 O11 B12 O13 B1",
    31: "O1 O2 O3 O4 O5 O6 O7 O1 O2 O3 O4 O5 O6 O7",
    32: "O8 O9 O10 O11 O12 O13 O1 O8 O9 O10 O11 O12 O13 O1",
    33: "O1 O2 O3 O4 O5 O6 O7 B1 B2 B3 B4 B5 B6 B7",
    34: "O8 O9 O10 O11 O12 O13 O1 B8 B9 B10 B11 B12 B13 B1",
    35: "K1 K1 R4 R4 B7 B7 O9 O9 K11 K11 R13 R13 B2 B2",
    36: "K1 K1 R4 R4 B7 B7 O9 O9 K8 K8 R3 R3 B2 B2",
    37: "K1 K1 R10 R10 B11 B11 O12 O12 K13 K13 R13 R13 B10 B10",
    38: "K1 K1 K4 K4 K7 K7 K9 K9 K11 K11 K13 K13 K2 K2",
}
FLAG_TYPES = {39: {"first_turn": True}, 40: {"original_hand": True}}


def codes(text):
    return T(text)


def with_jokers(tiles: list[str], k: int, t: int, flags) -> list[str] | None:
    """``tiles`` with ``k`` tiles replaced by jokers so that the hand is
    still of type ``t`` (the first such choice, in order)."""
    if k == 0:
        return tiles
    for idx in combinations(range(len(tiles)), k):
        hand = [("J" if i in idx else x) for i, x in enumerate(tiles)]
        if t in classify(hand, **flags).types:
            return hand
    return None


@pytest.mark.parametrize("jokers", [0, 1, 2])
@pytest.mark.parametrize("t", sorted(TYPES))
def test_every_type_with_0_1_and_2_jokers(t, jokers):
    flags = FLAG_TYPES.get(t, {})
    base = codes(HANDS.get(t, HANDS[1]))
    hand = with_jokers(base, jokers, t, flags)
    assert hand is not None, f"no {jokers}-joker hand of type {t} from {base}"
    got = classify(hand, **flags)
    assert t in got.types
    assert got.score == TYPES[got.best][1][jokers] >= TYPES[t][1][jokers]
    # the arrangement shown holds exactly the hand's tiles
    assert sorted(sum(got.melds, [])) == sorted(hand)


def test_types_that_do_not_apply_are_not_claimed():
    assert 2 not in classify(codes(HANDS[1])).types            # 11s, 12s and 13s: not minor
    assert 36 not in classify(codes(HANDS[35])).types
    assert classify(codes(HANDS[1])).types == [1]
    nothing = classify(codes("K1 R3 B5 O7 K9 R11 B13 O2 K4 R6 B8 O10 K12 R12"))
    assert (nothing.types, nothing.best, nothing.score) == ([], None, 0)
    assert "melds" not in nothing.to_dict()
    # 13-1-2 is no run; 12-13-1 is
    assert 1 not in classify(codes("K13 K1 K2 R5 B5 O5 B9 B10 B11 B12 O13 R13 K12 O4")).types


def test_a_hand_of_several_types_counts_the_most_valuable():
    royal = classify(codes(HANDS[24]))
    assert {1, 22, 23, 24} <= set(royal.types) and royal.best == 24 and royal.score == 2400
    waves = classify(codes(HANDS[31]))
    assert {1, 2, 22, 23, 31, 35, 36, 38} <= set(waves.types)
    assert waves.best == 31 and waves.score == 2600
    blitz = classify(codes(HANDS[1]), first_turn=True, original_hand=True)
    assert blitz.types == [1, 39, 40] and blitz.best == 40 and blitz.score == 2000


def test_a_joker_as_a_high_1_and_grand_squares_free_six():
    # J stands for K1 high in K12 K13 J: major
    hand = codes("K10 K11 K12 K13 J R10 R11 R12 R13 B10 B11 B12 B13 B1")
    got = classify(hand)
    assert 18 in got.types and 11 in got.types
    # eight 7s and six tiles that form nothing
    square = classify(codes(HANDS[12]))
    assert 12 in square.types and 1 not in square.types
    assert square.melds[0] == ["K7", "K7", "R7", "R7", "B7", "B7", "O7", "O7"]


# --- the brute force ----------------------------------------------------------------------
def _valid(block: list[tuple[int, int]]) -> bool:
    """A block of (code, stands-for code) tiles is a group or a run (1 low
    or high, not both)."""
    faces = [s for _, s in block]
    nums = [f % 13 + 1 for f in faces]
    cols = [f // 13 for f in faces]
    if len(set(nums)) == 1 and len(block) <= 4 and len(set(cols)) == len(cols):
        return True
    if len(set(cols)) != 1:
        return False
    for ones_high in (False, True):
        pos = sorted(14 if (n == 1 and ones_high) else n for n in nums)
        if pos == list(range(pos[0], pos[0] + len(pos))):
            return True
    return False


def _divisions(tiles):
    if not tiles:
        yield []
        return
    first, rest = tiles[0], tiles[1:]
    # a block with the first tile holds only tiles of its number or its colour
    fits = [i for i, (_, s) in enumerate(rest)
            if s % 13 == first[1] % 13 or s // 13 == first[1] // 13]
    for size in range(2, len(fits) + 1):
        for others in combinations(fits, size):
            block = [first] + [rest[i] for i in others]
            if _valid(block):
                left = [t for i, t in enumerate(rest) if i not in others]
                for tail in _divisions(left):
                    yield [block] + tail


def brute_basic(hand: list[str]) -> bool:
    """Whether the hand divides into groups and runs, jokers tried as every tile."""
    nat = [int(parse_tile(t)) for t in hand if t != "J"]
    k = hand.count("J")
    # a joker's block holds a natural of its number, or of its colour one
    # or two places away (13 and 1 neighbours): every other face is useless
    near = sorted({c * 13 + t % 13 for t in nat for c in range(4)} |
                  {t // 13 * 13 + (t % 13 + d) % 13 for t in nat for d in (-2, -1, 1, 2)})
    for subs in __import__("itertools").product(near, repeat=k):
        tiles = [(c, c) for c in nat] + [(JOKER, s) for s in subs]
        for _ in _divisions(tiles):
            return True
    return False


def random_hand(rng: random.Random, jokers: int) -> list[str]:
    """Mostly melds, some noise: hands near the edge of dividing."""
    tiles = []
    while len(tiles) < 14 - jokers:
        if rng.random() < 0.5:
            c, s = rng.randrange(4), rng.randint(1, 11)
            tiles += [f"{'KRBO'[c]}{(s + i - 1) % 13 + 1}" for i in range(rng.choice((3, 3, 4)))]
        else:
            n = rng.randint(1, 13)
            tiles += [f"{c}{n}" for c in rng.sample("KRBO", rng.choice((3, 4)))]
    tiles = tiles[:14 - jokers]
    for _ in range(rng.randrange(3)):
        tiles[rng.randrange(len(tiles))] = f"{rng.choice('KRBO')}{rng.randint(1, 13)}"
    hand = tiles + ["J"] * jokers
    if any(hand.count(t) > 2 for t in set(hand) if t != "J"):
        return random_hand(rng, jokers)
    return hand


def test_the_arrangement_search_agrees_with_a_brute_force():
    rng = random.Random(2026)
    checked = divisible = 0
    for i in range(80):
        hand = random_hand(rng, 0 if i < 60 else 1 if i < 76 else 2)
        got = 1 in classify(hand).types
        assert got == brute_basic(hand), hand
        checked += 1
        divisible += got
    assert checked == 80 and 5 < divisible < 80      # both answers were exercised


# --- the command ---------------------------------------------------------------------------
def test_closed_hand_answers_json_lines_and_errors():
    lines = [json.dumps({"tiles": codes(HANDS[24])}),
             json.dumps({"tiles": codes(HANDS[1]), "first_turn": True}),
             json.dumps({"tiles": codes("K1 R3 B5 O7 K9 R11 B13 O2 K4 R6 B8 O10 K12 R12")}),
             "not json", json.dumps({"tiles": ["K1"] * 14}), json.dumps({"tiles": codes(HANDS[1])[:13]}),
             json.dumps({"tiles": codes(HANDS[1]), "first_turn": "yes"}),
             json.dumps({"tiles": codes(HANDS[1])[:11] + ["J", "J", "J"]}),
             json.dumps({"hand": []}), json.dumps([1, 2])]
    out = io.StringIO()
    status = main([], stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 2 and len(answers) == len(lines)
    assert answers[0]["best"] == 24 and answers[0]["score"] == 2400
    assert answers[1]["types"] == [1, 39] and answers[1]["best"] == 39
    assert answers[2] == {"types": [], "best": None, "score": 0}
    errors = [a.get("error", "") for a in answers[3:]]
    assert all(errors), answers[3:]
    assert "not JSON" in errors[0] and "K1 appears 14 times" in errors[1]
    assert "14 tiles, not 13" in errors[2] and "first_turn is true or false" in errors[3]
    assert "3 jokers" in errors[4] and "unknown key(s): hand" in errors[5]
    with pytest.raises(NotationError):
        classify(["X9"] + codes(HANDS[1])[1:])
    assert answer(json.dumps({"tiles": codes(HANDS[13])}))["best"] == 13
