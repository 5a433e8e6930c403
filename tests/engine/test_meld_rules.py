"""The meld options tile games share (engine.melds.MeldRules): 1 low only
(Sabra) or low-or-high (American Rummikub, Okey), what a high 1 counts, and
the value the Rummikub rule set hands to the solver."""

from __future__ import annotations

import pytest

from engine.errors import RuleOptionError
from engine.melds import MeldRules, meld_kind, meld_value, parse_meld, why_invalid
from engine.rummikub import PRESETS, RuleSet
from engine.solver import SolverError, solve

LOW = MeldRules()
HIGH_1 = MeldRules(one_in_runs="low-or-high", high_one_value=1)
HIGH_14 = MeldRules(one_in_runs="low-or-high", high_one_value=14)


@pytest.mark.parametrize("text, low, high", [
    ("[R12 R13 R1]", None, "run"),
    ("[R1 R2 R3]", "run", "run"),
    ("[R13 R1 R2]", None, None),
    ("[R12 R13 R1 R2]", None, None),
    ("[R11 R12 R13 J(R1)]", None, "run"),
    ("[J(R12) R13 R1]", None, "run"),
    ("[R12 R13 B1]", None, None),
    ("[R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13]", "run", "run"),
    ("[K1 R1 B1]", "group", "group"),
])
def test_ones_low_or_high(text, low, high):
    m = parse_meld(text)
    assert meld_kind(m) == low
    assert meld_kind(m, LOW) == low
    assert meld_kind(m, HIGH_1) == high
    assert meld_kind(m, HIGH_14) == high


def test_a_one_is_never_low_and_high_at_once():
    # 1-2-...-13 and then the other 1: the 1 would be both ends
    m = parse_meld("[R1 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13]")
    assert meld_kind(m, HIGH_14) is None


def test_reasons_name_the_reading():
    wrap = parse_meld("[R13 R1 R2]")
    assert "1 low" in why_invalid(wrap)
    assert "no wrap" in why_invalid(wrap, HIGH_14)
    assert why_invalid(parse_meld("[R12 R13 R1]"), HIGH_14) is None


@pytest.mark.parametrize("text, face, fourteen", [
    ("[R12 R13 R1]", 26, 39),
    ("[R12 R13 J(R1)]", 26, 39),     # a joker standing for the high 1
    ("[J(R12) R13 R1]", 26, 39),
    ("[R1 R2 R3]", 6, 6),            # a low 1 counts 1 whatever the option
    ("[R1 R2 J(R3)]", 6, 6),
    ("[K1 R1 J(1)]", 3, 3),          # a group of 1s
])
def test_what_a_high_one_counts(text, face, fourteen):
    m = parse_meld(text)
    assert meld_value(m, HIGH_1) == face
    assert meld_value(m, HIGH_14) == fourteen


def test_without_the_option_a_high_one_counts_its_face():
    assert meld_value(parse_meld("[R12 R13 R1]")) == 26
    assert meld_value(parse_meld("[R12 R13 R1]"), LOW) == 26


def test_options_by_name():
    assert MeldRules.from_dict({"initial_meld": "50", "one_in_runs": "low-or-high"}) == \
        MeldRules(initial_meld=50, one_in_runs="low-or-high")
    assert MeldRules.from_dict(None) == MeldRules()
    with pytest.raises(RuleOptionError, match="no_such_rule"):
        MeldRules.from_dict({"no_such_rule": 1})
    with pytest.raises(RuleOptionError, match="one_in_runs"):
        MeldRules(one_in_runs="high")
    with pytest.raises(RuleOptionError, match="high_one_value"):
        MeldRules(high_one_value=13)
    with pytest.raises(RuleOptionError, match="initial_meld"):
        MeldRules.from_dict({"initial_meld": "thirty"})
    assert MeldRules(joker_sets="frozen").to_dict()["joker_sets"] == "frozen"


def test_the_rummikub_rule_set_provides_its_meld_rules():
    assert RuleSet().meld_rules == MeldRules()
    book = PRESETS["official-book"].meld_rules
    assert (book.joker_sets, book.joker_reuse, book.one_in_runs) == ("frozen", "new-meld", "low")
    assert PRESETS["pressman-1987"].meld_rules.initial_meld == 50


def test_the_solver_takes_meld_rules_and_refuses_what_it_cannot_read():
    rack = "R10 R11 J"
    # R10 R11 J(R12) is worth 33: enough for 30, not for 50
    assert solve([], rack, initial_meld_done=False, rules=MeldRules()).tiles_placed == 3
    assert solve([], rack, initial_meld_done=False,
                 rules=MeldRules(initial_meld=50)).tiles_placed == 0
    assert solve([], rack, initial_meld_done=False,
                 rules=PRESETS["pressman-1987"]).tiles_placed == 0
    with pytest.raises(SolverError, match="1 low"):
        solve("R1 R2 R3", "R4", rules=HIGH_14)
    with pytest.raises(RuleOptionError, match="rules must be"):
        solve("R1 R2 R3", "R4", rules=42)
