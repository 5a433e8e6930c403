"""Benchmark: the exact solver against an integer programme, same positions,
same process.

Seeded positions from the opening (empty table) to the whole standard set,
and to 130+ table tiles of the XP set, racks of 14 to 30 tiles; and late
play: standard tables of 50-70 tiles with racks of 1-8. For each
position both the solver (:func:`engine.solver.solve`) and the reference
integer programme (every valid meld a column, HiGHS through
``scipy.optimize.milp``, the published approach) are timed; their answers
(tiles placed, value placed) must agree. Prints, per size, the median and
worst time of both and the ratios.

    .venv/bin/python bench/solver.py            # default run, about 2 minutes
    .venv/bin/python bench/solver.py --quick    # a CI-sized run
    .venv/bin/python bench/solver.py --per-size 40 --seed other
    .venv/bin/python bench/solver.py --sizes standard:20,xp:0
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from scipy.optimize import Bounds, LinearConstraint, milp  # noqa: E402
from scipy.sparse import csc_matrix  # noqa: E402
from tqdm import tqdm  # noqa: E402

from engine.solver import bound, core, solve  # noqa: E402
from engine.solver.positions import random_position  # noqa: E402
from engine.tiles import JOKER, STANDARD, XP, counts_of  # noqa: E402

WEIGHT = 100_000


ILP_TIME_LIMIT = 5.0  # seconds; a capped run counts as this long, unverified


def ilp(table: list[int], rack: list[int]) -> tuple[int, int] | None:
    """The reference: maximise tiles placed, then value, by integer
    programming over every meld the available tiles can form (runs capped
    at the length beyond which a run splits into two). ``None`` when HiGHS
    hits the time limit."""
    tc, rc = counts_of(table), counts_of(rack)
    avail = [tc[i] + rc[i] for i in range(53)]
    jokers = avail[JOKER]
    max_run = 2 * max(3, jokers + 1) - 1
    cols = set()
    for n in range(13):
        present = [c for c in range(4) if avail[c * 13 + n]]
        for r in range(1, len(present) + 1):
            for cs in combinations(present, r):
                for k in range(jokers + 1):
                    if 3 <= r + k <= 4:
                        cols.add(tuple(sorted([c * 13 + n for c in cs] + [JOKER] * k)))
    for c in range(4):
        for s in range(13):
            for length in range(3, min(max_run, 13 - s) + 1):
                pos = range(s, s + length)
                for k in range(min(jokers, length - 1) + 1):
                    for jp in combinations(pos, k):
                        reals = [c * 13 + p for p in pos if p not in jp]
                        if all(avail[t] for t in reals):
                            cols.add(tuple(sorted(reals + [JOKER] * k)))
    cols = list(cols)
    nm = len(cols)
    rows, cidx, vals = [], [], []
    for m, tiles in enumerate(cols):
        for t in tiles:
            rows.append(t)
            cidx.append(m)
            vals.append(1)
    for i in range(53):
        rows.append(i)
        cidx.append(nm + i)
        vals.append(-1)
    nv = nm + 53
    a = csc_matrix((vals, (rows, cidx)), shape=(53, nv))
    cost = np.zeros(nv)
    for i in range(53):
        cost[nm + i] = -(WEIGHT + (30 if i == JOKER else i % 13 + 1))
    upper = np.full(nv, np.inf)
    upper[nm:] = rc
    res = milp(cost, constraints=[LinearConstraint(a, tc, tc)],
               integrality=np.ones(nv), bounds=Bounds(np.zeros(nv), upper),
               options={"mip_rel_gap": 0, "time_limit": ILP_TIME_LIMIT})
    if res.status == 1:
        return None
    if res.status != 0:
        raise RuntimeError("reference found no arrangement")
    used = np.round(res.x[nm:]).astype(int)
    return int(used.sum()), int(sum(used[i] * (30 if i == JOKER else i % 13 + 1)
                                    for i in range(53)))


def position(seed: str, ts, table_size: int | str, rack_size: int):
    """A seeded position. ``table_size == "full"``: the whole set but the
    rack, less what cannot be laid out (a near-full table)."""
    if table_size != "full":
        return random_position(seed, ts, table_size, rack_size)
    rng = random.Random(seed)
    tiles = ts.tiles()
    rng.shuffle(tiles)
    rack, rest = tiles[:rack_size], tiles[rack_size:]
    laid = solve([], rest, tileset=ts)
    table = sorted(s if s < 52 else JOKER for m in laid.melds for s in m)
    return table, sorted(rack)


SIZES = [
    ("standard", STANDARD, 0), ("standard", STANDARD, 20), ("standard", STANDARD, 40),
    ("standard", STANDARD, 60), ("standard", STANDARD, 76), ("standard", STANDARD, "full"),
    ("xp", XP, 0), ("xp", XP, 40), ("xp", XP, 80), ("xp", XP, "full"),
    ("standard", STANDARD, "late"),
]
RACKS = (14, 30)  # rack sizes, except late play:
LATE_TABLES = (50, 70)  # table sizes of late play
LATE_RACKS = (1, 8)


def warm(solve_fn) -> None:
    """Warm a solver's transition caches (a worker is a long-lived
    process)."""
    for i in range(5):
        t, r = random_position(f"warm-{i}", STANDARD, 40, 14)
        solve_fn(t, r)
    # the linear relaxation's model (built on its first use, about 10 ms)
    bound.score_bound([0] * 52, [0] * 52, 0, 0)


def sizes(seed: str, per_size: int):
    """The benchmark's classes in order, each with its seeded draws:
    ``(name, tile set, size, [(seed of a position, table size, rack size),
    ...])`` (one random stream walks the classes in order, so a class's
    draws depend on the ones before it)."""
    rng = random.Random(seed)
    for name, ts, size in SIZES:
        per = max(2, per_size // 2) if (name, size) == ("xp", "full") else per_size
        if size == "late":
            per = 2 * per_size  # racks of 1-8 vary more
        draws = []
        for i in range(per):
            if size == "late":
                table_size = rng.randint(*LATE_TABLES)
                rack_size = rng.randint(*LATE_RACKS)
            else:
                table_size = size
                rack_size = rng.randint(*RACKS)
            draws.append((f"{seed}-{name}-{size}-{i}", table_size, rack_size))
        yield name, ts, size, draws


def parse_sizes(text: str) -> list[tuple[str, int | str]]:
    """``"standard:20,xp:full"`` as ``[("standard", 20), ("xp", "full")]``.

    :raises ValueError: an item that is not set:table, or no such class.
    """
    known = {f"{nm}:{sz}": (nm, sz) for nm, _, sz in SIZES}
    out = []
    for item in text.split(","):
        if item not in known:
            raise ValueError(f"--sizes: no class {item!r} (known: {', '.join(known)})")
        out.append(known[item])
    return out


def sizes_option(text: str) -> set:
    """``--sizes`` as argparse reads it (the classes given, as a set)."""
    try:
        return set(parse_sizes(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=None,
                    help="positions per size (default 16, quick 5; half on full XP tables)")
    ap.add_argument("--quick", action="store_true", help="a CI-sized run")
    ap.add_argument("--seed", default="bench-solver")
    ap.add_argument("--sizes", default=None, type=sizes_option,
                    help="only these set:table pairs (as standard:20,xp:40,standard:late); "
                         "the positions drawn stay those of the whole run")
    args = ap.parse_args(argv)
    per_size = args.per_size or (5 if args.quick else 16)
    only = args.sizes
    warm(solve)
    print(f"solver: {core.BUILD} (engine/solver/dp.py; see engine/solver/compiled.py)")
    print(f"{'set':9}{'table':>11}{'n':>4} | {'solver med':>10}{'worst':>9} | "
          f"{'ILP med':>9}{'worst':>9} | {'ratio med':>9}{'worst':>7}")
    all_ratios, std_worst, mismatches, total, capped_total = [], 0.0, 0, 0, 0
    t_start = time.perf_counter()
    for name, ts, size, draws in sizes(args.seed, per_size):
        if only is not None and (name, size) not in only:
            continue
        per = len(draws)
        dp_times, ilp_times, tiles = [], [], []
        capped = 0
        for pos_seed, table_size, rack_size in tqdm(
                draws, desc=f"{name} {size}", unit="position", leave=False, file=sys.stderr):
            table, rack = position(pos_seed, ts, table_size, rack_size)
            t0 = time.perf_counter()
            sol = solve(table, rack, tileset=ts)
            t1 = time.perf_counter()
            ref = ilp(table, rack)
            t2 = time.perf_counter()
            dp_times.append(t1 - t0)
            ilp_times.append(t2 - t1)
            all_ratios.append((t2 - t1) / (t1 - t0))
            tiles.append(len(table))
            total += 1
            if ref is None:
                capped += 1
            elif (sol.tiles_placed, sol.value_placed) != ref:
                mismatches += 1
                print(f"  MISMATCH {name} table {len(table)}: solver "
                      f"{(sol.tiles_placed, sol.value_placed)} reference {ref}")
        if name == "standard":
            std_worst = max(std_worst, max(dp_times))
        label = f"{min(tiles)}-{max(tiles)}" if size in ("full", "late") else str(size)
        if size == "late":
            label += f" r{LATE_RACKS[0]}-{LATE_RACKS[1]}"
        dm, dw = statistics.median(dp_times) * 1e3, max(dp_times) * 1e3
        im, iw = statistics.median(ilp_times) * 1e3, max(ilp_times) * 1e3
        print(f"{name:9}{label:>11}{per:>4} | {dm:8.1f}ms{dw:7.1f}ms | {im:7.1f}ms{iw:7.1f}ms"
              f" | {im / dm:8.1f}x{iw / dw:6.1f}x"
              + (f"  (ILP capped at {ILP_TIME_LIMIT:.0f} s on {capped}: ratios are lower bounds)"
                 if capped else ""), flush=True)
        capped_total += capped
    print(f"\n{total} positions ({capped_total} with the ILP capped, unverified), "
          f"{mismatches} answers differ from the reference; "
          f"median of per-position speed-ups {statistics.median(all_ratios):.1f}x; "
          f"slowest standard-set position {std_worst * 1e3:.1f} ms; "
          f"{time.perf_counter() - t_start:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
