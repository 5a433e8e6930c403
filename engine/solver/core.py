"""Driving the programme of :mod:`engine.solver.dp`: candidate pruning, the
loss budget, and turning a plan into melds.

Size: one module for the order in which the passes, the depth-first
searches and the linear relaxation's bound are asked (``best_plan`` and
its helpers) and the settings that tune it, which the benchmarks switch
one by one (``bench/solver_ref_cpu.py --variant``); the layout of a plan
(``build_melds``, ``add_joker``, and ``LaidPlan`` for a plan laid from
the relaxation's melds) is its short tail.
"""

from __future__ import annotations

import functools
import gc
from operator import mul
from typing import Callable

from ..melds import GROUP_JOKER, RUN_JOKER, canonical, meld_kind
from . import bound as relaxation
from . import compiled

# the programme (engine/solver/dp.py): its compiled build when one is current,
# else the module itself (see engine.solver.compiled); tests may swap it
dp, BUILD = compiled.load()


def useful_rack(table: list[int], rack: list[int], jokers: int) -> list[int]:
    """The rack counts with every tile dropped that belongs to no meld that
    the tiles present (table + rack + ``jokers``) could form. Repeated until
    nothing more drops."""
    cand = list(rack)
    if jokers >= 2:
        return cand  # two jokers make a meld of any tile
    while True:
        have = [1 if table[i] or cand[i] else 0 for i in range(52)]
        # per number: how many colours are present
        present = [have[n] + have[13 + n] + have[26 + n] + have[39 + n] for n in range(13)]
        changed = False
        for i in range(52):
            if not cand[i]:
                continue
            n = i % 13
            if present[n] - have[i] + jokers >= 2:
                continue  # a group of its number
            # a run: some three places in a row around it, gaps filled by jokers
            lo = i - n
            ok = False
            for s in range(max(0, n - 2), min(n, 10) + 1):
                if 3 - have[lo + s] - have[lo + s + 1] - have[lo + s + 2] <= jokers:
                    ok = True
                    break
            if not ok:
                cand[i] = 0
                changed = True
        if not changed:
            return cand


SMALL_TABLE = 15
SMALL_RACK = 40  # candidates; more (laying out most of a set) try the depth-first check first
DFS_LIMIT = 1000  # states; past it the shortcut gives way to the programme
# the depth-first check is tried when the candidates are at most this share
# of the table's tiles: with more, every candidate seldom fits (measured on
# tables of 20-60: 13 of 159 positions over 0.5, 3 of 104 over 0.7) and a
# failed search costs one to three milliseconds
DFS_SHARE = 0.5
BEAM = 32  # states per layer in the heuristic pass
# when the narrow pass leaves candidates out and there are WIDEN_JOKERS or
# more jokers to place, a wider pass (states a layer, numbers reversed)
# looks for a division that places more before the exact pass: the first
# of WIDER_PASSES; when the narrow pass finds nothing, each in turn until
# one finds a division. The other way round from the narrow pass, the two
# views miss different divisions: on 304 XP positions with jokers to
# place, the better of the two missed at most one candidate, where a wider
# pass the same way round missed up to four
WIDEN_JOKERS = 2
WIDER_PASSES = ((128, True), (128, False))


class gc_paused:
    """Pause the garbage collector for a solve (as a context manager or a
    decorator): the programme allocates tens of thousands of short-lived
    tuples a solve, none in a reference cycle, and the collections they
    set off cost 2-5% of a solve's instructions (standard tables of 20, XP
    tables of 40), more once other work has filled the older generations.
    Nested uses and threads leave it as they found it: only the use that
    paused it starts it again."""

    def __enter__(self):
        self.paused = gc.isenabled()
        if self.paused:
            gc.disable()

    def __exit__(self, *exc):
        if self.paused:
            gc.enable()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with gc_paused():
                return fn(*args, **kwargs)
        return wrapper


def best_plan(table: list[int], rack: list[int], jt: int, jr: int,
              threshold: int = 0, weights: list[int] | None = None) -> dp.Plan | None:
    """The optimal plan.

    Without a threshold and with fewer than ``SMALL_TABLE`` tiles on the
    table, the exact programme runs once, unbudgeted (after the depth-first
    check below when there are more than ``SMALL_RACK`` candidates: laying
    out most of a set). Otherwise, when the candidates are at most
    ``DFS_SHARE`` of the table's tiles, a depth-first search first asks
    whether every candidate fits (on a well-filled table it nearly always
    does, and the witness is then optimal); it gives up after ``DFS_LIMIT``
    states. Then, with ``LP_FIRST`` jokers or more to place (or any,
    ``LP_ALL``), the linear
    relaxation's bound (:mod:`engine.solver.bound`) is asked and its play,
    rounded down, laid out if it can be (``ROUNDING``; with ``BRANCH`` and
    ``BRANCH_ROUNDING``, only where the relaxation's optimum is integral):
    proved by the bound, it is the answer. Otherwise a branch and bound on
    the relaxation's programme (``BRANCH`` nodes, :func:`engine.solver.
    bound.branch`) looks for a plan scoring more: searched through, its plan
    (or the rounded play) is the answer. Otherwise a narrow heuristic pass of the programme
    (``BEAM`` states a layer; after the bound, kept to as many tiles as it
    allows, ``FOCUS``) finds an incumbent, nearly always optimal in tiles; the exact
    programme then runs once with the incumbent's loss as budget and its
    score as floor (branch and bound): first up to ``PROBE`` states; past
    them the linear relaxation's bound (:mod:`engine.solver.bound`) may
    prove the incumbent optimal, or its tile count (the exact pass is then
    told it, ``TILE_CAP``, and with jokers to place a wider pass may raise
    its floor, ``VALUE_WIDEN``; else it is told the count the bound allows,
    ``CAP_ALWAYS``, and with jokers to place a wider pass looks for a
    better incumbent). If no pass
    finds an incumbent, a
    depth-first play bounds the loss and budgets ``(0,) 1, 2, 4, ...`` run up
    to it. In initial-meld mode the programme runs with a loss budget
    ``d = 0, 1, 2, 4, ...`` (then none); the first budget that admits a
    plan gives the optimum.

    :returns: ``None`` when no arrangement exists (the table does not
        divide; in initial-meld mode: no opening play).
    """
    total = sum(rack) + jr
    d = 0
    if not threshold:
        if total == 0:
            return dp.feasible(table, rack, jt, jr, budget=0)
        small = sum(table) + jt < SMALL_TABLE
        if small and total <= SMALL_RACK:
            # little on the table, a rack's worth of candidates: one
            # unbudgeted pass (a budget would only be raised many times; the
            # depth-first check seldom succeeds here and costs as much)
            return dp.run_dp(table, rack, jt, jr, budget=None, weights=weights)
        limited = False
        plan = None
        dfs_failed = False
        early = None  # the relaxation's bound when asked first
        lp_first = LP_FIRST and (jt + jr >= LP_FIRST or LP_ALL) and not small
        if lp_first and sum(table) + jt < DFS_AFTER_BOUND:
            # asked before the depth-first check, which it may spare: when
            # it allows fewer tiles than the candidates, not every one fits
            early = _relaxation(table, rack, jt, jr, weights)
        # (when the bound allows fewer tiles than the candidates, budget 0
        # is ruled out: neither tried nor left open)
        short = _proves(early, total * dp.BIG)
        if not short and (small or total <= DFS_SHARE * (sum(table) + jt)):
            try:
                plan = dp.feasible(table, rack, jt, jr, budget=0, limit=DFS_LIMIT)
            except dp.SearchLimit:
                limited = dfs_failed = True
        elif not short:
            limited = True  # not tried: budget 0 is not ruled out
        if plan is not None:
            return plan
        if small:
            return dp.run_dp(table, rack, jt, jr, budget=None, weights=weights)
        # an incumbent: a narrow heuristic pass of the programme (nearly
        # always optimal in tiles), else a depth-first play; it bounds the
        # loss and, as a floor, the score of the exact pass
        early_plan = None
        if lp_first and early is None:
            # jokers to place: the narrow pass and the exact pass's first
            # states cost more than the bound and its rounded play, which
            # most often is the optimum (and then proved by it)
            early = _relaxation(table, rack, jt, jr, weights)
        if early is not None:
            if BRANCH and BRANCH_ROUNDING and relaxation.last_layout() is None:
                early_plan = None  # (a fractional optimum: the branch and bound finds the plan)
            else:
                early_plan = _rounded_plan(table, jt, None, weights,
                                           rack if dfs_failed else None, jr)
            if early_plan is not None and _proves(early, early_plan.score + 1):
                return early_plan
            if early_plan is not None and CAP_BOUND:
                # as many tiles as the bound allows: the bound capped to
                # them is tighter on the value, and its play, rounded down,
                # may score more
                capped = _capped(table, rack, jt, jr, weights, early, early_plan.score >> 16)
                if capped is not early:
                    early = capped
                    better = _rounded_plan(table, jt, early_plan, weights)
                    if better is not None:
                        early_plan = better
                    if _proves(early, early_plan.score + 1):
                        return early_plan
        if early is not None and BRANCH:
            # branch and bound on the bound's programme, from its optimum:
            # mostly a few nodes find the best plan or prove the one in hand
            got = relaxation.branch(table, rack, jt, jr, weights,
                                    0 if early_plan is None else early_plan.score + 1, BRANCH,
                                    int((early + SLACK) // dp.BIG) if BRANCH_CAP else None)
            if got is not None:
                status, _nodes, layout, played, jokers, score = got
                if layout is not None:
                    early_plan = LaidPlan(int(score), jt + jokers, layout, played)
                if status == 0 and early_plan is not None:
                    return early_plan
        best = None
        if early is not None and FOCUS:
            # the narrow pass kept to plans of as many tiles as the bound
            # allows (and scoring more than the rounded play): it costs
            # about half as much and finds them as often
            most = int((early + SLACK) // dp.BIG)
            floor = 0 if early_plan is None else early_plan.score + 1
            best = dp.run_dp(table, rack, jt, jr, weights=weights, beam=BEAM,
                             budget=max(0, total - most), floor=floor)
            if best is None and (early_plan is None or early_plan.score >> 16 < most):
                # short of the bound: the narrow pass without the budget
                best = dp.run_dp(table, rack, jt, jr, weights=weights, beam=BEAM, floor=floor)
            if best is None:
                best = early_plan
            elif CAP_BOUND and best.score >> 16 == most and (
                    early_plan is None or early_plan.score >> 16 < most):
                # the narrow pass reached the tiles the bound allows (the
                # rounded play did not): the bound capped to them may prove it
                capped = _capped(table, rack, jt, jr, weights, early, most)
                if capped is not early:
                    early = capped
                    if _proves(early, best.score + 1):
                        return best
        else:
            best = dp.run_dp(table, rack, jt, jr, weights=weights, beam=BEAM)
        widened = False
        if best is None and jt + jr >= WIDEN_JOKERS:
            # jokers to place: wider passes look for an incumbent, the
            # numbers the other way round first, then the same way (after
            # the bound: first kept to as many tiles as it allows)
            widened = True
            tries = [(b, r, None) for b, r in WIDER_PASSES]
            if early is not None and FOCUS_WIDE:
                most = int((early + SLACK) // dp.BIG)
                tries = [(b, r, max(0, total - most)) for b, r in WIDER_PASSES] + tries
            for beam, reverse, budget in tries:
                best = _wider_pass(table, rack, jt, jr, weights, beam, reverse, budget)
                if best is not None:
                    break
        floor = 0 if best is None else best.score
        from_beam = best is not None
        if best is None:
            best = dp.feasible(table, rack, jt, jr, budget=total)
            if best is None:
                return None
            if weights is None:
                floor = best.score  # (in face values)
        bound = total - (best.score >> 16)
        probe = None
        ub = None
        cap = 0  # when > 0: no plan places more tiles (the relaxation proved it)
        limit_tiles = 0  # when > 0: nor more than this (more than the incumbent)
        if from_beam and bound > 0 and PROBE:
            # the exact pass that proves the incumbent optimal is mostly
            # cheap: it is tried first, up to PROBE states; past that, the
            # linear relaxation's bound may prove it (or its tile count)
            flip = EXACT_DIRECTION and _lost_lie_high(best, table, rack)
            probe = _pass(table, rack, jt, jr, bound, weights, floor + 1, flip)
            probe.limit = PROBE
            try:
                plan = _finish(probe, flip)
                return plan if plan is not None else best
            except dp.SearchLimit:
                probe.limit = 0
            if early is not None:
                ub = early
                rounded = early_plan if early_plan is not None and \
                    early_plan.score > best.score else None
            else:
                ub = _relaxation(table, rack, jt, jr, weights)
                rounded = _rounded_plan(table, jt, best, weights) if ub is not None else None
            if _proves(ub, best.score + 1):
                return best  # no plan scores more
            if rounded is not None:
                # the relaxation's play, rounded down, divides with the table
                # and scores more: the new incumbent (often the optimum)
                best, floor = rounded, rounded.score
                if _proves(ub, best.score + 1):
                    return best
                bound = total - (best.score >> 16)
                probe.floor = floor + 1  # (only cuts more: still exact)
                probe.budget = bound
            if _proves(ub, ((best.score >> 16) + 1) * dp.BIG) and early is None:
                # no plan places more: the bound capped to its tiles may prove its value
                ub = _capped(table, rack, jt, jr, weights, ub, best.score >> 16)
                if _proves(ub, best.score + 1):
                    return best
            if _proves(ub, ((best.score >> 16) + 1) * dp.BIG):
                widened = True  # no plan places more: a wider pass now cannot help
                if TILE_CAP:
                    # the exact pass need only look for more value among
                    # plans of as many tiles
                    cap = best.score >> 16
                    probe.cap_tiles(cap)
            elif TILE_CAP and CAP_ALWAYS and ub is not None:
                # no plan places more than the bound allows (more than the
                # incumbent): the exact pass is told that count all the same
                most = int((ub + SLACK) // dp.BIG)
                if most < total:
                    probe.cap_tiles(most)
                    limit_tiles = most
        if from_beam and bound > 0 and jt + jr >= WIDEN_JOKERS and WIDER_PASSES and not widened:
            # jokers to place: the narrow pass often falls short (a tile or
            # two where every candidate fits, or more); a wider pass the
            # other way round finds a better incumbent at a fraction of
            # what each candidate of budget costs the exact pass
            beam, reverse = WIDER_PASSES[0]
            if ub is not None and FOCUS_WIDE:
                # kept to plans of as many tiles as the bound allows, scoring more
                most = int((ub + SLACK) // dp.BIG)
                wider = _wider_pass(table, rack, jt, jr, weights, beam, reverse,
                                    max(0, total - most), best.score + 1)
            else:
                wider = _wider_pass(table, rack, jt, jr, weights, beam, reverse)
            if wider is not None and wider.score > best.score:
                best, floor = wider, wider.score
                bound = total - (best.score >> 16)
                probe = None
                if _proves(ub, best.score + 1):
                    return best
                if TILE_CAP and WIDE_CAP and _proves(ub, ((best.score >> 16) + 1) * dp.BIG):
                    # the bound proves the wider plan's tile count: the exact
                    # pass looks only for more value (no second wider pass)
                    cap = best.score >> 16
                    widened = True
        if bound == 0 and floor:
            return best  # every candidate placed: nothing can score more
        if from_beam:
            # the heuristic pass's bound is nearly always tight: one exact
            # pass looking only for a plan that scores more than the
            # incumbent (states that can at best tie it are cut too)
            if probe is None:
                flip = EXACT_DIRECTION and _lost_lie_high(best, table, rack)
            # (else the probe's direction: the pass goes on that way, its
            # plan found reversed when it was)
            widen = None
            if cap and VALUE_WIDEN and jt + jr >= WIDEN_JOKERS and WIDER_PASSES and \
                    probe is not None:
                # the tiles are proved, the value not, and the exact pass
                # proves it slowly: a wider pass may find a plan of more
                # value, which raises its floor
                beam, reverse = WIDER_PASSES[0]
                widen = functools.partial(_wider_pass, table, rack, jt, jr, weights, beam,
                                          reverse, bound if FOCUS_WIDE else None,
                                          floor + 1 if FOCUS_WIDE else 0)
            plan, found = exact_pass(table, rack, jt, jr, bound, weights, floor + 1, flip,
                                     probe, cap or limit_tiles, widen)
            if plan is not None:
                return plan
            return found if found is not None else best
        # the depth-first play's bound often is not tight: budgets 0 (if not
        # yet ruled out), 1, 2, 4, ... up to the bound, the first that admits
        # a plan
        d = 0 if limited else 1
        if BUDGET_FROM_BOUND and bound > 1:
            # no plan places more than the relaxation allows: budgets below
            # the loss it proves admit none
            ub = early if early is not None else _relaxation(table, rack, jt, jr, weights)
            if ub is not None:
                d = max(d, total - int((ub + SLACK) // dp.BIG))
        while True:
            d = min(d, bound)
            plan = dp.run_dp(table, rack, jt, jr, budget=d, weights=weights,
                             floor=floor)
            if plan is not None:
                return plan
            if d >= bound:
                return best
            d = d * 2 if d else 1
    while True:
        budget = None if d >= total else d
        plan = dp.run_dp(table, rack, jt, jr, threshold=threshold, budget=budget,
                         weights=weights)
        if plan is not None or budget is None:
            return plan
        d = 1 if d == 0 else d * 2


# a solve's fixed costs trimmed: the inputs read once, the position
# oriented by slices (see oriented), sums by map (0: as before)
LEAN = 1

# with the table as a multiset, a solve's first steps on the position (the
# counts and the check of copies, the table's check, useful_rack and
# oriented) in C at once (dp.prelude; 0: one by one)
PRELUDE = 1


def _relaxation(table: list[int], rack: list[int], jt: int, jr: int,
                weights: list[int] | None, cap: int | None = None) -> float | None:
    """The linear relaxation's bound on any plan's score
    (:mod:`engine.solver.bound`; with ``cap``, on plans of at most ``cap``
    tiles), or ``None`` (not used, or not available)."""
    if not BOUND:
        return None
    cold = bool(LP_COLD) and sum(table) + jt >= LP_COLD
    return relaxation.score_bound(table, rack, jt, jr, weights, cold, cap)


def _capped(table: list[int], rack: list[int], jt: int, jr: int,
            weights: list[int] | None, ub: float | None, tiles: int) -> float | None:
    """When ``ub`` proves that no plan places more than ``tiles`` tiles: the
    relaxation's bound with that cap (``CAP_BOUND``), tighter on the value
    and still a bound on every plan, when it is lower; else ``ub``."""
    if not CAP_BOUND or ub is None or not _proves(ub, (tiles + 1) * dp.BIG):
        return ub
    capped = _relaxation(table, rack, jt, jr, weights, tiles)
    return ub if capped is None or capped >= ub else capped


def _rounded_plan(table: list[int], jt: int, best: dp.Plan | None,
                  weights: list[int] | None, failed: list[int] | None = None,
                  failed_jokers: int = 0) -> dp.Plan | None:
    """A plan playing exactly the rack tiles of the linear relaxation's
    optimum (:func:`engine.solver.bound.last_played`, each rounded down)
    when it scores more than ``best`` and the depth-first search finds
    it within ``ROUND_LIMIT`` states, the numbers taken upwards or else
    downwards (the search is quick one way or the other; upwards is not
    tried again when that play is ``failed`` + ``failed_jokers``, which
    the depth-first check gave up on); else ``None``. Its score is in
    ``weights`` (face values when ``None``), as the programme's."""
    if not ROUNDING:
        return None
    hint = relaxation.last_played()
    if hint is None:
        return None
    played, jokers = hint
    n = sum(played) + jokers
    value = sum(map(mul, played, _FACE if weights is None else weights))
    value += jokers * (dp.JOKER_VALUE if weights is None else weights[52])
    score = n * dp.BIG + value
    if n == 0 or best is not None and score <= best.score:
        return None
    layout = relaxation.last_layout() if LAYOUT else None
    if layout is not None:
        # the relaxation's optimum is integral: its shapes lay the play out
        return LaidPlan(score, jt + jokers, layout, played)
    if PARTIAL:
        plan = _partial_layout(table, jt, played, jokers, score)
        if plan is not None:
            return plan
    plan = None
    for reverse in (False, True):
        if not reverse and failed is not None and jokers == failed_jokers and \
                played == failed[:52]:
            continue
        try:
            if reverse:
                plan = dp.feasible(mirror(table), mirror(played), jt, jokers, budget=0,
                                   limit=ROUND_LIMIT)
            else:
                plan = dp.feasible(table, played, jt, jokers, budget=0, limit=ROUND_LIMIT)
        except dp.SearchLimit:
            continue
        if plan is None:
            return None  # it does not divide
        plan.reversed = reverse
        plan.score = score
        return plan
    return None


_FACE = [i % 13 + 1 for i in range(52)]  # the numbered tiles' face values


LAY_BACK = 1  # a laid plan laid back in the original position in C (0: in Python)


class LaidPlan:
    """A plan given as its melds (the linear relaxation's integral optimum,
    :func:`engine.solver.bound.last_layout`) rather than as the programme's
    steps: in the solved position (colours renamed, numbers reversed when
    the position was), never found reversed by :func:`best_plan` itself."""

    __slots__ = ("score", "jokers_used", "melds", "played", "surplus", "reversed")

    def __init__(self, score: int, jokers_used: int, melds: list[tuple[int, ...]],
                 played: list[int]) -> None:
        self.score = score
        self.jokers_used = jokers_used
        self.melds = melds
        self.played = played  # rack tiles placed, 52 counts
        self.surplus = 0  # every joker stands in a meld's slot
        self.reversed = False

    def lay_out(self, order: list[int], mirrored: bool) -> tuple[list[tuple], list[int]]:
        """As :func:`engine.solver.dp.lay_out`: the melds and the rack tiles
        placed in the original position (in C where the simplex in C is
        built, ``LAY_BACK``: its ``lay_back``)."""
        lp = relaxation._c_simplex() if LAY_BACK else None
        if lp is not None:
            return lp.lay_back(self.melds, self.played, order, mirrored)
        back = [order[k] * 13 + (12 - n if mirrored else n) for k in range(4) for n in range(13)]
        # (52 stands for no slot) a run's joker, where it stands; a group's
        back += [52] + [RUN_JOKER + x for x in back]
        back += [GROUP_JOKER + (12 - n if mirrored else n) for n in range(13)]
        melds = []
        for m in self.melds:
            slots = [back[s] for s in m]
            # in canonical order (engine.melds.canonical) as laid: a group's
            # by colour, jokers last; a run's by number, which a reversed
            # position reverses (a shape's slots come number by number)
            if max(m) >= GROUP_JOKER or m[0] < 52 and m[1] < 52 and m[0] % 13 == m[1] % 13:
                slots.sort()
            elif mirrored:
                slots.reverse()
            melds.append(tuple(slots))
        used = [0] * 52
        for code, k in enumerate(self.played):
            if k:
                used[back[code]] += k
        return melds, used


def _partial_layout(table: list[int], jt: int, played: list[int], jokers: int,
                    score: int) -> LaidPlan | None:
    """The play of the relaxation's optimum laid out with its whole melds
    (each shape's count rounded down, :func:`engine.solver.bound.last_shapes`)
    and the tiles those leave divided depth first on their own (a search
    far smaller than the whole play's: up to ``ROUND_LIMIT`` states); or
    ``None`` (nothing laid so, or the tiles left do not divide alone, or
    not found within the limit)."""
    shapes = relaxation.last_shapes()
    if shapes is None or not any(shapes):
        return None
    laid = relaxation.shapes_laid(shapes, [table[t] + played[t] for t in range(52)],
                                  jt + jokers)
    if laid is None:
        return None
    melds, rest, rest_jokers = laid
    if any(rest) or rest_jokers:
        try:
            sub = dp.feasible(rest, [0] * 52, rest_jokers, 0, budget=0, limit=ROUND_LIMIT)
        except dp.SearchLimit:
            return None
        if sub is None:
            return None
        more, _ = dp.lay_out(sub, IDENTITY, False)
        melds = melds + more
        for _ in range(sub.surplus):
            add_joker(melds)
    return LaidPlan(score, jt + jokers, melds, played)


def _proves(ub: float | None, score: int) -> bool:
    """Whether the bound ``ub`` rules out any plan scoring ``score`` or more
    (scores are integers; a plan of ``k`` tiles scores at least ``k *
    BIG``; the bound's rounding is far below ``SLACK``)."""
    return ub is not None and score > ub + SLACK


BOUND = True  # use the linear relaxation's bound where the exact pass is costly
# when the bound proves the incumbent's tile count, the exact pass cuts
# states by the value the most valuable candidates left could add
TILE_CAP = True
VALUE_WIDEN = 1
# after the bound: try the relaxation's play, rounded down, as an incumbent,
# searched depth first up to ROUND_LIMIT states each way (on 60 XP tables
# of 40 it divides with the table in 59; the search finds it within 1,000
# states one way in 38, 4,000 in 56, 2,000 each way in 57, at 1.5 ms a
# position)
ROUNDING = True
# when a wider pass finds a plan of as many tiles as the bound allows, the
# exact pass is told so (TILE_CAP)
WIDE_CAP = True
# the relaxation's play laid out with its whole melds first, the tiles they
# leave searched depth first on their own
PARTIAL = True
# without an incumbent from the passes, the loss budgets start at the loss
# the relaxation proves
BUDGET_FROM_BOUND = True
# the relaxation's optimum, when integral, is laid out as it stands (its
# shapes are melds) rather than searched for depth first
LAYOUT = True
ROUND_LIMIT = 2000
# with this many jokers or more (0: never), the bound and its rounded play
# are asked before the narrow pass (1 since the bound's simplex in C made
# the bound cheaper than the narrow pass: see docs/solver.md, "The bound's
# simplex in C")
LP_FIRST = 1
# 1: the bound asked first with no joker to place too (since a tile with no
# copy there takes no row in the bound's programme, a bound costs a fraction
# of the narrow pass and the exact pass's probe it most often spares; 0: as
# LP_FIRST alone)
LP_ALL = 1
# with the bound asked first, on tables of fewer tiles than this it is asked
# before the depth-first check too (on larger ones that check nearly always
# finds every candidate a place, and the bound would be wasted)
DFS_AFTER_BOUND = 50
# 1: where the bound proves the incumbent's tiles, the bound capped to them
CAP_BOUND = 1
# the nodes of the branch and bound on the bound's programme (after the
# bound asked first, its rounded play not proved; 0: none): past them (or
# where it gives up) the passes go on, from the best plan it found
BRANCH = 64
# 1: with the branch and bound on, the bound's optimum rounded down and
# laid out only where it is integral (else the branch and bound looks for
# the plan from no floor; 0: rounded down and searched for as before)
BRANCH_ROUNDING = 1
# 1: the branch and bound among plans of as many tiles as the bound allows
# at most (a cut every plan meets; 0: no cut)
BRANCH_CAP = 1
# 1: exact_pass asks its wider pass first (0: once neither direction has
# finished early, as before)
WIDEN_FIRST = 1
# the narrow pass after the bound asked first: budgeted by the tiles it allows
FOCUS = True
FOCUS_WIDE = True
SLACK = 1e-3
# on tables of this many tiles or more (jokers included; 0: never), the
# bound's linear programme is solved from HiGHS's slack basis, presolve off;
# else warm from the previous call's basis, presolve on. Measured on the
# benchmark's positions, each warm from the previous position's basis (same
# class): cold 0.9-1.0 ms a bound on tables of 40 (warm 1.1-1.2: as many
# iterations, each dearer), warm 0.85 on tables of 20 (67 iterations against
# 92 cold)
LP_COLD = 30


def _wider_pass(table: list[int], rack: list[int], jt: int, jr: int,
                weights: list[int] | None, beam: int, reverse: bool,
                budget: int | None = None, floor: int = 0) -> dp.Plan | None:
    """A wider heuristic pass (``beam`` states a layer), with the numbers
    reversed when ``reverse`` (see WIDER_PASSES), kept to plans losing at
    most ``budget`` candidates and scoring at least ``floor`` when given."""
    if not reverse:
        return dp.run_dp(table, rack, jt, jr, weights=weights, beam=beam, budget=budget,
                         floor=floor)
    plan = dp.run_dp(mirror(table), mirror(rack), jt, jr,
                     weights=_reversed_weights(weights), beam=beam, budget=budget, floor=floor)
    if plan is not None:
        plan.reversed = True
    return plan


def exact_pass(table: list[int], rack: list[int], jt: int, jr: int, budget: int,
               weights: list[int] | None, floor: int, flip: bool,
               favoured: dp.Pass | None = None, cap: int = 0,
               widen: Callable[[], dp.Plan | None] | None = None
               ) -> tuple[dp.Plan | None, dp.Plan | None]:
    """The exact pass after the heuristic one: the best plan losing at most
    ``budget`` candidates and scoring at least ``floor``, or ``None``.

    ``flip`` is the direction the incumbent's lost candidates favour (see
    :func:`_lost_lie_high`). It is the cheaper one most of the time, but on
    some positions (XP tables with three or four jokers laid) the other
    direction proves the same answer up to a hundred times faster. So the
    favoured direction runs until its layers have held ``EXACT_TRY[0]``
    states (stopping within a layer of that, at the last number it
    finished), then the other until ``EXACT_TRY[1]`` (given up there),
    then the favoured one on to the end; the first to finish answers (both
    are exact: the same score; the work is counted, not timed, so the
    answer never depends on the machine). A pass the favoured direction
    finishes early pays nothing; one that neither finishes early pays the
    other's ``EXACT_TRY[1]`` states and the favoured one's unfinished
    number again. A ``favoured`` pass given (the probe's, given up at its
    limit) first goes on for ``EXACT_RETRY`` states more. ``cap`` (when > 0): no plan places more tiles than that
    (see ``dp.Pass.cap_tiles``). ``widen``, when given, is asked for a
    plan first (``WIDEN_FIRST``; else once neither direction has finished
    early, before the favoured one goes on to the end): a plan scoring at
    least the floor raises it.

    :returns: the best plan scoring at least the floor (``None``: none),
        and the plan ``widen`` found that raised the floor (else ``None``).
    """
    first, then = EXACT_TRY
    tried = favoured is not None  # a pass the favoured way, given up at its limit
    found = None
    if widen is not None and WIDEN_FIRST:
        found = widen()
        if found is not None and found.score >= (floor if favoured is None else favoured.floor):
            floor = found.score + 1
            if favoured is not None:
                favoured.floor = floor
        else:
            found = None
        widen = None
    if favoured is None:
        favoured = _pass(table, rack, jt, jr, budget, weights, floor, flip, cap)
    if first:
        if not tried or EXACT_RETRY:
            # (a pass given up by the probe goes on a little: told the tile
            # count, or with a floor raised since, it often ends within it)
            favoured.limit = favoured.work + EXACT_RETRY if tried else first
            try:
                return _finish(favoured, flip), found
            except dp.SearchLimit:
                # it stays at the last number it finished (the one it was in
                # is taken again when it resumes)
                favoured.limit = 0
        # made only now (it fills the position caches too); given up
        # within a layer of its limit, never resumed
        other = _pass(table, rack, jt, jr, budget, weights, floor, not flip, cap)
        other.limit = then
        try:
            return _finish(other, not flip), found
        except dp.SearchLimit:
            pass
    if widen is not None:
        found = widen()
        if found is not None and found.score >= favoured.floor:
            favoured.floor = found.score + 1  # only plans that score more
        else:
            found = None
    return _finish(favoured, flip), found


def _finish(p: dp.Pass, reverse: bool) -> dp.Plan | None:
    """The pass run to its end; its plan marked as found reversed when it was."""
    plan = p.finish()
    if plan is not None and reverse:
        plan.reversed = True
    return plan


def _pass(table: list[int], rack: list[int], jt: int, jr: int, budget: int,
          weights: list[int] | None, floor: int, reverse: bool, cap: int = 0) -> dp.Pass:
    if reverse:
        p = dp.Pass(mirror(table), mirror(rack), jt, jr, budget=budget,
                    weights=_reversed_weights(weights), floor=floor)
    else:
        p = dp.Pass(table, rack, jt, jr, budget=budget, weights=weights, floor=floor)
    if cap:
        p.cap_tiles(cap)
    return p


# the work (states held) after which the exact pass's favoured direction,
# then the other, gives way (see exact_pass); (0, 0): the favoured one alone
EXACT_TRY = (2000, 16000)
# the work up to which the exact pass is tried before a wider pass (see best_plan)
PROBE = 2000
# the work the exact pass given up by the probe may add, the favoured way,
# before the other direction's try (see exact_pass)
EXACT_RETRY = 2000
# the exact pass is told the bound's tile count even when the incumbent
# places fewer
CAP_ALWAYS = 1


def mirror(counts: list[int]) -> list[int]:
    """52 counts with the numbers reversed (1 <-> 13, 2 <-> 12, ...; anything
    past index 51 kept): runs and groups read the same either way."""
    return [counts[c * 13 + 12 - n] for c in range(4) for n in range(13)] + list(counts[52:])


# face values of the tiles of a reversed position (the joker's last)
MIRRORED_VALUES = dp.MIRRORED_VALUES


MIRROR = True


def reversed_is_better(table: list[int], rack: list[int], jt: int) -> bool:
    """Whether to solve with the numbers reversed: when the candidates lie
    mostly above the middle, on a table of ``SMALL_TABLE`` tiles or more.
    The budgeted and bounded passes cut states once candidates are lost,
    so the candidates had better come early (on a small table the one
    unbudgeted pass gains nothing)."""
    if not MIRROR or sum(table) + jt < SMALL_TABLE:
        return False
    return sum(rack[i] * (i % 13 - 6) for i in range(52)) > 0


def colour_order(table: list[int], rack: list[int]) -> list[int]:
    """The colours, those with the fewest tiles (table + candidates) first:
    the order the programme takes them in within a number (the rules treat
    colours alike; fewer tiles first keeps the layers inside a number
    smaller, measured 10-20% faster on small and middle tables)."""
    tot = [sum(table[c * 13:c * 13 + 13]) + sum(rack[c * 13:c * 13 + 13]) for c in range(4)]
    return sorted(range(4), key=lambda c: tot[c])


def oriented(table: list[int], rack: list[int], jt: int, weights: list[int] | None
             ) -> tuple[list[int], list[int], list[int] | None, list[int], bool]:
    """The position as solved: the colours renamed (:func:`colour_order`,
    :func:`permute`) and, when :func:`reversed_is_better`, the numbers
    reversed (:func:`mirror`); the table, the rack and the weights (``None``:
    face values) so, the colour order, and whether reversed. The same as
    those functions in turn, by slices (a solve's fixed cost)."""
    t = [table[0:13], table[13:26], table[26:39], table[39:52]]
    r = [rack[0:13], rack[13:26], rack[26:39], rack[39:52]]
    tot = [sum(t[c]) + sum(r[c]) for c in range(4)]
    order = sorted(range(4), key=tot.__getitem__)
    a, b, c, d = order
    cp = r[a] + r[b] + r[c] + r[d]
    mirrored = MIRROR and sum(map(sum, t)) + jt >= SMALL_TABLE and \
        sum(map(mul, cp, _SIDE)) > 0
    if mirrored:
        tp = t[a][::-1] + t[b][::-1] + t[c][::-1] + t[d][::-1]
        cp = r[a][::-1] + r[b][::-1] + r[c][::-1] + r[d][::-1]
    else:
        tp = t[a] + t[b] + t[c] + t[d]
    return tp, cp, oriented_weights(weights, order, mirrored), order, mirrored


def oriented_weights(weights: list[int] | None, order: list[int], mirrored: bool
                     ) -> list[int] | None:
    """The weights of a position oriented by ``order`` and ``mirrored`` (see
    :func:`oriented`); ``None`` (face values) stays ``None`` unless reversed."""
    if weights is not None:
        a, b, c, d = order
        wp = weights[a * 13:a * 13 + 13] + weights[b * 13:b * 13 + 13] + \
            weights[c * 13:c * 13 + 13] + weights[d * 13:d * 13 + 13] + list(weights[52:])
        return mirror(wp) if mirrored else wp
    return MIRRORED_VALUES if mirrored else None


def oriented_by_steps(table: list[int], rack: list[int], jt: int, weights: list[int] | None
                      ) -> tuple[list[int], list[int], list[int] | None, list[int], bool]:
    """:func:`oriented` by the functions it stands for, one after the other
    (the solve's way with ``LEAN`` off)."""
    order = colour_order(table, rack)
    tp, cp = permute(table, order), permute(rack, order)
    wp = None if weights is None else permute(weights, order)
    mirrored = reversed_is_better(tp, cp, jt)
    if mirrored:
        tp, cp = mirror(tp), mirror(cp)
        wp = MIRRORED_VALUES if wp is None else mirror(wp)
    return tp, cp, wp, order, mirrored


# per code: its number's side of the middle (see reversed_is_better)
_SIDE = [i % 13 - 6 for i in range(52)]


def permute(counts: list[int], order: list[int]) -> list[int]:
    """52 counts with colour ``order[k]`` moved to colour ``k`` (anything
    past index 51 kept)."""
    return [counts[order[k] * 13 + n] for k in range(4) for n in range(13)] + list(counts[52:])


EXACT_DIRECTION = True


def _lost_lie_high(plan: dp.Plan, table: list[int], rack: list[int]) -> bool:
    """Whether the candidates ``plan`` leaves on the rack lie mostly above
    the middle: the exact pass then runs with the numbers reversed, so that
    they come first (a state that loses more than the budget is cut as soon
    as it does)."""
    used = plan_used(plan)
    if plan.reversed:
        used = mirror(used)
    if LEAN:
        return sum(map(mul, rack, _SIDE)) > sum(map(mul, used, _SIDE))
    return sum((rack[i] - u) * (i % 13 - 6) for i, u in enumerate(used)) > 0


def plan_used(plan: dp.Plan) -> list[int]:
    """The counts of rack tiles ``plan`` places, read off its steps (in the
    position it was found on: reversed when ``plan.reversed``)."""
    if isinstance(plan, LaidPlan):
        return list(plan.played)
    used = [0] * 52
    for n, (_, _, per_colour) in enumerate(plan.steps):
        for c in range(4):
            used[c * 13 + n] = per_colour[c][0][3]
    return used


def _reversed_weights(weights: list[int] | None) -> list[int] | None:
    """The values of the reversed position (face values when ``weights`` is
    ``None``)."""
    if weights is None:
        return dp.MIRRORED_VALUES
    if weights is dp.MIRRORED_VALUES:
        return None
    return mirror(weights)


IDENTITY = [0, 1, 2, 3]


def build_melds(plan: dp.Plan, order: list[int] | None = None,
                mirrored: bool = False) -> tuple[list[tuple], list[int]]:
    """Replay a plan into melds (canonical slot tuples, see
    :mod:`engine.melds`) and the counts of rack tiles it places, in the
    original position: ``plan`` was found with the colours renamed by
    ``order`` (see :func:`permute`) and, when ``mirrored``, the numbers
    reversed (a plan found reversed by :func:`best_plan` itself says so)."""
    if isinstance(plan, LaidPlan):
        return plan.lay_out(order or IDENTITY, mirrored != plan.reversed)
    melds, used = dp.lay_out(plan, order or IDENTITY, mirrored != plan.reversed)
    for _ in range(plan.surplus):
        add_joker(melds)
    return melds, used


def _run_span(m: tuple) -> tuple[int, int, int]:
    """(colour, lowest number index, highest) of a run's slots."""
    codes = [s if s < 52 else s - RUN_JOKER for s in m]
    return codes[0] // 13, min(c % 13 for c in codes), max(c % 13 for c in codes)


def add_joker(melds: list[tuple]) -> None:
    """Put one more joker into ``melds`` (in place): into a group of three,
    else at an end of a run, else splitting a run of 13 first.

    :raises ValueError: no meld can take it (the plan promised room).
    """
    for i, m in enumerate(melds):
        if len(m) == 3 and any(s >= GROUP_JOKER for s in m) or (
                len(m) == 3 and len({s % 13 for s in m if s < 52}) == 1
                and all(s < 52 for s in m) and len({s // 13 for s in m}) == 3):
            number = next(s % 13 for s in m if s < 52)
            melds[i] = canonical(m + (GROUP_JOKER + number,))
            return
    for i, m in enumerate(melds):
        if _is_run(m):
            colour, lo, hi = _run_span(m)
            if hi < 12:
                melds[i] = canonical(m + (RUN_JOKER + colour * 13 + hi + 1,))
                return
            if lo > 0:
                melds[i] = canonical(m + (RUN_JOKER + colour * 13 + lo - 1,))
                return
    for i, m in enumerate(melds):
        if _is_run(m) and len(m) >= 6:
            slots = sorted(m, key=lambda s: (s if s < 52 else s - RUN_JOKER) % 13)
            for cut in range(3, len(slots) - 2):
                left, right = slots[:cut], slots[cut:]
                if any(s < 52 for s in left) and any(s < 52 for s in right):
                    colour, lo, hi = _run_span(tuple(left))
                    melds[i] = canonical(tuple(left) + (RUN_JOKER + colour * 13 + hi + 1,))
                    melds.append(canonical(tuple(right)))
                    return
    raise ValueError("no room for a joker")


def _is_run(m: tuple) -> bool:
    return meld_kind(m) == "run"
