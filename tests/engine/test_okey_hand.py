"""The Okey hand checker (seed 003) and ``python -m engine okey-hand``:
hand-built cases for the okey from its indicator (13 to 1), false jokers,
1 as 14, seven pairs, discards from 15 tiles, and malformed lines answered
with error lines."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine.errors import NotationError, RuleOptionError
from engine.okey import check, okey_of, parse_okey_tile
from engine.okey.cli import answer, main

T = str.split

CASES = [
    # (tiles, kwargs, winning, kind)
    # plain sets and runs, no joker
    ("R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5 K9", {"okey": "B2"}, True, "melds"),  # 15: K9 goes
    ("R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 K12 K13", {"okey": "B2"}, False, None),
    ("R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"okey": "B2"}, True, "melds"),
    # 1 as 14: 12-13-1 is a run, 13-1-2 is not
    ("K12 K13 K1 R4 R5 R6 B7 B8 B9 O10 O11 O12 O13 R7", {"okey": "B2"}, True, "melds"),
    ("K13 K1 K2 R4 R5 R6 B7 B8 B9 O10 O11 O12 O13 R7", {"okey": "B2"}, False, None),
    # a set may not hold one colour twice
    ("K7 R7 R7 B1 B2 B3 O4 O5 O6 K9 K10 K11 R12 R13", {"okey": "B6"}, False, None),
    ("K7 R7 O7 B1 B2 B3 O4 O5 O6 K9 K10 K11 K12 K13", {"okey": "B6"}, True, "melds"),
    # the okey wild: R6 here, standing for a missing tile of a run or set
    ("R6 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"okey": "R6"}, True, "melds"),
    ("R6 R6 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"okey": "R6"}, True, "melds"),  # both okeys wild
    # from the indicator: R5 shows, R6 is the okey
    ("R6 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"indicator": "R5"}, True, "melds"),
    # 13 wraps to 1: indicator O13, the okey is O1
    ("O1 K2 K3 R5 B5 K5 B7 B8 B9 R10 R11 R12 R13 O5", {"indicator": "O13"}, True, "melds"),
    # a false joker is only the okey's face: with okey R6, F is a natural R6
    ("F R7 R8 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"okey": "R6"}, True, "melds"),
    ("F K7 K8 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"okey": "R6"}, False, None),  # F is no wild
    # a false joker in a set of sixes
    ("F K6 B6 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5", {"okey": "R6"}, True, "melds"),
    # seven pairs: a room option, off by default
    ("K1 K1 R3 R3 B5 B5 O7 O7 K9 K9 R11 R11 B13 B13", {"okey": "O2"}, False, None),
    ("K1 K1 R3 R3 B5 B5 O7 O7 K9 K9 R11 R11 B13 B13", {"okey": "O2", "rules": {"seven_pairs": True}}, True, "pairs"),
    ("K1 O2 R3 R3 B5 B5 O7 O7 K9 K9 R11 R11 B13 B13", {"okey": "O2", "rules": {"seven_pairs": True}}, True, "pairs"),
    ("K1 K2 R3 R3 B5 B5 O7 O7 K9 K9 R11 R11 B13 B13", {"okey": "O2", "rules": {"seven_pairs": True}}, False, None),
    # runs longer than three, sets of four
    ("K1 K2 K3 K4 K5 K6 K7 R9 B9 O9 K9 R11 R12 R13", {"okey": "O2"}, True, "melds"),
    ("K1 K2 K3 K4 K5 K6 K7 R9 B9 O9 K9 R11 R12 O13", {"okey": "O2"}, False, None),
    # a wild at the end of a run, and a run 11-12-13-1
    ("R6 K12 K13 R1 R2 R3 B7 B8 B9 O11 O12 O13 O1 B10", {"okey": "R6"}, True, "melds"),
    ("R6 K12 K13 R1 R2 R3 B7 B8 B9 O11 O12 O13 O1 B4", {"okey": "R6"}, False, None),
]


@pytest.mark.parametrize("tiles, kw, winning, kind", CASES)
def test_hand_built_cases(tiles, kw, winning, kind):
    out = check(T(tiles), **kw)
    assert (out.winning, out.kind) == (winning, kind), out
    if out.winning:
        used = [t for m in out.melds for t in m]
        want = T(tiles)
        if out.discard:
            want.remove(out.discard)
        assert sorted(used) == sorted(want)  # every tile in exactly one meld
        if out.kind == "melds":
            assert all(len(m) >= 3 for m in out.melds)
        else:
            assert len(out.melds) == 7 and all(len(m) == 2 for m in out.melds)


def test_the_okey_from_the_indicator_wraps_13_to_1():
    assert [okey_of(parse_okey_tile(t)) for t in ("B3", "R13", "K1", "O12")] == \
        [parse_okey_tile(t) for t in ("B4", "R1", "K2", "O13")]
    assert check(T("O1 K2 K3 R5 B5 K5 B7 B8 B9 R10 R11 R12 R13 O5"), indicator="O13").okey == "O1"


def test_fifteen_tiles_name_the_discard_and_prefer_the_okey():
    # with 15 tiles, the one that fits nowhere is the discard
    out = check(T("R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5 K9"), okey="B2")
    assert out.winning and out.discard == "K9"
    # 15 tiles all in melds: no single discard leaves a winning 14
    assert not check(T("R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 K12 K13 K11"), okey="B2").winning
    # an okey in hand that is not needed: discarding it wins and is worth more
    out = check(T("R6 R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5"), okey="R6")
    assert out.winning and out.discard == "R6"
    out = check(T("K1 R2 R3 R4 K5 R5 B5 O7 O8 O10 B10 B11 B12 B13 O5"), okey="R6")
    assert not out.winning and out.discard is None


@pytest.mark.parametrize("line, words", [
    ("not json", "not JSON"),
    ("[1, 2]", "a line is an object"),
    ('{"okey": "R6"}', "no tiles"),
    ('{"tiles": "R1 R2", "okey": "R6"}', "list of 14 or 15"),
    ('{"tiles": ["R1"], "okey": "R6"}', "not 1"),
    ('{"tiles": ["R1","R1","R1","R2","R3","R4","R5","R6","R7","R8","R9","R10","R11","R12"], "okey": "K6"}',
     "appears 3 times"),
    ('{"tiles": ["Q1","R1","R2","R3","R4","R5","R6","R7","R8","R9","R10","R11","R12","R13"], "okey": "K6"}', "Q1"),
    ('{"tiles": ["J","R1","R2","R3","R4","R5","R6","R7","R8","R9","R10","R11","R12","R13"], "okey": "K6"}',
     "no J tile"),
    ('{"tiles": [], "okey": "R6", "indicator": "R5"}', "exactly one of okey and indicator"),
    ('{"tiles": [], "okey": "F"}', "not F"),
    ('{"tiles": [], "okey": "R6", "rules": {"jokers": 3}}', "unknown rule option"),
    ('{"tiles": [], "okey": "R6", "rules": {"seven_pairs": "yes"}}', "true or false"),
    ('{"tiles": [], "okey": "R6", "colour": "red"}', "unknown key"),
    ('{"tiles": ["R5","R5","R1","R2","R3","R4","R6","R7","R8","R9","R10","R11","R12","R13"], "indicator": "R5"}',
     "face up"),
])
def test_malformed_lines_get_error_lines(line, words):
    out = answer(line)
    assert set(out) == {"error"} and words in out["error"], out


def test_the_command_answers_line_by_line_and_exits_2_on_a_bad_line():
    lines = [json.dumps({"tiles": T(CASES[2][0]), "okey": "B2"}), "", "garbage",
             json.dumps({"tiles": T(CASES[15][0]), "okey": "O2", "rules": {"seven_pairs": True}})]
    proc = subprocess.run([sys.executable, "-m", "engine", "okey-hand"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 2 and len(out) == 3
    assert out[0]["winning"] and out[0]["kind"] == "melds" and "error" in out[1]
    assert out[2] == {"okey": "O2", "winning": True, "kind": "pairs", "melds": out[2]["melds"], "discard": None}
    good = io.StringIO()
    assert main([], io.StringIO(lines[0] + "\n"), good) == 0 and json.loads(good.getvalue())["winning"]


def test_errors_are_typed():
    with pytest.raises(NotationError):
        check(["R1"] * 14, okey="K6")
    with pytest.raises(RuleOptionError):
        check(T(CASES[2][0]), okey="B2", rules={"nope": True})
