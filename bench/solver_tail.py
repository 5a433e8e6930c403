"""Benchmark: the solver's XP tail, with and without the wider heuristic
passes (``engine.solver.core.WIDER_PASSES``), on the same seeded positions in
one process.

180 XP positions (a divisible table of 40-80 tiles, a rack of 14-30 from
the rest, drawn from ``--seed``): each solved three times with the passes
and three times without (the best of three counts), and printed: the median,
the worst, how many take over 100 ms, the total, and the ratios (without /
with). Answers must agree.

    .venv/bin/python bench/solver_tail.py            # about a minute
    .venv/bin/python bench/solver_tail.py --positions 60
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from engine.solver import core  # noqa: E402
from engine.solver.positions import random_table  # noqa: E402
from engine.tiles import JOKER, XP  # noqa: E402


def positions(n: int, seed: str) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        table, left = random_table(rng, XP, rng.randint(40, 80))
        pool = list(left)
        rng.shuffle(pool)
        out.append((table, pool[:rng.randint(14, 30)]))
    return out


def counts(tiles: list[int]) -> tuple[list[int], int]:
    c = [0] * 52
    for t in tiles:
        if t != JOKER:
            c[t] += 1
    return c, tiles.count(JOKER)


def timed(table, rack, repeat: int = 3) -> tuple[float, int]:
    tc, jt = counts(table)
    rc, jr = counts(rack)
    best, score = float("inf"), -1
    for _ in range(repeat):
        t0 = time.perf_counter()
        plan = core.best_plan(tc, rc, jt, jr)
        best = min(best, time.perf_counter() - t0)
        score = -1 if plan is None else plan.score >> 16
    return best, score


def summary(times: list[float]) -> str:
    ms = sorted(1000 * t for t in times)
    return (f"median {ms[len(ms) // 2]:6.2f} ms  worst {ms[-1]:7.1f} ms  over 100 ms {sum(m > 100 for m in ms):3d}  "
            f"total {sum(ms):7.0f} ms")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=180)
    ap.add_argument("--seed", default="xp-tail")
    args = ap.parse_args(argv)
    if args.positions < 1:
        ap.error("--positions must be at least 1")
    drawn = positions(args.positions, args.seed)
    wider = core.WIDER_PASSES
    runs = {}
    for name, beams in (("with", wider), ("without", ())):
        core.WIDER_PASSES = beams
        runs[name] = [timed(t, r) for t, r in tqdm(drawn, desc=name, file=sys.stderr, leave=False)]
    core.WIDER_PASSES = wider
    differ = sum(a[1] != b[1] for a, b in zip(runs["with"], runs["without"]))
    w, wo = [t for t, _ in runs["with"]], [t for t, _ in runs["without"]]
    print(f"solver: {core.BUILD}; {args.positions} XP positions; wider passes {wider}")
    print(f"with     {summary(w)}")
    print(f"without  {summary(wo)}")
    print(f"ratio without / with: worst {max(wo) / max(w):.2f}x, total {sum(wo) / sum(w):.2f}x, "
          f"median {sorted(wo)[len(wo) // 2] / sorted(w)[len(w) // 2]:.2f}x; answers that differ: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
