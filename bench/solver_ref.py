"""Benchmark: the solver side by side with rummikub-solver, position by
position, in the same process.

rummikub-solver (PyPI, MIT; Den Hertog and Hulshof's integer programme
through cvxpy) is an optional bench dependency:
``.venv/bin/pip install -e '.[bench-ref]'`` brings it with GLPK
(``cvxopt``), the backend its documentation names for mixed-integer work.
Its backend is set explicitly (``--backends``, default ``GLPK_MI,SCIPY``:
GLPK's and SciPy's HiGHS, each timed against ours on every position; left
to itself, rummikub-solver picks SciPy when it is installed) and printed.
Its model is built once per tile set and backend, as its README advises,
and reused with new parameters for every position; the first solve of
each is a warm-up, not timed.

The positions are ``bench/solver.py``'s (same seeds, same classes, late
play included); the initial-meld positions are left out (rummikub-solver's
initial mode asks another question). For every position both answer "how
many rack tiles can go on the table" (theirs: ``SolverMode.TILE_COUNT``);
the counts must agree. Prints every position's times and ratios (theirs /
ours: above 1 is faster here), per class and backend the median and worst
ratio, and per seed and backend the median and worst ratio and the
positions below 1x (the seeds: ``--seeds``, one after the other).

    .venv/bin/python bench/solver_ref.py                # 8 positions a class
    .venv/bin/python bench/solver_ref.py --per-size 20 --sizes xp:80,xp:full
    .venv/bin/python bench/solver_ref.py --quiet --per-size 30 \
        --seeds bench-solver,club-a,club-b,club-c,club-d --backends GLPK_MI
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

try:
    from rummikub_solver import GameState, MILPSolver, RuleSet, SolverMode  # noqa: E402
except ImportError:  # an optional dependency: say how to get it
    sys.exit("bench/solver_ref.py needs rummikub-solver: .venv/bin/pip install -e '.[bench-ref]'")

from solver import sizes_option, position, sizes, warm  # noqa: E402

from engine.solver import core, solve  # noqa: E402
from engine.tiles import JOKER, XP  # noqa: E402


NAMES = {"GLPK_MI": "GLPK_MI", "SCIPY": "HiGHS (SciPy)", "HIGHS": "HiGHS (highspy)"}


def their_rules(ts, backend: str) -> RuleSet:
    """rummikub-solver's rule set for one of our tile sets (its tiles are
    numbered 1.., colour by colour, as ours from 0; the joker last), with
    its backend set (never its own choice)."""
    xp = ts is XP
    rules = RuleSet(numbers=13, colours=4, repeats=3 if xp else 2, jokers=4 if xp else 2,
                    min_len=3, min_initial_value=30, solver_backend=MILPSolver(backend))
    assert rules.backend == MILPSolver(backend), rules.backend
    return rules


def their_state(rules: RuleSet, table: list[int], rack: list[int]) -> GameState:
    state = rules.new_game()
    state.initial = False
    joker = rules.tile_count
    state.add_table(*[joker if t == JOKER else t + 1 for t in table])
    state.add_rack(*[joker if t == JOKER else t + 1 for t in rack])
    return state


def backends_option(text: str) -> list[str]:
    """``--backends``: names of rummikub-solver's backends, installed."""
    out = [b.strip().upper() for b in text.split(",") if b.strip()]
    have = {str(b) for b in MILPSolver.supported()}
    for b in out:
        if b not in have:
            raise argparse.ArgumentTypeError(
                f"{b} is not installed (installed: {', '.join(sorted(have))})")
    return out


def summary(ratios: list[float]) -> str:
    below = sum(r < 1 for r in ratios)
    return (f"median {statistics.median(ratios):6.1f}x worst {min(ratios):5.2f}x "
            f"below 1x {below}")


def run_seed(seed: str, args, backends: list[str], rulesets: dict) -> tuple[dict, int]:
    """One seed's positions: per backend the ratios, and the answers that
    differ."""
    ratios = {b: [] for b in backends}
    worst = {b: (float("inf"), "") for b in backends}
    mismatches = 0
    for name, ts, size, draws in sizes(seed, args.per_size):
        if args.sizes is not None and (name, size) not in args.sizes:
            continue
        if size == 0:
            continue  # an empty table: the initial meld, another question there
        for b in backends:
            if (name, b) not in rulesets:
                rulesets[name, b] = their_rules(ts, b)
                t, r = position(f"warm-{name}", ts, 40, 14)
                rulesets[name, b].solve(their_state(rulesets[name, b], t, r), SolverMode.TILE_COUNT)
        mine, theirs = [], {b: [] for b in backends}
        class_ratios = {b: [] for b in backends}
        for pos_seed, table_size, rack_size in draws:
            table, rack = position(pos_seed, ts, table_size, rack_size)
            t0 = time.perf_counter()
            ours = solve(table, rack, tileset=ts)
            ms = time.perf_counter() - t0
            mine.append(ms)
            where = f"{name} table {len(table)} rack {len(rack)} ({pos_seed})"
            line = f"  {where:50} ours {1e3 * ms:8.2f} ms"
            for b in backends:
                rules = rulesets[name, b]
                t1 = time.perf_counter()
                ref = rules.solve(their_state(rules, table, rack), SolverMode.TILE_COUNT)
                took = time.perf_counter() - t1
                placed = len(ref.tiles) if ref is not None else 0
                ratio = took / ms
                theirs[b].append(took)
                class_ratios[b].append(ratio)
                if ratio < worst[b][0]:
                    worst[b] = (ratio, where)
                agree = placed == ours.tiles_placed
                mismatches += not agree
                line += f"  {b} {1e3 * took:8.2f} ms {ratio:7.1f}x"
                if not agree:
                    line += f" MISMATCH: theirs {placed}"
            if not args.quiet or "MISMATCH" in line or min(class_ratios[b][-1] for b in backends) < 1:
                print(line + f"  placed {ours.tiles_placed}", flush=True)
        label = f"{size}" if isinstance(size, int) else size
        for b in backends:
            ratios[b] += class_ratios[b]
            print(f"{seed:13}{name:9}{label:>6}{len(draws):>4} {b:8}| ours med "
                  f"{1e3 * statistics.median(mine):7.2f} ms worst {1e3 * max(mine):7.2f} ms | "
                  f"theirs med {1e3 * statistics.median(theirs[b]):8.2f} ms | ratio "
                  f"{summary(class_ratios[b])}", flush=True)
    for b in backends:
        print(f"seed {seed} {NAMES.get(b, b)}: {len(ratios[b])} positions, "
              f"{summary(ratios[b])} ({worst[b][1]})", flush=True)
    return ratios, mismatches


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=8, help="positions per class (default 8)")
    ap.add_argument("--seed", default=None, help="one seed (default bench-solver)")
    ap.add_argument("--seeds", default=None,
                    help="seeds, comma-separated, run one after the other")
    ap.add_argument("--backends", default="GLPK_MI,SCIPY", type=backends_option,
                    help="rummikub-solver backends (default GLPK_MI,SCIPY)")
    ap.add_argument("--sizes", default=None, type=sizes_option,
                    help="only these set:table classes (as bench/solver.py)")
    ap.add_argument("--quiet", action="store_true",
                    help="no line per position (except those below 1x or differing)")
    args = ap.parse_args(argv)
    seeds = (args.seeds.split(",") if args.seeds else []) + ([args.seed] if args.seed else [])
    seeds = seeds or ["bench-solver"]
    warm(solve)
    print(f"solver: {core.BUILD}; reference: rummikub-solver with "
          f"{', '.join(NAMES.get(b, b) for b in args.backends)} (backend set explicitly; "
          f"model built once per set and backend); load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    started = time.perf_counter()
    rulesets: dict = {}
    everything = {b: [] for b in args.backends}
    mismatches = 0
    for seed in seeds:
        ratios, differ = run_seed(seed, args, args.backends, rulesets)
        mismatches += differ
        for b in args.backends:
            everything[b] += ratios[b]
    print()
    for b in args.backends:
        print(f"all seeds {NAMES.get(b, b)}: {len(everything[b])} positions, {summary(everything[b])}")
    print(f"{mismatches} answers differ; {time.perf_counter() - started:.0f} s; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
