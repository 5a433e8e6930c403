"""The solver's passes (``engine.solver.dp``): the heuristic ``beam`` pass
gives valid plans no better than the optimum; the exact pass with a floor
or a budget taken from it finds the optimum; the look-ahead bound on the
jokers open runs need."""

from __future__ import annotations

import pytest

from engine.melds import meld_kind
from engine.solver import core, dp
from engine.solver.positions import random_position
from engine.tiles import JOKER, STANDARD, XP, counts_of


@pytest.fixture(autouse=True)
def interpreted(monkeypatch):
    """These tests read and patch the programme's module (``dp``) itself:
    the solver runs it, not its compiled build (``test_solver_compiled``
    shows the two agree)."""
    monkeypatch.setattr(core, "dp", dp)


def _counts(tiles):
    c = counts_of(tiles)
    return c[:52], c[JOKER]


def _position(seed, ts, size, rack_size):
    """A seeded position as the programme takes it: table counts, table
    jokers, candidate counts, rack jokers; and its exact and narrow plans."""
    table, rack = random_position(seed, ts, size, rack_size)
    tc, jt = _counts(table)
    rc, jr = _counts(rack)
    cand = core.useful_rack(tc, rc, jt + jr)
    return tc, jt, cand, jr, dp.run_dp(tc, cand, jt, jr), dp.run_dp(tc, cand, jt, jr, beam=8)


def _laid_out_ok(plan, tc, jt):
    """The plan's melds are valid and hold the table and what it places."""
    melds, used = core.build_melds(plan)
    assert all(meld_kind(m) in ("group", "run") for m in melds)
    laid = sorted(s if s < 52 else JOKER for m in melds for s in m)
    placed = [code for code in range(52) for _ in range(used[code])]
    assert laid == sorted([c for c in range(52) for _ in range(tc[c])] + placed
                          + [JOKER] * plan.jokers_used)


@pytest.mark.parametrize("ts,size", [(STANDARD, 0), (STANDARD, 20), (STANDARD, 40),
                                     (STANDARD, 70), (XP, 40)])
def test_beam_plan_valid_and_exact_pass_recovers_optimum(ts, size):
    for i in range(12):
        tc, jt, cand, jr, exact, beam = _position(f"passes-{ts.name}-{size}-{i}", ts, size, 20)
        assert exact is not None
        if beam is None:
            continue  # a narrow pass may find nothing; the solver then falls back
        assert beam.score <= exact.score
        _laid_out_ok(beam, tc, jt)
        total = sum(cand) + jr
        bounded = dp.run_dp(tc, cand, jt, jr, budget=total - (beam.score >> 16),
                            floor=beam.score)
        assert bounded is not None and bounded.score == exact.score


def test_floor_above_optimum_finds_nothing():
    table, rack = random_position("passes-floor", STANDARD, 30, 18)
    tc, jt = _counts(table)
    rc, jr = _counts(rack)
    exact = dp.run_dp(tc, rc, jt, jr)
    assert dp.run_dp(tc, rc, jt, jr, floor=exact.score).score == exact.score
    assert dp.run_dp(tc, rc, jt, jr, floor=exact.score + 1) is None


def test_jokers_ahead():
    n1 = dp.ms_id((dp.N1,))
    n3 = dp.ms_id((dp.N3,))
    f2 = dp.ms_id((dp.F2,))
    avail = [1] * 13
    assert dp.jokers_ahead(n3, avail, 5) == 0
    assert dp.jokers_ahead(n1, avail, 5) == 0
    assert dp.jokers_ahead(n1, [1] * 6 + [0] * 7, 5) == 2   # 7 and 8 missing
    assert dp.jokers_ahead(n1, [1] * 7 + [0] + [1] * 5, 5) == 1
    assert dp.jokers_ahead(n1, avail, 11) == 99              # cannot reach 3 long
    # a run with jokers below must reach 13: every place missing counts
    assert dp.jokers_ahead(f2, [1] * 9 + [0, 1, 0, 0], 8) == 3
    two = dp.ms_id((dp.N1, dp.N1))
    assert dp.jokers_ahead(two, [1] * 13, 3) == 2              # one tile a place for two runs


def _weighted(plan, tc, cand, jt, weights):
    _, used = core.build_melds(plan)
    jokers = plan.jokers_used - jt
    return (sum(used) + jokers,
            sum(used[i] * weights[i] for i in range(52)) + jokers * weights[52])


@pytest.mark.parametrize("size", [0, 20, 40, 60])
def test_weighted_answers_equal_the_unbudgeted_programme(size):
    """With ``weights`` (the strong AI's second objective) the budgeted and
    heuristic passes still give the optimum of the plain programme."""
    import random
    for i in range(10):
        ts = XP if i % 3 == 0 else STANDARD
        rng = random.Random(f"weights-{size}-{i}")
        table, rack = random_position(f"weights-{size}-{i}", ts, size, rng.randint(12, 26))
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        cand = core.useful_rack(tc, rc, jt + jr)
        weights = [rng.randint(0, 999) for _ in range(53)]
        got = core.best_plan(tc, cand, jt, jr, weights=weights)
        want = dp.run_dp(tc, cand, jt, jr, weights=weights)
        assert _weighted(got, tc, cand, jt, weights) == _weighted(want, tc, cand, jt, weights)


def test_colour_renaming():
    """The solver renames colours, fewest tiles first."""
    table, rack = random_position("rename", STANDARD, 30, 14)
    tc, _ = _counts(table)
    rc, _ = _counts(rack)
    order = core.colour_order(tc, rc)
    assert sorted(order) == [0, 1, 2, 3]
    tot = [sum(tc[c * 13:c * 13 + 13]) + sum(rc[c * 13:c * 13 + 13]) for c in range(4)]
    assert [tot[c] for c in order] == sorted(tot)
    assert core.permute(tc, order)[:13] == tc[order[0] * 13:order[0] * 13 + 13]


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [1, 2, 3, 0], [3, 1, 0, 2]])
@pytest.mark.parametrize("mirrored", [False, True])
def test_plans_found_renamed_or_reversed_lay_out_in_the_original_position(order, mirrored):
    """A plan found with the colours renamed and the numbers reversed is laid
    out (``dp.lay_out``) as melds of the original position: each valid, in
    engine.melds' canonical order, using exactly the table and the tiles
    placed; the slot codes are engine.melds'."""
    from engine.melds import GROUP_JOKER, RUN_JOKER, canonical

    assert (dp.RUN_JOKER, dp.GROUP_JOKER) == (RUN_JOKER, GROUP_JOKER)
    for i in range(8):
        table, rack = random_position(f"layout-{i}", STANDARD, 24 + 4 * i, 12)
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        tp, rp = core.permute(tc, order), core.permute(rc, order)
        if mirrored:
            tp, rp = core.mirror(tp), core.mirror(rp)
        plan = dp.run_dp(tp, rp, jt, jr)
        melds, used = core.build_melds(plan, order, mirrored)
        assert all(m == canonical(m) and meld_kind(m) in ("group", "run") for m in melds)
        assert all(used[t] <= rc[t] for t in range(52))
        laid = sorted(x if x < 52 else JOKER for m in melds for x in m)
        assert laid == sorted(table + [t for t in range(52) for _ in range(used[t])]
                              + [JOKER] * (plan.jokers_used - jt))


def _dominated(a, b, full):
    """State key ``a`` dominates ``b`` (run multisets and jokers; the rule of
    ``dp._prune``), checked on the multisets themselves."""
    for sh in dp._SHIFT:
        if not dp._dominates(dp.MS_LIST[a >> sh & dp._MASK8], dp.MS_LIST[b >> sh & dp._MASK8]):
            return False
    ja, jb = a >> dp._J_SHIFT & 0xF, b >> dp._J_SHIFT & 0xF
    ca, cb = a >> dp._CAP_SHIFT & 7, b >> dp._CAP_SHIFT & 7
    return (ja == jb and ca >= cb) or (ja <= jb and ca == full)


def test_wide_prune_removes_exactly_the_dominated_states(monkeypatch):
    """The bit-set filter used on large layers: every state it drops is
    dominated by a kept state of at least its score, and no kept state is
    dominated by one kept before it (an earlier one in score order)."""
    layers = []
    plain = dp._prune

    def record(states, full):
        layers.append((dict(states), full))
        return plain(states, full)

    monkeypatch.setattr(dp, "_prune", record)
    for i in range(6):
        table, rack = random_position(f"wide-{i}", STANDARD if i % 2 else XP, 60, 6)
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        dp.run_dp(tc, rc, jt, jr)
    monkeypatch.undo()
    big = [(s, f) for s, f in layers if len(s) > 40]
    assert len(big) >= 10
    for states, full in big:
        items = sorted(((sc, k) for k, sc in states.items()),
                       key=lambda it: (-it[0], it[1] >> dp._J_SHIFT & 0xF))
        out = {}
        dp._prune_wide(items, full, dp._DOM, out)
        kept = [k for _, k in items if k in out]
        for sc, k in items:
            if k not in out:
                assert any(states[x] >= sc and _dominated(x, k, full) for x in kept)
        for i, k in enumerate(kept):
            assert not any(_dominated(x, k, full) for x in kept[:i])
        assert len(out) < len(states)


@pytest.mark.parametrize("ts,size", [(STANDARD, 60), (STANDARD, 40), (XP, 60)])
def test_wide_prune_gives_the_same_optimum(ts, size, monkeypatch):
    for i in range(8):
        table, rack = random_position(f"wide-opt-{ts.name}-{size}-{i}", ts, size, 3 + i)
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        cand = core.useful_rack(tc, rc, jt + jr)
        monkeypatch.setattr(dp, "WIDE_PRUNE", 10**9)
        plain = dp.run_dp(tc, cand, jt, jr)
        monkeypatch.setattr(dp, "WIDE_PRUNE", 1)
        wide = dp.run_dp(tc, cand, jt, jr)
        assert plain is not None and wide is not None
        assert wide.score == plain.score


@pytest.mark.parametrize("ts,size", [(STANDARD, 30), (STANDARD, 66), (XP, 50)])
def test_depth_first_dominance_keeps_the_answers(ts, size, monkeypatch):
    """The depth-first check with failed states cutting those they dominate
    answers as the plain search does, and its witness places the table and
    all but ``budget`` candidates."""
    outcomes = set()
    for i in range(12):
        table, rack = random_position(f"dfs-dom-{ts.name}-{size}-{i}", ts, size, 2 + i)
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        cand = core.useful_rack(tc, rc, jt + jr)
        for budget in (0, 1, 2, 3):
            monkeypatch.setattr(dp, "DFS_DOMINANCE", False)
            plain = dp.feasible(tc, cand, jt, jr, budget=budget)
            monkeypatch.setattr(dp, "DFS_DOMINANCE", True)
            got = dp.feasible(tc, cand, jt, jr, budget=budget)
            assert (got is None) == (plain is None)
            outcomes.add(got is None)
            if got is not None:
                melds, used = core.build_melds(got)
                assert all(meld_kind(m) in ("group", "run") for m in melds)
                assert sum(cand) + jr - sum(used) - (got.jokers_used - jt) <= budget
    assert outcomes == {True, False}


def test_reversed_numbers_round_trip():
    """Counts of a position solved with its numbers reversed map back
    exactly."""
    table, rack = random_position("mirror", STANDARD, 30, 14)
    tc, _ = _counts(table)
    assert core.mirror(core.mirror(tc)) == tc
    assert core.mirror(tc)[12] == tc[0] and core.mirror(tc)[13] == tc[25]


@pytest.mark.parametrize("ts,size", [(STANDARD, 30), (STANDARD, 62), (XP, 60)])
def test_reversed_numbers_give_the_same_answer(ts, size, monkeypatch):
    """Solving with the numbers reversed (when the candidates lie high)
    answers as the forward programme does, with a valid witness."""
    from engine.solver import solve
    reversed_ = 0
    for i in range(12):
        table, rack = random_position(f"mirror-{ts.name}-{size}-{i}", ts, size, 2 + i)
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        cand = core.useful_rack(tc, rc, jt + jr)
        reversed_ += core.reversed_is_better(tc, cand, jt)
        monkeypatch.setattr(core, "MIRROR", False)
        fwd = solve(table, rack, tileset=ts)
        monkeypatch.setattr(core, "MIRROR", True)
        got = solve(table, rack, tileset=ts)
        assert (got.tiles_placed, got.value_placed) == (fwd.tiles_placed, fwd.value_placed)
        assert all(meld_kind(m) in ("group", "run") for m in got.melds)
        laid = sorted(s if s < 52 else JOKER for m in got.melds for s in m)
        assert laid == sorted(table + [int(t) for t in got.play])
    assert reversed_ >= 3


def test_exact_pass_reversed_when_the_lost_candidates_lie_high(monkeypatch):
    """After the heuristic pass, the exact pass runs with the numbers
    reversed when the candidates it lost lie high: same optimum as the
    plain programme, and the plan found reversed is laid out on the
    original position (valid melds holding the table and the play)."""
    monkeypatch.setattr(core, "BRANCH", 0)  # (which would prove most without a pass)
    reversed_ = 0
    for i in range(40):
        table, rack = random_position(f"exact-dir-{i}", STANDARD, 40 + i % 3 * 12, 14 + i % 9)
        tc, jt = _counts(table)
        rc, jr = _counts(rack)
        cand = core.useful_rack(tc, rc, jt + jr)
        want = dp.run_dp(tc, cand, jt, jr)
        got = core.best_plan(tc, cand, jt, jr)
        assert got.score == want.score
        reversed_ += got.reversed
        melds, used = core.build_melds(got)
        assert all(meld_kind(m) in ("group", "run") for m in melds)
        laid = sorted(s if s < 52 else JOKER for m in melds for s in m)
        assert laid == sorted([c for c in range(52) for _ in range(tc[c])]
                              + [c for c in range(52) for _ in range(used[c])]
                              + [JOKER] * got.jokers_used)
        assert all(used[c] <= cand[c] for c in range(52))
    assert reversed_ >= 3


@pytest.mark.parametrize("ts,size", [(STANDARD, 40), (XP, 40), (XP, 70)])
def test_exact_pass_either_direction_first_gives_the_optimum(ts, size, monkeypatch):
    """The exact pass's directions (core.exact_pass): whichever runs first
    and wherever the other gives way, the answer has the optimum's score
    and is laid out in the position it was asked about."""
    tries = [(0, 0), (1, 1), (1, 10**9), (200, 300), (2000, 4000)]
    for i in range(10):
        tc, jt, cand, jr, exact, beam = _position(f"exact-dir-{ts.name}-{size}-{i}", ts, size, 22)
        if beam is None:
            continue
        total = sum(cand) + jr
        budget = total - (beam.score >> 16)
        for flip in (False, True):
            for tr in tries:
                monkeypatch.setattr(core, "EXACT_TRY", tr)
                plan, found = core.exact_pass(tc, cand, jt, jr, budget, None, beam.score, flip)
                assert found is None
                assert plan is not None and plan.score == exact.score, (i, flip, tr)
                _laid_out_ok(plan, tc, jt)
                # above the optimum: nothing, in every order
                assert core.exact_pass(tc, cand, jt, jr, budget, None, exact.score + 1,
                                       flip) == (None, None)


@pytest.mark.parametrize("ts,size", [(STANDARD, 20), (STANDARD, 40), (XP, 40)])
def test_exact_pass_with_the_tiles_capped_and_a_wider_incumbent(ts, size, monkeypatch):
    """Told the most tiles any plan places (``cap``, as the relaxation
    proves it), the exact pass cuts states by the value the most valuable
    candidates left could add, and still finds the optimum above an
    incumbent of as many tiles; a plan from ``widen`` that scores more
    raises its floor, and the better of the two is the optimum. A cap
    below the optimum's tiles cuts it (the cut is real)."""
    monkeypatch.setattr(core, "EXACT_TRY", (200, 300))
    checked = cut = 0
    for i in range(16):
        tc, jt, cand, jr, exact, beam = _position(f"exact-cap-{ts.name}-{size}-{i}", ts, size, 22)
        if beam is None or beam.score >> 16 != exact.score >> 16:
            continue
        total = sum(cand) + jr
        budget = total - (beam.score >> 16)
        tiles = exact.score >> 16
        for flip in (False, True):
            plan, found = core.exact_pass(tc, cand, jt, jr, budget, None, beam.score, flip,
                                          cap=tiles)
            assert found is None and plan is not None and plan.score == exact.score
            _laid_out_ok(plan, tc, jt)
            assert core.exact_pass(tc, cand, jt, jr, budget, None, exact.score + 1, flip,
                                   cap=tiles) == (None, None)
            for offered in (beam, exact):
                plan, found = core.exact_pass(tc, cand, jt, jr, budget, None, beam.score,
                                              flip, cap=tiles, widen=lambda o=offered: o)
                best = max((p for p in (plan, found) if p is not None), key=lambda p: p.score)
                assert best.score == exact.score
                if offered is exact:
                    assert found is exact or found is None and plan.score == exact.score
            checked += 1
        if budget > 0 and exact.score & 0xFFFF:
            # one tile fewer than the optimum places: the optimum is cut
            p = dp.Pass(tc, cand, jt, jr, budget=budget, floor=exact.score)
            p.cap_tiles(tiles - 1)
            assert p.finish() is None
            cut += 1
    assert checked >= 6 and cut >= 2


def test_a_pass_taken_number_by_number_is_run_dp_and_its_limit_stops_it():
    table, rack = random_position("passes-steps", XP, 40, 20)
    tc, jt = _counts(table)
    rc, jr = _counts(rack)
    whole = dp.run_dp(tc, rc, jt, jr, budget=2)
    p = dp.Pass(tc, rc, jt, jr, budget=2)
    works = []
    while p.n < 13:
        assert p.step() or whole is None
        works.append(p.work)
    assert works == sorted(works) and works[0] > 0
    got = p.result()
    assert (got is None) == (whole is None)
    if whole is not None:
        assert got.score == whole.score
    q = dp.Pass(tc, rc, jt, jr, budget=2)
    q.limit = works[3]
    with pytest.raises(dp.SearchLimit):
        while q.n < 13:
            q.step()
    assert q.n <= 4 and q.work <= works[3]
