"""Benchmark: the linear relaxation's bound alone (``engine/solver/bound.py``),
in CPU time, by the dual simplex in C and by HiGHS under its options.

The bounds the solver asks on ``bench/solver_ref.py``'s positions of some
classes (the same seeds and draws) are recorded, then asked again of the
dual simplex in C (``engine/solver/_lp.c``, from the rows' logical basis on
every call) and under each set of HiGHS options in turn, each call either
cold (from HiGHS's
slack basis, as ``core.LP_COLD`` asks on larger tables) or warm from the
previous call's basis: per set the CPU time a call, the simplex
iterations a call and how many of the optima are integral (laid out as
they stand, ``bound.last_layout``).

    .venv/bin/python bench/solver_ref_lp.py --seeds bench-solver,club-a
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from solver import position, sizes, warm  # noqa: E402

from engine.solver import bound, core, solve  # noqa: E402

# (name, cold: each call from the slack basis as core.LP_COLD, HiGHS options)
TRIALS = [
    ("cold", True, {}),
    ("cold again", True, {}),
    ("cold, presolve on", True, {"presolve": "on"}),
    ("warm", False, {}),
    ("warm again", False, {}),
    ("warm, presolve off", False, {"presolve": "off"}),
    ("cold, Dantzig", True, {"simplex_dual_edge_weight_strategy": 0}),
    ("cold, Devex", True, {"simplex_dual_edge_weight_strategy": 1}),
    ("cold, no scaling", True, {"simplex_scale_strategy": 0}),
    ("cold, primal", True, {"simplex_strategy": 4}),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="bench-solver,club-a")
    ap.add_argument("--classes", default="standard:20,standard:40,xp:40")
    args = ap.parse_args(argv)
    want = set(args.classes.split(","))
    warm(solve)
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    asked = []
    real = core._relaxation
    core._relaxation = lambda *a: (asked.append(a), real(*a))[1]
    for seed in args.seeds.split(","):
        for cls, ts, size, draws in sizes(seed, 30):
            if f"{cls}:{size}" in want:
                for pos_seed, table_size, rack_size in draws:
                    table, rack = position(pos_seed, ts, table_size, rack_size)
                    solve(table, rack, tileset=ts)
    core._relaxation = real
    lp = bound._c_simplex()
    if lp is None:
        print("dual simplex in C: not built (bin/setup builds it)")
    else:
        pivots = integral = 0
        t0 = time.process_time()
        for a in asked:
            got = lp.solve(*a[:5])
            if got is not None:
                pivots += got[5]
                integral += got[4] is not None
        took = time.process_time() - t0
        print(f"{'dual simplex in C':18} {1e3 * took / len(asked):6.3f} ms a call, "
              f"{pivots / len(asked):6.1f} pivots a call, {integral} integral optima")
    bound.SIMPLEX = 0  # HiGHS from here
    if not bound._load():
        print("HiGHS: neither highspy nor SciPy imports")
        return 0
    model = bound._LOCAL.model = bound._Model()
    h = model.h
    integral = 0
    for name, cold, options in TRIALS:
        h.resetOptions()  # each set alone, as the solver's model is set up
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        h.setOptionValue("presolve", "off" if cold else "choose")
        model.cold = cold  # (the bound leaves the options as they are)
        for key, value in options.items():
            h.setOptionValue(key, value)
        iterations = 0
        integral = 0
        t0 = time.process_time()
        for a in asked:
            bound.score_bound(*a[:5], cold=cold)
            iterations += h.getInfo().simplex_iteration_count
            integral += bound.last_layout() is not None
        took = time.process_time() - t0
        print(f"{name:18} {1e3 * took / len(asked):6.3f} ms a call, "
              f"{iterations / len(asked):6.1f} iterations a call, {integral} integral optima")
    print(f"{len(asked)} bounds asked; integral optima are laid out as they stand")
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
