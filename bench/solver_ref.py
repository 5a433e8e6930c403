"""Benchmark: the solver side by side with rummikub-solver, position by
position, in the same process.

rummikub-solver (PyPI, MIT; Den Hertog and Hulshof's integer programme
through cvxpy) is an optional bench dependency:
``.venv/bin/pip install -e '.[bench-ref]'`` brings it with GLPK
(``cvxopt``), the backend its documentation names for mixed-integer work.
Its model is built once per tile set, as its README advises, and reused
with new parameters for every position; the first solve of each set is a
warm-up, not timed.

The positions are ``bench/solver.py``'s (same seeds, same classes, late
play included); the initial-meld positions are left out (rummikub-solver's
initial mode asks another question). For every position both answer "how
many rack tiles can go on the table" (theirs: ``SolverMode.TILE_COUNT``);
the counts must agree. Prints every position's times and ratio (theirs /
ours: above 1 is faster here), the median and worst ratio per class, and
the worst over all.

    .venv/bin/python bench/solver_ref.py                # 8 positions a class
    .venv/bin/python bench/solver_ref.py --per-size 20 --sizes xp:80,xp:full
    .venv/bin/python bench/solver_ref.py --quiet        # class lines only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

try:
    from rummikub_solver import GameState, RuleSet, SolverMode  # noqa: E402
except ImportError:  # an optional dependency: say how to get it
    sys.exit("bench/solver_ref.py needs rummikub-solver: .venv/bin/pip install -e '.[bench-ref]'")

from solver import sizes_option, position, sizes, warm  # noqa: E402

from engine.solver import core, solve  # noqa: E402
from engine.tiles import JOKER, XP  # noqa: E402


def their_rules(ts) -> RuleSet:
    """rummikub-solver's rule set for one of our tile sets (its tiles are
    numbered 1.., colour by colour, as ours from 0; the joker last)."""
    xp = ts is XP
    return RuleSet(numbers=13, colours=4, repeats=3 if xp else 2, jokers=4 if xp else 2,
                   min_len=3, min_initial_value=30)


def their_state(rules: RuleSet, table: list[int], rack: list[int]) -> GameState:
    state = rules.new_game()
    state.initial = False
    joker = rules.tile_count
    state.add_table(*[joker if t == JOKER else t + 1 for t in table])
    state.add_rack(*[joker if t == JOKER else t + 1 for t in rack])
    return state


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=8, help="positions per class (default 8)")
    ap.add_argument("--seed", default="bench-solver")
    ap.add_argument("--sizes", default=None, type=sizes_option,
                    help="only these set:table classes (as bench/solver.py)")
    ap.add_argument("--quiet", action="store_true", help="no line per position")
    args = ap.parse_args(argv)
    only = args.sizes
    warm(solve)
    rulesets = {}
    print(f"solver: {core.BUILD}; reference: rummikub-solver with GLPK_MI (model built once per set)")
    worst = (float("inf"), "")
    ratios, mismatches, total = [], 0, 0
    started = time.perf_counter()
    for name, ts, size, draws in sizes(args.seed, args.per_size):
        if only is not None and (name, size) not in only:
            continue
        if size == 0:
            continue  # an empty table: the initial meld, another question there
        if name not in rulesets:
            rulesets[name] = their_rules(ts)
            t, r = position(f"warm-{name}", ts, 40, 14)
            rulesets[name].solve(their_state(rulesets[name], t, r), SolverMode.TILE_COUNT)
        rules = rulesets[name]
        mine, theirs, class_ratios = [], [], []
        for pos_seed, table_size, rack_size in draws:
            table, rack = position(pos_seed, ts, table_size, rack_size)
            t0 = time.perf_counter()
            ours = solve(table, rack, tileset=ts)
            t1 = time.perf_counter()
            ref = rules.solve(their_state(rules, table, rack), SolverMode.TILE_COUNT)
            t2 = time.perf_counter()
            placed = len(ref.tiles) if ref is not None else 0
            ratio = (t2 - t1) / (t1 - t0)
            mine.append(t1 - t0)
            theirs.append(t2 - t1)
            class_ratios.append(ratio)
            total += 1
            where = f"{name} table {len(table)} rack {len(rack)} ({pos_seed})"
            if ratio < worst[0]:
                worst = (ratio, where)
            agree = placed == ours.tiles_placed
            mismatches += not agree
            if not args.quiet or not agree:
                print(f"  {where:44} ours {1e3 * (t1 - t0):8.2f} ms  theirs {1e3 * (t2 - t1):8.2f} ms"
                      f"  {ratio:7.1f}x  placed {ours.tiles_placed}"
                      + ("" if agree else f"  MISMATCH: theirs {placed}"), flush=True)
        ratios += class_ratios
        label = f"{size}" if isinstance(size, int) else size
        print(f"{name:9}{label:>6}{len(draws):>4} | ours med {1e3 * statistics.median(mine):7.2f} ms"
              f" worst {1e3 * max(mine):7.2f} ms | theirs med {1e3 * statistics.median(theirs):8.2f} ms"
              f" | ratio med {statistics.median(class_ratios):6.1f}x worst {min(class_ratios):5.1f}x",
              flush=True)
    print(f"\n{total} positions, {mismatches} answers differ; median ratio "
          f"{statistics.median(ratios):.1f}x; worst ratio {worst[0]:.2f}x on {worst[1]}; "
          f"{time.perf_counter() - started:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
