"""Rummikub score sheets: read, checked and scored by the family's
description (:meth:`engine.family.Family.read_sheet`), no database."""

from types import SimpleNamespace

import pytest

from engine.family import SheetError as ScoreSheetError
from engine.registry import family_for


def score_sheet(racks, *, seats, variant="sabra", rules=None, first=0):
    """The family's reading of a racks sheet, its payload's keys as attributes."""
    return SimpleNamespace(**family_for("rummikub").read_sheet(
        {"racks": racks}, seats=seats, variant=variant, rules=rules, first=first))


def test_one_player_out():
    sheet = score_sheet(["", "R5 J", "K13", "B1"], seats=4)
    assert sheet.scores == [35 + 13 + 1, -35, -13, -1]
    assert sheet.winners == [0] and sheet.ending == "out"
    assert sheet.racks == ["", "R5 J", "K13", "B1"]


def test_joker_value_option():
    assert score_sheet(["", "J"], seats=2).scores == [30, -30]
    assert score_sheet(["", "J"], seats=2, rules={"joker_penalty": 25}).scores == [25, -25]


def test_pool_empty_tie_shares_the_win():
    sheet = score_sheet(["R2", "K2", "O7"], seats=3)
    assert sheet.winners == [0, 1] and sheet.ending == "pool-empty"
    assert sum(sheet.scores) == 0 and sheet.scores[2] == -5
    assert sorted(sheet.scores[:2]) == [2, 3]


def test_case_and_commas_are_read_canonically():
    assert score_sheet(["", "r5, k13"], seats=2).racks == ["", "K13 R5"]


@pytest.mark.parametrize("racks,seats,message", [
    (["", "R14"], 2, "seat 2: unknown tile 'R14'"),
    (["", ""], 2, "seats 1, 2 all have empty racks"),
    (["", "R1"], 3, "expected 3 racks"),
    (["", "R1 R1 R1"], 2, "3 copies of R1"),
])
def test_refused(racks, seats, message):
    with pytest.raises(ScoreSheetError, match=message):
        score_sheet(racks, seats=seats)


def test_unknown_rule_option_refused():
    with pytest.raises(ScoreSheetError, match="unknown rule option 'joker_value'"):
        score_sheet(["", "J"], seats=2, rules={"joker_value": 25})


def test_xp_set_allows_three_copies():
    sheet = score_sheet(["", "R1 R1 R1", "J J J J", "K1", "K2"], seats=5,
                        variant="xp")
    assert sheet.scores[0] == 3 + 120 + 1 + 2
