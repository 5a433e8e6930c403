"""The linear relaxation's bound (``engine.solver.bound``) and its use in
``core.best_plan``: never below an optimum, tight on some positions, and
the answers the same with it, without it and without HiGHS."""

from __future__ import annotations

import random

import pytest

from engine.solver import bound, core, solve
from engine.solver.positions import random_position
from engine.tiles import JOKER, STANDARD, XP, counts_of



def test_the_bound_is_available_where_the_project_is_set_up():
    # bin/setup installs the fast extra (highspy): every test below needs it
    assert bound.available(), "HiGHS (highspy, the fast extra, or SciPy) does not import"


def _position(seed, ts, size, rack_size):
    table, rack = random_position(seed, ts, size, rack_size)
    tc, rc = counts_of(table), counts_of(rack)
    cand = core.useful_rack(tc[:52], rc[:52], tc[JOKER] + rc[JOKER])
    return tc[:52], tc[JOKER], cand, rc[JOKER]


def _optimum(tc, jt, cand, jr, weights, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(core, "BOUND", False)
        return core.best_plan(tc, cand, jt, jr, weights=weights)


@pytest.mark.parametrize("ts,size", [(STANDARD, 20), (STANDARD, 40), (STANDARD, 70),
                                     (XP, 40), (XP, 80)])
def test_the_bound_is_never_below_the_optimum_and_sometimes_equal(ts, size, monkeypatch):
    assert bound.available()
    tight = loose = 0
    for i in range(12):
        tc, jt, cand, jr = _position(f"bound-{ts.name}-{size}-{i}", ts, size, 14 + i)
        rng = random.Random(i)
        weights = None if i % 3 else [rng.randint(0, 999) for _ in range(53)]
        best = _optimum(tc, jt, cand, jr, weights, monkeypatch)
        ub = bound.score_bound(tc, cand, jt, jr, weights)
        assert ub is not None
        assert ub >= best.score - core.SLACK, i
        tight += core._proves(ub, best.score + 1)
        loose += not core._proves(ub, best.score + 1)
    # not vacuous: it proves some answers, and does not prove them all
    assert tight >= 1 and loose >= 1


def test_the_bound_counts_what_the_rack_can_add():
    # R1 R2 R3 on the table; R4 and R5 on the rack go on, K9 cannot
    table, rack = [0] * 52, [0] * 52
    table[0] = table[1] = table[2] = 1
    rack[3] = rack[4] = rack[13 + 8] = 1
    ub = bound.score_bound(table, rack, 0, 0)
    assert 2 * bound.BIG + 4 + 5 - core.SLACK <= ub < 3 * bound.BIG


def test_best_plan_same_with_the_bound_and_without(monkeypatch):
    """Positions whose exact pass runs past ``PROBE`` (XP tables of 40
    with jokers): the bound is asked, and proves some answers, and the
    answers are those of the programme alone."""
    asked = []
    real = core._relaxation

    def spy(*args):
        ub = real(*args)
        if core.BOUND:
            asked.append(ub)
        return ub

    monkeypatch.setattr(core, "_relaxation", spy)
    proved = 0
    for i in range(16):
        table, rack = random_position(f"bound-use-{i}", XP, 40, 20 + i % 10, joker_rate=0.3)
        asked.clear()
        with_bound = solve(table, rack, tileset="xp")
        score = with_bound.tiles_placed * bound.BIG + with_bound.value_placed
        proved += any(core._proves(ub, score + 1) for ub in asked)
        assert all(ub is not None and ub >= score - core.SLACK for ub in asked)
        with monkeypatch.context() as m:
            m.setattr(core, "BOUND", False)
            without = solve(table, rack, tileset="xp")
        assert (with_bound.tiles_placed, with_bound.value_placed) == (
            without.tiles_placed, without.value_placed), i
    assert proved >= 1


def test_without_highs_no_bound_and_the_same_answers(monkeypatch):
    table, rack = random_position("bound-none", XP, 40, 24, joker_rate=0.3)
    want = solve(table, rack, tileset="xp")
    monkeypatch.setattr(bound, "_LOADED", True)  # as when HiGHS failed to import
    monkeypatch.setattr(bound, "_hc", None)
    assert not bound.available()
    tc, rc = counts_of(table), counts_of(rack)
    assert bound.score_bound(tc[:52], rc[:52], tc[JOKER], rc[JOKER]) is None
    got = solve(table, rack, tileset="xp")
    assert (got.tiles_placed, got.value_placed) == (want.tiles_placed, want.value_placed)
