"""Benchmark: where the solver's CPU time goes on the positions of
``bench/solver_ref.py``, against rummikub-solver's GLPK_MI.

Every position of the classes chosen is solved by GLPK_MI (best of two)
and by the solver (best of two, each cold: the per-position caches
cleared), with the solver's stages timed (CPU time): the linear
relaxation's bound, its rounded play, the narrow (``beam32``) and wider
(``beam128``) passes, the depth-first searches (``feasible``; ``_lim``:
with a limit), a solve's first steps (``prelude``), the exact pass (``exact_pass``, which holds its
``_finish`` calls and a wider pass it asks). Prints the positions whose
ratio (GLPK_MI / ours) is below ``--below``, with their stages; with
``--passes`` also each pass of the programme that the exact pass runs (its
states, the direction, the number it reached) and the wider passes. Then
the stages summed over all positions.

    .venv/bin/python bench/solver_ref_prof.py --seeds bench-solver,club-a --sizes xp:40
    .venv/bin/python bench/solver_ref_prof.py --only club-a-xp-40-4 --passes \\
        --set EXACT_RETRY:0
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

# the reference solver, the positions and the settings as bench/solver_ref_cpu.py has them
# (which exits, naming this script, without rummikub-solver)
from solver_ref_cpu import (SolverMode, _module, clear_caches, load_average, next_position, position,  # noqa: E402
                            sizes, sizes_option, their_rules, their_state, variant_option, warm)

from engine.solver import api, core, solve  # noqa: E402

STAGE = collections.Counter()
LOG: list[str] = []


class _Timed:
    """``core.dp`` with its passes and searches timed."""

    def __init__(self, module) -> None:
        self._m = module

    def __getattr__(self, name):
        real = getattr(self._m, name)
        if name not in ("run_dp", "feasible", "prelude"):
            return real

        def timed(*args, **kwargs):
            t0 = time.process_time()
            try:
                return real(*args, **kwargs)
            finally:
                key = name + (f"_beam{kwargs['beam']}" if kwargs.get("beam") else "") + \
                    ("_lim" if kwargs.get("limit") else "")
                STAGE[key] += time.process_time() - t0
        return timed


def _timed(name: str, log=None, module=core) -> None:
    real = getattr(module, name)

    def timed(*args, **kwargs):
        t0 = time.process_time()
        out = given_up = None
        try:
            out = real(*args, **kwargs)
        except core.dp.SearchLimit:
            given_up = True
            raise
        finally:
            STAGE[name] += time.process_time() - t0
            if log is not None:
                LOG.append(log(args, out, given_up))
        return out
    setattr(module, name, timed)


def _finish_log(args, out, given_up) -> str:
    p, reverse = args
    return (f"pass{' reversed' if reverse else ''}: {p.work} states, "
            f"{'given up after number' if given_up else 'ended at number'} {p.n}")


def _wider_log(args, out, given_up) -> str:
    got = "nothing" if out is None else f"{out.score >> 16} tiles, value {out.score & 0xFFFF}"
    return f"wider pass: {got}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="bench-solver", help="seeds, comma-separated")
    ap.add_argument("--per-size", type=int, default=30)
    ap.add_argument("--sizes", default=None, type=sizes_option,
                    help="only these set:table classes (as bench/solver.py)")
    ap.add_argument("--only", default="", help="only these positions (comma-separated)")
    ap.add_argument("--below", type=float, default=1.0, help="print positions below this ratio")
    ap.add_argument("--set", default="",
                    help="ATTR:INT,... core settings (bound.ATTR: the bound's)")
    ap.add_argument("--passes", action="store_true", help="print each pass")
    args = ap.parse_args(argv)
    for attr, value in variant_option("x=" + args.set)[1].items():
        setattr(*_module(attr), value)
    only = set(filter(None, args.only.split(",")))
    seeds = args.seeds.split(",")
    if only:
        seeds = sorted({p.rsplit("-", 3)[0] for p in only})
    core.dp = _Timed(core.dp)
    for name in ("_relaxation", "_rounded_plan", "exact_pass"):
        _timed(name)
    _timed("_finish", _finish_log if args.passes else None)
    _timed("_wider_pass", _wider_log if args.passes else None)
    # the solve's fixed part: what the API does around the driver
    _timed("best_plan")
    _timed("build_melds")
    _timed("divisible", module=api)
    _timed("branch", module=core.relaxation)  # the branch and bound on the bound's programme
    warm(solve)
    print(f"solver: {core.BUILD}; CPU time; load average "
          f"{load_average()}", flush=True)
    rules: dict = {}
    total = collections.Counter()
    ours_total = 0.0
    for seed in seeds:
        for cls, ts, size, draws in sizes(seed, args.per_size):
            if size == 0 or (args.sizes is not None and (cls, size) not in args.sizes):
                continue
            for pos_seed, table_size, rack_size in draws:
                if only and pos_seed not in only:
                    continue
                if cls not in rules:
                    rules[cls] = their_rules(ts, "GLPK_MI")
                    t, r = position(f"warm-{cls}", ts, 40, 14)
                    rules[cls].solve(their_state(rules[cls], t, r), SolverMode.TILE_COUNT)
                table, rack = position(pos_seed, ts, table_size, rack_size)
                next_position()
                theirs = float("inf")
                for _ in range(2):
                    t0 = time.process_time()
                    rules[cls].solve(their_state(rules[cls], table, rack), SolverMode.TILE_COUNT)
                    theirs = min(theirs, time.process_time() - t0)
                ours = float("inf")
                for _ in range(2):
                    STAGE.clear()
                    LOG.clear()
                    clear_caches()
                    t0 = time.process_time()
                    solve(table, rack, tileset=ts)
                    took = time.process_time() - t0
                    if took < ours:
                        ours, stages, log = took, dict(STAGE), list(LOG)
                ours_total += ours
                total.update(stages)
                if theirs / ours < args.below:
                    print(f"{pos_seed:28} ours {1e3 * ours:6.2f} ms GLPK_MI {1e3 * theirs:6.2f} ms "
                          f"{theirs / ours:5.2f}x | " + " ".join(
                              f"{k}={1e3 * v:.1f}" for k, v in sorted(stages.items())), flush=True)
                    for line in log:
                        print(f"    {line}")
    print(f"ours in total {1e3 * ours_total:.1f} ms; stages: " + ", ".join(
        f"{k} {1e3 * v:.1f}" for k, v in total.most_common()))
    print(f"outside best_plan {1e3 * (ours_total - total['best_plan']):.1f} ms (a solve's first "
          f"steps, prelude - the table's check among them - or divisible where they run one "
          f"by one, and the layout, build_melds, among it)")
    print(f"load average {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
