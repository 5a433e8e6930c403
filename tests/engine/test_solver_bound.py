"""The linear relaxation's bound (``engine.solver.bound``) and its use in
``core.best_plan``: never below an optimum, tight on some positions, and
the answers the same with it, without it and without HiGHS."""

from __future__ import annotations

import random

import pytest

from engine.solver import bound, core, solve
from engine.solver.positions import random_position
from engine.melds import meld_kind
from engine.tiles import JOKER, STANDARD, XP, counts_of



def test_the_bound_is_available_where_the_project_is_set_up():
    # bin/setup builds the simplex in C and installs the fast extra
    # (highspy): every test below needs one of them
    assert bound.available(), "neither the simplex in C nor HiGHS (highspy or SciPy)"


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


def test_without_highs_or_the_simplex_no_bound_and_the_same_answers(monkeypatch):
    table, rack = random_position("bound-none", XP, 40, 24, joker_rate=0.3)
    want = solve(table, rack, tileset="xp")
    monkeypatch.setattr(bound, "SIMPLEX", 0)  # as when _lp.c is not built
    monkeypatch.setattr(bound, "_LOADED", True)  # as when HiGHS failed to import
    monkeypatch.setattr(bound, "_hc", None)
    assert not bound.available()
    tc, rc = counts_of(table), counts_of(rack)
    assert bound.score_bound(tc[:52], rc[:52], tc[JOKER], rc[JOKER]) is None
    got = solve(table, rack, tileset="xp")
    assert (got.tiles_placed, got.value_placed) == (want.tiles_placed, want.value_placed)


def test_the_rounded_play_is_a_valid_plan_of_its_score():
    """``bound.last_played`` after a bound: the relaxation's play rounded
    down, within the rack; when it divides with the table, ``_rounded_plan``
    returns a plan placing exactly those tiles, laid out validly, scoring
    what it says (weights too), and never above the bound."""
    found = 0
    for i in range(16):
        ts = XP if i % 2 else STANDARD
        tc, jt, cand, jr = _position(f"bound-round-{i}", ts, 40, 14 + i)
        rng = random.Random(i)
        weights = None if i % 4 else [rng.randint(0, 999) for _ in range(53)]
        ub = bound.score_bound(tc, cand, jt, jr, weights)
        played, jokers = bound.last_played()
        assert all(0 <= p <= c for p, c in zip(played, cand)) and 0 <= jokers <= jr
        plan = core._rounded_plan(tc, jt, None, weights)
        if plan is None:
            continue
        found += 1
        assert plan.score <= ub + core.SLACK
        melds, used = core.build_melds(plan)
        assert used == played and plan.jokers_used - jt == jokers
        assert all(meld_kind(m) in ("group", "run") for m in melds)
        value = sum(u * (n % 13 + 1 if weights is None else weights[n])
                    for n, u in enumerate(used))
        value += jokers * (30 if weights is None else weights[52])
        assert plan.score == (sum(used) + jokers) * bound.BIG + value
        laid = sorted(s if s < 52 else JOKER for m in melds for s in m)
        assert laid == sorted([c for c in range(52) for _ in range(tc[c] + used[c])]
                              + [JOKER] * plan.jokers_used)
    assert found >= 8


@pytest.mark.parametrize("ts,size", [(STANDARD, 20), (STANDARD, 40), (XP, 40), (XP, 80)])
def test_the_relaxation_first_gives_the_answers_of_the_programme_alone(ts, size, monkeypatch):
    """The rounded play, the bound asked first (before the depth-first check
    too; with no joker to place too), the branch and bound on its
    programme, the bound capped to the incumbent's
    tiles (from the uncapped bound's basis), the budgeted narrow and
    wider passes, the tile cap (also above the incumbent's count), the
    wider pass that raises the exact pass's floor and the probe's pass
    going on: the same answers (tiles and value) as every one of them
    off, on positions with jokers to place, face values and weights."""
    off = dict(TILE_CAP=False, VALUE_WIDEN=False, ROUNDING=False, LP_FIRST=0,
               FOCUS=False, FOCUS_WIDE=False, CAP_ALWAYS=False, EXACT_RETRY=0,
               CAP_BOUND=0, DFS_AFTER_BOUND=0, LP_ALL=0, BRANCH=0, BRANCH_ROUNDING=0)
    early = 0
    real = core._rounded_plan

    def spy(*args, **kwargs):
        nonlocal early
        plan = real(*args, **kwargs)
        early += plan is not None
        return plan

    monkeypatch.setattr(core, "_rounded_plan", spy)
    real_branch = bound.branch

    def branch_spy(*args, **kwargs):
        nonlocal early
        got = real_branch(*args, **kwargs)
        early += got is not None and got[2] is not None  # (a plan found by branching)
        return got

    monkeypatch.setattr(bound, "branch", branch_spy)
    # the bound first from one joker to place (the default): the path is
    # exercised on both sets
    monkeypatch.setattr(core, "LP_FIRST", 1)
    for i in range(10):
        table, rack = random_position(f"bound-first-{ts.name}-{size}-{i}", ts, size,
                                      14 + 2 * i, joker_rate=0.3)
        rng = random.Random(i)
        weights = None if i % 3 else [rng.randint(0, 999) for _ in range(53)]
        got = solve(table, rack, tileset=ts, weights=weights)
        with monkeypatch.context() as m:
            for name, value in off.items():
                m.setattr(core, name, value)
            m.setattr(bound, "WARM_CAP", 0)
            want = solve(table, rack, tileset=ts, weights=weights)
        # (the play may differ where plays tie in tiles and value)
        assert (got.tiles_placed, got.value_placed) == (want.tiles_placed, want.value_placed), i
    assert early >= 1


def test_an_integral_relaxation_is_laid_out_as_it_stands(monkeypatch):
    """When the relaxation's optimum is integral its shapes are melds
    (``bound.last_layout``): the solver lays the play out from them (colours
    renamed and numbers reversed back), with the answers of the programme
    alone, every meld valid and the melds holding exactly table + play."""
    laid = []
    real = core._rounded_plan

    def spy(*args, **kwargs):
        plan = real(*args, **kwargs)
        laid.append(isinstance(plan, core.LaidPlan))
        return plan

    monkeypatch.setattr(core, "_rounded_plan", spy)
    for i in range(24):
        ts = XP if i % 2 else STANDARD
        table, rack = random_position(f"bound-laid-{i}", ts, 40, 14 + i % 12, joker_rate=0.3)
        got = solve(table, rack, tileset=ts.name)
        assert all(meld_kind(m) in ("group", "run") for m in got.melds)
        on_table = sorted(s if s < 52 else JOKER for m in got.melds for s in m)
        assert on_table == sorted(counts_to_list(counts_of(table)) + list(got.play)), i
        with monkeypatch.context() as m:
            m.setattr(core, "LAYOUT", False)
            want = solve(table, rack, tileset=ts.name)
        assert (got.tiles_placed, got.value_placed) == (want.tiles_placed, want.value_placed), i
    assert any(laid)


def counts_to_list(counts):
    return [code for code, k in enumerate(counts) for _ in range(k)]


@pytest.mark.parametrize("widen_first", [0, 1])
def test_the_exact_pass_keeps_the_plan_its_wider_pass_found(widen_first, monkeypatch):
    """``exact_pass`` with a ``widen`` that finds the optimum: the floor is
    raised past it, so no pass finds a plan, and the optimum comes back as
    the plan the wider pass found, whichever comes first."""
    monkeypatch.setattr(core, "WIDEN_FIRST", widen_first)
    checked = 0
    for i in range(8):
        tc, jt, cand, jr = _position(f"bound-widen-{i}", XP, 40, 16 + i)
        best = core.best_plan(tc, cand, jt, jr)
        if best is None or best.score == 0:
            continue
        loss = sum(cand) + jr - (best.score >> 16)
        plan, found = core.exact_pass(tc, cand, jt, jr, loss, None, 1, False,
                                      widen=lambda best=best: best)
        got = plan if plan is not None else found
        assert got is not None and got.score == best.score, i
        checked += 1
    assert checked >= 6
