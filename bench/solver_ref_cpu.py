"""Benchmark: settings of the solver side by side with rummikub-solver's
GLPK_MI, position by position, in CPU time.

On a shared machine wall times swing several-fold between runs; CPU time
(``time.process_time``) much less. Every position of ``bench/solver_ref.py``
(same seeds and classes, openings left out) is solved by GLPK_MI and by
each variant of the solver's settings, in alternating order, each side
twice and timed by the better of its two solves (``--ours-once``: the
variants once, as before 2026-11-28), with the per-position caches
cleared before each solve of ours (each solves the position cold, as the
benchmark's single solve does; the reference keeps its model of the
rules from one position to the next, as it does there). A variant is a name
and ``core`` settings (``bound.NAME``: the bound module's; ``dp.NAME``: the
programme's), e.g.
``before=PROBE:0,BOUND:0`` (integers; empty: the defaults). The answers
must agree. Prints per class and variant the
median time and ratio, the worst ratio and the positions below 1x, then the
same per seed, per class over the seeds and over all, and on how many positions the variants' plays
(or the same play's melds) differ; with ``--below R`` also each position
whose ratio is below R.

    .venv/bin/python bench/solver_ref_cpu.py --seeds bench-solver,club-a \\
        --variant before=PROBE:0,BOUND:0 --variant after=
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
    from rummikub_solver import SolverMode  # noqa: E402
except ImportError:
    sys.exit(f"bench/{Path(sys.argv[0]).name} needs rummikub-solver: .venv/bin/pip install -e '.[bench-ref]'")

from solver import position, sizes, sizes_option, warm  # noqa: E402
from solver_ref import their_rules, their_state  # noqa: E402

from engine.solver import bound, core, division, solve  # noqa: E402


def _module(attr: str):
    """The module a setting lives in and its name there: ``core``'s,
    ``bound.NAME`` (the linear relaxation's) or ``dp.NAME`` (the
    programme's that runs: ``dp.KERNEL:0``, every pass without the layers
    in C)."""
    if attr.startswith("bound."):
        return bound, attr[len("bound."):]
    if attr.startswith("dp."):
        return core.dp, attr[len("dp."):]
    return core, attr


def variant_option(text: str) -> tuple[str, dict[str, int]]:
    """``--variant NAME=ATTR:INT,...``: a name and ``core`` settings
    (``bound.ATTR``: the bound module's)."""
    name, _, rest = text.partition("=")
    settings = {}
    for item in filter(None, rest.split(",")):
        attr, _, value = item.partition(":")
        module, short = _module(attr)
        if not hasattr(module, short):
            raise argparse.ArgumentTypeError(f"{module.__name__} has no setting {short!r}")
        settings[attr] = int(value)
    return name, settings


# the bound's calls on the position being solved, and the last call on the
# position before it (see clear_caches)
_ASKED: list = []
_PREVIOUS: list = []
_score_bound = bound.score_bound


def _recorded(*args, **kwargs):
    _ASKED.append(args[:5])  # (the cold flag left out)
    return _score_bound(*args, **kwargs)


bound.score_bound = _recorded


def next_position() -> None:
    """Before the solves of a new position: its bound's basis will be the
    previous position's (see clear_caches)."""
    if _ASKED:
        _PREVIOUS[:] = [_ASKED[-1]]
    _ASKED.clear()


def clear_caches() -> None:
    dp = core.dp
    for cache in (dp._OPTS, dp._PREP, dp._AHEAD, dp._LIMITS, division._DIVISIBLE):
        cache.clear()
    # and the bound's basis, set to the previous position's optimum (as a
    # solver solving one position after another keeps it), not the same
    # position's (the other variant's solve, or the first of two), from
    # which the bound takes no iteration
    bound.forget()
    if _PREVIOUS and bound._c_simplex() is None:
        _score_bound(*_PREVIOUS[0], cold=False)  # (HiGHS only: the simplex in C starts cold)


def load_average() -> str:
    """The machine's load averages (1, 5, 15 minutes), as the benches print them."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def summary(ratios: list[float]) -> str:
    return (f"median {statistics.median(ratios):6.1f}x worst {min(ratios):5.2f}x "
            f"below 1x {sum(r < 1 for r in ratios):3}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="bench-solver", help="seeds, comma-separated")
    ap.add_argument("--per-size", type=int, default=30)
    ap.add_argument("--sizes", default=None, type=sizes_option,
                    help="only these set:table classes (as bench/solver.py)")
    ap.add_argument("--variant", action="append", type=variant_option, default=None,
                    help="NAME=ATTR:INT,... (core settings, bound.ATTR the bound's, dp.ATTR the programme's; "
                         "repeat; default: the defaults)")
    ap.add_argument("--ours-once", action="store_true",
                    help="time each variant by one solve (default: the better of two, as the reference)")
    ap.add_argument("--below", type=float, default=0.0,
                    help="print each position whose ratio is below this (default 0: none)")
    args = ap.parse_args(argv)
    variants = args.variant or [("current", {})]
    defaults = {attr: getattr(*_module(attr)) for _, s in variants for attr in s}
    warm(solve)
    tries = 1 if args.ours_once else 2
    print(f"solver: {core.BUILD}, bound: {bound.backend()}; reference: rummikub-solver with "
          f"GLPK_MI; CPU time, each side the better of {'two' if tries == 2 else 'two (ours: one)'}; "
          f"load average {load_average()}", flush=True)
    rulesets: dict = {}
    total = {name: [] for name, _ in variants}
    per_class: dict = {}  # (class, size) -> variant -> ratios over the seeds
    turn = 0
    other_play = other_layout = 0
    for seed in args.seeds.split(","):
        per_seed = {name: [] for name, _ in variants}
        for cls, ts, size, draws in sizes(seed, args.per_size):
            if size == 0 or (args.sizes is not None and (cls, size) not in args.sizes):
                continue
            if cls not in rulesets:
                rulesets[cls] = their_rules(ts, "GLPK_MI")
                t, r = position(f"warm-{cls}", ts, 40, 14)
                rulesets[cls].solve(their_state(rulesets[cls], t, r), SolverMode.TILE_COUNT)
            rules = rulesets[cls]
            ratios = {name: [] for name, _ in variants}
            times = {name: [] for name, _ in variants}
            theirs = []
            for pos_seed, table_size, rack_size in draws:
                table, rack = position(pos_seed, ts, table_size, rack_size)
                next_position()
                took = float("inf")
                for _ in range(2):
                    t0 = time.process_time()
                    ref = rules.solve(their_state(rules, table, rack), SolverMode.TILE_COUNT)
                    took = min(took, time.process_time() - t0)
                theirs.append(took)
                placed = len(ref.tiles) if ref is not None else 0
                order = variants if turn % 2 == 0 else variants[::-1]
                turn += 1
                answers = set()
                plays, layouts = set(), set()
                for name, settings in order:
                    for attr, value in defaults.items():
                        setattr(*_module(attr), settings.get(attr, value))
                    ours = float("inf")
                    for _ in range(tries):
                        clear_caches()
                        t0 = time.process_time()
                        got = solve(table, rack, tileset=ts)
                        ours = min(ours, time.process_time() - t0)
                    answers.add((got.tiles_placed, got.value_placed))
                    plays.add(tuple(sorted(got.play)))
                    layouts.add(tuple(sorted(tuple(m) for m in got.melds)))
                    if got.tiles_placed != placed:
                        print(f"  MISMATCH {pos_seed} {name}: {got.tiles_placed}, theirs {placed}")
                        return 1
                    times[name].append(ours)
                    ratios[name].append(took / ours)
                    if took / ours < args.below:
                        print(f"  {pos_seed} {name}: {took / ours:.2f}x, ours {1e3 * ours:.2f} ms, "
                              f"GLPK_MI {1e3 * took:.2f} ms", flush=True)
                if len(answers) != 1:
                    print(f"  the variants differ on {pos_seed}: {answers}")
                    return 1
                # ties: the same tiles and value by another play, or the
                # same play laid out otherwise
                other_play += len(plays) > 1
                other_layout += len(plays) == 1 and len(layouts) > 1
            line = f"{seed:13}{cls:9}{size!s:>6}{len(draws):>4} | GLPK_MI {1e3 * statistics.median(theirs):6.2f} ms"
            for name, _ in variants:
                per_seed[name] += ratios[name]
                per_class.setdefault((cls, size), {}).setdefault(name, []).extend(ratios[name])
                line += (f" | {name} {1e3 * statistics.median(times[name]):6.2f} ms "
                         f"{summary(ratios[name])}")
            print(line, flush=True)
        for name, _ in variants:
            total[name] += per_seed[name]
            print(f"seed {seed} {name}: {len(per_seed[name])} positions, {summary(per_seed[name])}",
                  flush=True)
    for attr, value in defaults.items():
        setattr(*_module(attr), value)
    print()
    for (cls, size), got in per_class.items():
        print(f"class {cls} {size!s:>4}, all seeds: " + " | ".join(
            f"{name} {len(r)} positions, {summary(r)}" for name, r in got.items()))
    for name, _ in variants:
        print(f"all seeds {name}: {len(total[name])} positions, {summary(total[name])}")
    if len(variants) > 1:
        print(f"the variants' answers (tiles, value) agree on every position; the plays "
              f"differ on {other_play}, the same play's melds on {other_layout}")
    print(f"load average {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
