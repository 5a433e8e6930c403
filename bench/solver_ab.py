"""Benchmark: the solver of this tree against the solver of an earlier
revision, on the positions of ``bench/solver.py``, in the same process.

``engine/`` at REV is exported (``git archive``) into a temporary folder
under another package name and imported beside this tree's ``engine``, so
each version keeps its own caches. Every position is solved once by each
version, in alternating order; their answers (tiles placed, value placed)
must agree. Prints, per size, the median, mean and worst time of both and
the ratio of medians (earlier / now: above 1 is faster now).

    .venv/bin/python bench/solver_ab.py HEAD~3
    .venv/bin/python bench/solver_ab.py 87b033c --sizes standard:0,standard:20,xp:40

The exported revision runs its programme interpreted (its compiled build, if
it had one, is not made); this tree runs its compiled build when current.
``--interpreted`` runs this tree's interpreted too, comparing like with like.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

if "--interpreted" in sys.argv[1:]:
    os.environ["TABLEKEEPER_SOLVER"] = "python"  # before engine.solver loads

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tqdm import tqdm  # noqa: E402

import solver as bench  # noqa: E402  (bench/solver.py: positions and sizes)


def export(rev: str, dest: Path, name: str) -> None:
    """``engine/`` at ``rev`` as package ``name`` in ``dest`` (the engine's
    imports are relative, so it runs under any name)."""
    try:
        data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "engine"],
                              check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as exc:
        print(f"solver_ab: git archive {rev}: {exc.stderr.decode().strip()}", file=sys.stderr)
        sys.exit(2)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            member.name = name + member.name[len("engine"):]
            tar.extract(member, dest)


def positions(name: str, size, per_size: int, seed: str):
    """The positions ``bench/solver.py`` draws for one size."""
    for nm, ts, sz, draws in bench.sizes(seed, per_size):
        if (nm, sz) == (name, size):
            return [(nm, bench.position(pos_seed, ts, table_size, rack_size))
                    for pos_seed, table_size, rack_size in draws]
    return []


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the earlier revision (anything git names)")
    ap.add_argument("--sizes", default="standard:0,standard:20,standard:40,standard:late,xp:0,xp:40",
                    help="set:table pairs, as in bench/solver.py (table a number, full or late)")
    ap.add_argument("--per-size", type=int, default=16)
    ap.add_argument("--seed", default="bench-solver")
    ap.add_argument("--interpreted", action="store_true",
                    help="run this tree's programme interpreted, as the revision's runs")
    args = ap.parse_args(argv)
    try:
        sizes = bench.parse_sizes(args.sizes)
    except ValueError as exc:
        ap.error(str(exc))
    with tempfile.TemporaryDirectory() as tmp:
        export(args.rev, Path(tmp), "engine_then")
        sys.path.insert(0, tmp)
        then = importlib.import_module("engine_then.solver")
        now = importlib.import_module("engine.solver")
        versions = (("then", then.solve), ("now", now.solve))
        for _, solve in versions:
            bench.warm(solve)
        print(f"{args.rev}: {getattr(then.core, 'BUILD', 'interpreted')}; "
              f"now: {getattr(now.core, 'BUILD', 'interpreted')}")
        print(f"{'set':9}{'table':>7}{'n':>4} | {args.rev + ' med':>14}{'mean':>8}{'worst':>8} | "
              f"{'now med':>8}{'mean':>8}{'worst':>8} | {'ratio':>6}")
        for name, size in sizes:
            pos = positions(name, size, args.per_size, args.seed)
            times = {label: [] for label, _ in versions}
            for k, (ts, (table, rack)) in enumerate(
                    tqdm(pos, desc=f"{name} {size}", unit="position", leave=False, file=sys.stderr)):
                order = versions if k % 2 == 0 else versions[::-1]
                answers = set()
                for label, solve in order:
                    t0 = time.perf_counter()
                    s = solve(table, rack, tileset=ts)
                    times[label].append(time.perf_counter() - t0)
                    answers.add((s.tiles_placed, s.value_placed))
                if len(answers) != 1:
                    print(f"  ANSWERS DIFFER {name} {size} position {k}: {sorted(answers)}")
                    return 1
            a, b = times["then"], times["now"]
            print(f"{name:9}{str(size):>7}{len(pos):>4} | {statistics.median(a) * 1e3:12.2f}ms"
                  f"{statistics.mean(a) * 1e3:8.2f}{max(a) * 1e3:8.1f} | "
                  f"{statistics.median(b) * 1e3:6.2f}ms{statistics.mean(b) * 1e3:8.2f}{max(b) * 1e3:8.1f} | "
                  f"{statistics.median(a) / statistics.median(b):5.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
