"""The layers in C (``engine/solver/_dpk.c``): every pass the solver makes,
run with them and without, holds the same states in the same order - the
same plan (its steps, option for option), the same work counted, the same
number reached when a limit gives it up - also when a pass is resumed
after its limit with a lower budget, a higher floor and a tile cap, as
``core`` does; and every depth-first search finds the same witness, or
gives up at the same limit, and every table's check (the search without
its path) answers alike."""

from __future__ import annotations

import gc
import weakref

import pytest

from engine.solver import compiled, core, division, dp, solve
from engine.solver.positions import random_position
from engine.errors import NotationError
from engine.solver import SolverError
from engine.tiles import STANDARD, TILES, XP, counts_of

from .solver_builds import required


def _kernel():
    return required(compiled._kernel(), "the solver's layers in C")


class _Recording:
    """``core.dp`` with every pass it makes recorded (arguments only)."""

    def __init__(self, module, calls: list) -> None:
        self._m = module
        self._calls = calls

    def __getattr__(self, name):
        real = getattr(self._m, name)
        if name == "Pass":
            def made(*args, **kwargs):
                self._calls.append((args, kwargs))
                return real(*args, **kwargs)
            return made
        if name == "run_dp":
            def ran(*args, **kwargs):
                self._calls.append((args, kwargs))
                return real(*args, **kwargs)
            return ran
        if name in ("feasible", "divides"):
            def searched(*args, **kwargs):
                self._calls.append((name, args, kwargs))
                return real(*args, **kwargs)
            return searched
        return real


def _passes(monkeypatch, module, seeds):
    calls: list = []
    monkeypatch.setattr(core, "dp", _Recording(module, calls))
    monkeypatch.setattr(division, "_DIVISIBLE", {})  # (every table checked anew)
    monkeypatch.setattr(core, "PRELUDE", 0)  # (the table's check by dp.divides)
    # the bound asked first only from three jokers (as before the simplex in
    # C made it cheap), not without jokers: more positions go through the
    # passes and searches
    monkeypatch.setattr(core, "LP_FIRST", 3)
    monkeypatch.setattr(core, "LP_ALL", 0)
    monkeypatch.setattr(core, "BRANCH", 0)  # (which would prove most without a pass)
    for name, ts, size, rack in seeds:
        table, r = random_position(name, ts, size, rack)
        solve(table, r, tileset=ts)
    monkeypatch.undo()
    return calls


def _dp_passes(calls):
    return [c for c in calls if c[0] not in ("feasible", "divides")
            and not c[1].get("threshold") and not (len(c[0]) > 4 and c[0][4])]


def _searches(calls):
    return [c[1:] for c in calls if c[0] == "feasible"]


def _table_checks(calls):
    return [c[1] for c in calls if c[0] == "divides"]


def _search(module, kernel, args, kwargs):
    module.KERNEL = kernel
    try:
        return _plan(module.feasible(*args, **kwargs))
    except module.SearchLimit:
        return "gave up"


def _plan(plan):
    if plan is None:
        return None
    return (plan.score, plan.jokers_used, plan.steps, plan.surplus, plan.lazy)


def _run(module, kernel, args, kwargs, limit=0, resume=None):
    """A pass made and run to its end; with ``limit``, given up there
    first (what it had reached), then changed by ``resume`` and run on."""
    module.KERNEL = kernel
    p = module.Pass(*args, **kwargs)
    seen = []
    if limit:
        p.limit = limit
        try:
            plan = p.finish()
            return ("finished", _plan(plan), p.work, p.n)
        except module.SearchLimit:
            seen = [p.work, p.n]
        p.limit = 0
        if resume is not None:
            resume(p)
    plan = p.finish()
    return (seen, _plan(plan), p.work, p.n)


SEEDS = [(f"kernel-{ts.name}-{size}-{i}", ts, size, rack)
         for ts, size, rack in [(STANDARD, 20, 16), (STANDARD, 40, 14), (XP, 40, 16), (XP, 80, 12)]
         for i in range(6)]


@pytest.mark.parametrize("impl", ["compiled", "interpreted"])
def test_every_pass_holds_the_same_states_with_the_layers_in_c(monkeypatch, impl):
    kernel = _kernel()
    module = compiled._compiled()[0] if impl == "compiled" else dp
    if module is None:
        pytest.skip("the compiled solver is not built")
    saved = module.KERNEL
    try:
        seeds = SEEDS if impl == "compiled" else SEEDS[::2]
        calls = _passes(monkeypatch, module, seeds)
        passes = _dp_passes(calls)
        assert len(passes) >= len(seeds)
        compared = limited = 0
        for args, kwargs in passes:
            with_c = _run(module, kernel, args, kwargs)
            without = _run(module, None, args, kwargs)
            assert with_c == without, (args, kwargs)
            compared += 1
            plan = with_c[1]

            def resume(p, plan=plan):
                # as core does between numbers: a lower budget, a higher
                # floor, a cap on the tiles
                if p.budget:
                    p.budget -= 1
                if plan is not None:
                    p.floor = max(p.floor, plan[0] - 40)
                    p.cap_tiles(plan[0] >> 16)

            for limit in (150, 900):
                with_c = _run(module, kernel, args, kwargs, limit, resume)
                without = _run(module, None, args, kwargs, limit, resume)
                assert with_c == without, (limit, args, kwargs)
                limited += with_c[0] != "finished"
        assert limited > 0 and compared == len(passes)
        # the depth-first searches (the table's check among them): the same
        # witness, or the same search given up at its limit
        searches = _searches(calls)
        outcomes = set()
        for args, kwargs in searches:
            with_c = _search(module, kernel, args, kwargs)
            assert with_c == _search(module, None, args, kwargs), (args, kwargs)
            outcomes.add("gave up" if with_c == "gave up" else with_c is not None)
            if "limit" in kwargs:
                for limit in (5, 40):
                    tight = dict(kwargs, limit=limit)
                    assert _search(module, kernel, args, tight) == _search(module, None, args, tight)
        assert len(searches) >= 10
        if impl == "compiled":
            assert outcomes == {True, False, "gave up"}
        # the table's checks (the search without its path): the same answer
        # as the search with it, in C and in Python, also for the tables
        # with a tile taken away (most of which do not divide)
        checks = _table_checks(calls)
        assert len(checks) == len(seeds)
        answers = set()
        for table, jokers in checks:
            for t in [table] + [[v - (i == k) for i, v in enumerate(table)]
                                for k in range(52) if table[k]][:6]:
                module.KERNEL = kernel
                got = module.divides(t, jokers)
                assert got == (module.feasible(t, [0] * 52, jokers, 0) is not None)
                module.KERNEL = None
                assert module.divides(t, jokers) is got
                answers.add(got)
        assert answers == {True, False}
    finally:
        module.KERNEL = saved


def test_the_search_in_c_refuses_what_it_cannot_read():
    kernel = _kernel()
    facts = kernel.Facts(dp.ms_dominates, dp.closable_at_end, dp.MS_LIST)
    table = [0] * 52
    table[0:3] = [1, 1, 1]

    def search(t, jt=0, jr=0, f=facts):
        return kernel.Search(t, [0] * 52, jt, jr, -1, 1, f, dp._COLOUR_CACHE, dp.colour_options,
                             dp._EMPTY_OPT, dp.SearchLimit)

    assert search(table).run(0, False) is True
    assert search(table).run(0) is not None
    with pytest.raises(ValueError, match="counts"):
        search([-1] + table[1:])
    with pytest.raises(ValueError, match="jokers"):
        search(table, 9, 7)
    with pytest.raises(ValueError):
        search(table[:51])
    with pytest.raises(TypeError, match="ms_list"):
        search(table, f=kernel.Facts(dp.ms_dominates, dp.closable_at_end))
    # a multiset id the list does not hold: named, not read past the list
    facts_short = kernel.Facts(dp.ms_dominates, dp.closable_at_end, [()])
    runs = [0] * 52
    runs[0:2] = [1, 1]  # R1 R2 and a joker: an open run at once
    with pytest.raises(ValueError, match="multiset"):
        search(runs, 1, 0, facts_short).run(0)


def test_a_solves_first_steps_in_c_are_the_steps_one_by_one(monkeypatch):
    """``dp.prelude`` (the counts, the check of copies, the table's check,
    ``useful_rack`` and ``oriented`` at once) gives what the steps give one
    by one, on positions with and without jokers, on tables that divide
    and that do not; the positions it leaves to the checks are those with
    more copies than the set has; and a solve answers alike with it and
    without."""
    _kernel()
    required((core.dp.KERNEL, "not what the solver's programme runs with"),
             "the solver's layers in C")
    seen = {"divides": 0, "not": 0, "mirrored": 0, "dropped": 0}
    for name, ts, size, rack in SEEDS + [(f"prelude-{i}", STANDARD, 30, 6) for i in range(12)]:
        table, r = random_position(name + "-prelude", ts, size, rack)
        for t in (table, table[1:], table[2:]):
            got = core.dp.prelude(t, r, ts.copies, ts.jokers, core.MIRROR, core.SMALL_TABLE)
            tc, rc = counts_of(t), counts_of(r)
            if not division.divisible(tc[:52], tc[52]):
                assert got is False
                seen["not"] += 1
                continue
            jt, jr = tc[52], rc[52]
            cand = core.useful_rack(tc[:52], rc[:52], jt + jr)
            tp, cp, wp, order, mirrored = core.oriented(tc[:52], cand, jt, None)
            assert got == (jt, jr, tp, cp, order, mirrored)
            seen["divides"] += 1
            seen["mirrored"] += mirrored
            seen["dropped"] += cand != rc[:52]
            for prelude in (1, 0):
                monkeypatch.setattr(core, "PRELUDE", prelude)
                s = solve(t, r, tileset=ts)
                weights = list(range(100, 153))
                w = solve(t, r, tileset=ts, weights=weights)
                if prelude:
                    first = (s, w)
            assert (s, w) == first
    assert min(seen.values()) > 0, seen
    # more copies than the set has: left to the check that names the tile
    assert core.dp.prelude([0, 0, 0], [], 2, 2, True, 15) is None
    assert core.dp.prelude([52, 52], [52], 2, 2, True, 15) is None
    assert core.dp.prelude([0, 1, 2], [53], 2, 2, True, 15) is None
    assert core.dp.prelude([0, 1, 2], [], 2, 2, True, 15) == (0, 0, *core.oriented(
        counts_of([0, 1, 2])[:52], [0] * 52, 0, None)[:2], [1, 2, 3, 0], False)
    # a solve given codes takes them to the prelude as they are; what it
    # leaves (not codes, a Tile, a bool, copies past the set's) is read and
    # checked as before, and named
    assert core.dp.prelude([0, 1, True], [], 2, 2, True, 15) is None
    assert core.dp.prelude([TILES[0], 1, 2], [], 2, 2, True, 15) is None
    assert core.dp.prelude([0, 1, 53], [], 2, 2, True, 15) is None
    plain = solve([0, 1, 2], [3])
    assert solve([TILES[0], TILES[1], TILES[2]], [TILES[3]]) == plain == \
        solve(" ".join(str(TILES[i]) for i in range(3)), str(TILES[3]))
    assert plain.tiles_placed == 1
    with pytest.raises(NotationError, match=str(TILES[0])):
        solve([0, 0, 0], [1])
    with pytest.raises(NotationError):
        solve([0, 1, 99], [])
    with pytest.raises(SolverError, match="cannot be divided"):
        solve([0, 1, 3], [2])


def test_the_solver_answers_alike_with_and_without_the_layers_in_c():
    kernel = _kernel()
    module = core.dp
    saved = module.KERNEL
    try:
        for name, ts, size, rack in SEEDS:
            table, r = random_position(name + "-solve", ts, size, rack)
            got = []
            for k in (kernel, None):
                module.KERNEL = k
                s = solve(table, r, tileset=ts)
                got.append((s.tiles_placed, s.value_placed, s.play, s.melds))
            assert got[0] == got[1], (table, r)
    finally:
        module.KERNEL = saved


def test_a_kernel_built_from_another_source_is_never_used(monkeypatch):
    _kernel()
    built = compiled._compiled()[0]
    saved = built.KERNEL
    monkeypatch.setattr(compiled, "kernel_digest", lambda: "0" * 64)
    monkeypatch.delenv(compiled.ENV, raising=False)
    try:
        mod, why = compiled.load()
        assert mod is built and why == "compiled (layers in C built from another dp.py or _dpk.c)"
        assert mod.KERNEL is None
    finally:
        built.KERNEL = saved


def test_a_pass_with_the_layers_in_c_is_freed_when_dropped():
    """No reference cycle through the kernel: a pass is freed as soon as
    it is dropped, its layers with it, with the garbage collector paused
    as ``core`` pauses it for a solve."""
    kernel = _kernel()
    saved = dp.KERNEL
    dp.KERNEL = kernel
    gc.disable()
    try:
        table, rack = random_position("kernel-freed", XP, 40, 16)
        solve(table, rack, tileset=XP)  # fills the caches
        t = [0] * 52
        r = [0] * 52
        for code in (0, 1, 2, 3, 4, 13, 14, 15, 26, 27, 28):
            r[code] += 1
        p = dp.Pass(t, r, 0, 1, budget=4)
        assert p.kernel is not None
        plan = p.finish()
        assert plan is not None and plan.score >> 16 == 12  # every tile and the joker
        ref = weakref.ref(p)
        del p
        assert ref() is None
    finally:
        gc.enable()
        dp.KERNEL = saved
