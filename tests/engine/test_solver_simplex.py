"""The bound's dual simplex in C (``engine/solver/_lp.c``): the same
programme as ``engine.solver.bound`` gives HiGHS (its shapes, in the same
order), the same optimum on every position tried, a point that is a
layout of the table and the play when it is integral, the same answers
from the solver with it and with HiGHS, and bad input refused."""

from __future__ import annotations

import random

import pytest

from engine.solver import bound, compiled, core, solve
from engine.solver.positions import random_position
from engine.tiles import JOKER, STANDARD, XP, counts_of

from .solver_builds import required


def _simplex():
    return required(compiled._simplex(), "the bound's simplex in C")


def _highs():
    if not bound._load():
        pytest.skip("HiGHS (highspy or SciPy) does not import: nothing to compare with")
    return bound._Model()


def _positions():
    """Positions of the solver's classes (tables of 0-80, racks of 3-30,
    jokers on both) and random counts that need not divide."""
    out = []
    for i in range(120):
        ts = XP if i % 3 == 0 else STANDARD
        size = (0, 20, 40, 60, 80)[i % 5] if ts is XP else (0, 20, 40, 60)[i % 4]
        table, rack = random_position(f"simplex-{i}", ts, size, 3 + i % 28,
                                      joker_rate=0.3 if i % 2 else 0.0)
        tc, rc = counts_of(table), counts_of(rack)
        out.append((tc[:52], rc[:52], tc[JOKER], rc[JOKER], None))
    rng = random.Random(7)
    for i in range(120):
        table = [0] * 52
        if i % 6:  # a table of random melds (at most two of a tile)
            for _ in range(rng.randint(1, 14)):
                shape = rng.choice(bound.SHAPES)
                if all(table[t] < 2 for t in shape):
                    for t in shape:
                        table[t] += 1
        else:  # random counts, most of which do not divide
            table = [min(2, rng.randint(0, 2)) if rng.random() < 0.5 else 0 for _ in range(52)]
        rack = [min(2 - t, rng.randint(0, 1)) if rng.random() < 0.3 else 0 for t in table]
        weights = None if i % 3 else [rng.randint(0, 999) for _ in range(53)]
        out.append((table, rack, rng.randint(0, 2), rng.randint(0, 2), weights))
    return out


def test_the_shapes_are_the_bounds():
    assert _simplex().shapes() == [tuple(s) for s in bound.SHAPES]


def test_the_optimum_is_highs_and_an_integral_point_is_a_layout():
    lp, highs = _simplex(), _highs()
    solved = infeasible = integral = absent = 0
    for table, rack, jt, jr, weights in _positions():
        want = highs.bound(table, rack, jt, jr, weights, True)
        got = lp.solve(table, rack, jt, jr, weights)
        if want is None:
            # HiGHS finds no point: nor does the simplex
            assert got is None
            infeasible += 1
            continue
        assert got is not None, (table, rack, jt, jr)
        ub, played, jokers, shapes, point, pivots, layout, _basis = got
        assert ub == pytest.approx(want, abs=1e-6, rel=1e-12)
        assert all(0 <= p <= r for p, r in zip(played, rack)) and 0 <= jokers <= jr
        assert len(shapes) == bound.NS and min(shapes) >= 0 and pivots >= 0
        solved += 1
        if point is None:
            assert layout is None
        else:
            integral += 1
            melds = bound.integral_layout(point, table, rack, jt, jr)
            assert melds is not None
            assert layout == melds  # (laid out in C, step for step)
            # (a tile with no copy there is substituted out of the programme:
            # the jokers standing in for it are read back from the shapes)
            stand = point[bound.NS + 52:bound.NS + 104]
            absent += any(stand[t] and not table[t] + rack[t] for t in range(52))
            laid = sorted(t for m in melds for t in m if t < 52)
            assert laid == sorted(t for t in range(52) for _ in range(table[t] + played[t]))
    assert solved >= 150 and infeasible >= 10 and integral >= 20 and absent >= 10


def _written_out(table, rack, jt, jr, weights):
    """The programme written out as matrices for SciPy: the rows (tiles,
    then jokers), their right-hand sides, the costs (maximised), the
    columns' upper bounds and the cap's row (the tiles played)."""
    import numpy as np

    ns = bound.NS
    nv = ns + 105
    a = np.zeros((53, nv))
    for m, shape in enumerate(bound.SHAPES):
        for t in shape:
            a[t, m] += 1
    for t in range(52):
        a[t, ns + t] = -1
        a[t, ns + 52 + t] = -1
        a[52, ns + 52 + t] = 1
    a[52, ns + 104] = -1
    value = [t % 13 + 1 for t in range(52)] + [30] if weights is None else weights
    cost = np.zeros(nv)
    cost[ns:ns + 52] = [bound.BIG + value[t] for t in range(52)]
    cost[ns + 104] = bound.BIG + value[52]
    jokers = jt + jr
    upper = [min(min(table[t] + rack[t] + jokers for t in shape), sum(table[t] + rack[t] for t in shape))
             for shape in bound.SHAPES]
    upper += list(rack) + [jokers] * 52 + [jr]
    cap_row = np.zeros((1, nv))
    cap_row[0, ns:ns + 52] = 1
    cap_row[0, ns + 104] = 1
    return a, list(table) + [jt], cost, upper, cap_row


def _linprog(table, rack, jt, jr, weights, cap):
    """The same programme written out for SciPy's linprog (HiGHS), with the
    cap on the tiles played as an inequality: its optimum."""
    from scipy.optimize import linprog

    a, rows, cost, upper, cap_row = _written_out(table, rack, jt, jr, weights)
    got = linprog(-cost, A_eq=a, b_eq=rows, A_ub=cap_row, b_ub=[cap],
                  bounds=list(zip([0] * len(upper), upper)), method="highs")
    return None if got.status != 0 else -got.fun


def test_the_cap_on_tiles_played_gives_linprogs_optimum():
    """With a cap on the tiles played (the solver asks it at the tiles a
    bound proved), the optimum is that of the programme with the cap as an
    inequality, written out for SciPy; a cap above what can be played
    changes nothing, and every cap's bound is at most the uncapped one."""
    pytest.importorskip("scipy")
    lp = _simplex()
    checked = 0
    for table, rack, jt, jr, weights in _positions()[::3]:
        free = lp.solve(table, rack, jt, jr, weights)
        if free is None:
            continue
        most = int(free[0] // bound.BIG)
        for cap in {0, most // 2, max(0, most - 1), most, most + 3}:
            got = lp.solve(table, rack, jt, jr, weights, cap)
            want = _linprog(table, rack, jt, jr, weights, cap)
            if want is None:
                assert got is None
                continue
            assert got is not None and got[0] == pytest.approx(want, abs=1e-6, rel=1e-12)
            assert got[0] <= free[0] + 1e-6
            assert sum(got[1]) + got[2] <= cap
            checked += 1
        assert lp.solve(table, rack, jt, jr, weights, most + 3)[0] == pytest.approx(free[0], abs=1e-6)
    assert checked >= 150


def test_a_capped_solve_from_the_uncapped_basis_gives_the_same_bound():
    """The uncapped optimum's basis, given as the capped solve's start (the
    cap's row added), gives the same bound as the capped solve from the
    logical basis, in a tenth of the pivots; a basis of another programme
    is not used (the same pivots as without one), and no basis is
    returned by a capped solve."""
    lp = _simplex()
    compared = cold_pivots = warm_pivots = 0
    other = None
    for table, rack, jt, jr, weights in _positions():
        free = lp.solve(table, rack, jt, jr, weights)
        if free is None:
            continue
        basis = free[7]
        assert isinstance(basis, bytes)
        most = int((free[0] + 1e-3) // bound.BIG)
        for cap in range(max(0, most - 3), most + 2):
            cold = lp.solve(table, rack, jt, jr, weights, cap)
            warm = lp.solve(table, rack, jt, jr, weights, cap, basis)
            assert (cold is None) == (warm is None)
            if cold is None:
                continue
            assert warm[0] == pytest.approx(cold[0], abs=1e-6, rel=1e-12)
            assert warm[7] is None and cold[7] is None
            compared += 1
            cold_pivots += cold[5]
            warm_pivots += warm[5]
            if other is not None:
                # another programme's basis: ignored
                assert lp.solve(table, rack, jt, jr, weights, cap, other)[5] == cold[5]
        other = basis
    assert compared >= 500 and warm_pivots * 5 < cold_pivots
    with pytest.raises(TypeError, match="start"):
        lp.solve([0] * 52, [0] * 52, 0, 0, None, 3, "a basis")


def test_the_optimum_kept_and_the_basis_installed_start_alike():
    """A capped solve or a branch and bound started from the uncapped
    solve's basis takes that solve's optimum over as it stands when it is
    the next such call on the same inputs, else installs the basis from
    the bytes: the same bound, point, pivots, nodes and plan either way."""
    lp = _simplex()
    compared = branched = 0
    for table, rack, jt, jr, weights in _positions():
        free = lp.solve(table, rack, jt, jr, weights)
        if free is None:
            continue
        basis = free[7]
        most = int((free[0] + 1e-3) // bound.BIG)
        for cap in (most, max(0, most - 1)):
            kept = lp.solve(table, rack, jt, jr, weights, cap, basis)
            installed = lp.solve(table, rack, jt, jr, weights, cap, basis)
            assert kept == installed, (table, rack, jt, jr, cap)
            lp.solve(table, rack, jt, jr, weights)  # (the optimum kept again)
        kept = lp.branch(table, rack, jt, jr, weights, 0.0, 64, basis, most)
        installed = lp.branch(table, rack, jt, jr, weights, 0.0, 64, basis, most)
        assert kept == installed, (table, rack, jt, jr)
        # (the inputs must be the optimum's own: a rack tile more is set up afresh)
        if jr == 0 and any(r < 2 for r in rack):
            lp.solve(table, rack, jt, jr, weights)
            more = list(rack)
            more[more.index(min(more))] += 1
            assert lp.solve(table, more, jt, jr, weights, most, basis) == \
                lp.solve(table, more, jt, jr, weights, most)
        compared += 1
        branched += kept[1] > 1
    assert compared >= 100 and branched >= 10


def _milp(table, rack, jt, jr, weights, cap=None):
    """The programme in integers (with ``cap``: at most that many tiles
    played), written out for SciPy's milp (HiGHS): its optimum, or None."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    a, rows, cost, upper, cap_row = _written_out(table, rack, jt, jr, weights)
    constraints = [LinearConstraint(a, rows, rows)]
    if cap is not None:
        constraints.append(LinearConstraint(cap_row, -np.inf, cap))
    got = milp(-cost, constraints=constraints, bounds=Bounds([0] * len(upper), upper),
               integrality=np.ones(len(upper)), options={"mip_rel_gap": 0})  # (exact: no gap)
    return None if got.status != 0 else round(-got.fun)


def test_branch_and_bound_finds_the_integer_programmes_optimum():
    """The branch and bound on the programme: searched through from no
    floor, its plan scores the integer programme's optimum (SciPy's milp on
    the same programme), and is a layout of the table and its play; from
    that optimum as the floor it finds it again, from one above it finds
    nothing, and with a cap on the tiles played it finds the capped
    programme's optimum; each child starts from its parent's basis, the
    root from solve()'s, and the nodes stay within the limit."""
    pytest.importorskip("scipy")
    lp = _simplex()
    searched = branched = capped_searched = 0
    for table, rack, jt, jr, weights in _positions()[::2]:
        free = lp.solve(table, rack, jt, jr, weights)
        want = _milp(table, rack, jt, jr, weights)
        got = lp.branch(table, rack, jt, jr, weights, 0.0, 100000, free[7] if free else None)
        if free is None:
            assert got is None and want is None
            continue
        status, nodes, layout, played, jokers, score = got
        assert status in (0, 2)
        if status == 2:
            continue  # (an integer point holding a meld of jokers only)
        searched += 1
        branched += nodes > 1
        assert score == want, (table, rack, jt, jr)
        value = [t % 13 + 1 for t in range(52)] + [30] if weights is None else weights
        assert score == sum(p * (bound.BIG + value[t]) for t, p in enumerate(played)) + \
            jokers * (bound.BIG + value[52])
        laid = sorted(t for m in layout for t in m if t < 52)
        assert laid == sorted(t for t in range(52) for _ in range(table[t] + played[t]))
        assert sum(1 for m in layout for t in m if t >= 52) == jt + jokers
        again = lp.branch(table, rack, jt, jr, weights, float(score), 100000)
        assert again[0] == 0 and again[5] == score
        above = lp.branch(table, rack, jt, jr, weights, float(score + 1), 100000)
        assert above[0] == 0 and above[2] is None
        limited = lp.branch(table, rack, jt, jr, weights, 0.0, 1)
        assert limited[1] <= 1 and (limited[0] != 0 or nodes == 1)
        # with a cap on the tiles played: at the optimum's tiles (a cut) the
        # same plan's score; a tile below, the capped programme's optimum
        tiles = int(score) // bound.BIG
        capped = lp.branch(table, rack, jt, jr, weights, 0.0, 100000, free[7], tiles)
        assert capped[0] == 2 or capped[5] == score
        if tiles:
            capped = lp.branch(table, rack, jt, jr, weights, 0.0, 100000, free[7], tiles - 1)
            assert capped[0] == 2 or capped[5] == _milp(table, rack, jt, jr, weights, tiles - 1)
            capped_searched += capped[0] == 0
    assert searched >= 80 and branched >= 20 and capped_searched >= 50
    with pytest.raises(ValueError, match="limit"):
        lp.branch([0] * 52, [0] * 52, 0, 0, None, 0.0, 0)
    with pytest.raises(TypeError, match="start"):
        lp.branch([0] * 52, [0] * 52, 0, 0, None, 0.0, 5, "a basis")


def test_the_answers_are_the_same_with_highs(monkeypatch):
    _simplex()
    _highs()
    for i in range(30):
        ts = XP if i % 2 else STANDARD
        table, rack = random_position(f"simplex-answers-{i}", ts, 40, 14 + i % 12, joker_rate=0.3)
        got = solve(table, rack, tileset=ts.name)
        with monkeypatch.context() as m:
            m.setattr(bound, "SIMPLEX", 0)
            want = solve(table, rack, tileset=ts.name)
        assert (got.tiles_placed, got.value_placed) == (want.tiles_placed, want.value_placed), i
    assert bound.backend().startswith("dual simplex in C")


def test_the_rounded_play_reads_the_simplexs_point():
    _simplex()
    table, rack = random_position("simplex-hint", XP, 40, 20, joker_rate=0.3)
    tc, rc = counts_of(table), counts_of(rack)
    cand = core.useful_rack(tc[:52], rc[:52], tc[JOKER] + rc[JOKER])
    ub = bound.score_bound(tc[:52], cand, tc[JOKER], rc[JOKER])
    assert ub is not None
    played, jokers = bound.last_played()
    assert sum(played) + jokers <= ub // bound.BIG
    assert bound.last_shapes() is not None


@pytest.mark.parametrize("args,message", [
    (([0] * 51, [0] * 52, 0, 0), "table"),
    (([0] * 52, [-1] + [0] * 51, 0, 0), "counts of 0 or more"),
    (([0] * 52, [0] * 52, -1, 0), "jokers"),
    (([0] * 52, [0] * 52, 0, 0, [1] * 10), "weights"),
    (([0] * 52, [0] * 52, 0, 0, None, -2), "cap"),
])
def test_bad_input_is_refused(args, message):
    with pytest.raises(ValueError, match=message):
        _simplex().solve(*args)


@pytest.mark.parametrize("args,message", [
    (([(0, 1, 2)], [0] * 52, [0, 1, 2, 2], False), "order"),
    (([(0, 1, 2)], [0] * 52, [0, 1, 2, 4], True), "order"),
    (([(0, 1, 2)], [-1] + [0] * 51, [0, 1, 2, 3], False), "played"),
    (([(0, 1, 200)], [0] * 52, [0, 1, 2, 3], False), "slot code"),
    (([(0,)], [0] * 52, [0, 1, 2, 3], False), "2 to 16 slots"),
    ((7, [0] * 52, [0, 1, 2, 3], False), "melds"),
])
def test_a_layout_laid_back_refuses_bad_input(args, message):
    with pytest.raises((ValueError, TypeError), match=message):
        _simplex().lay_back(*args)


def test_the_build_status_names_the_bound(capsys):
    """``python -m engine.solver.build status`` says which programme
    solve() runs and what its bound runs on."""
    _simplex()
    from engine.solver import build

    assert build.main(["status"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == compiled.load()[1]
    assert out[1] == f"bound: {bound.backend()}" and out[1].startswith("bound: dual simplex in C (sha256:")
