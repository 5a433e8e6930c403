"""How long post-game analysis takes (one core): finished games from
self-play, each analysed from its record, timed per game and per turn.

    .venv/bin/python bench/analysis.py                      # 100 Sabra (4 players) + 20 contract
    .venv/bin/python bench/analysis.py --sabra 10 --contract 2   # a quick run
    TABLEKEEPER_SOLVER=python .venv/bin/python bench/analysis.py  # the interpreted solver

Plays the games first (Sabra: the ``greedy`` and ``strong`` levels, two
seats each; contract rummy: the family's computer player, four seats),
writes their records, then analyses each record
(:func:`engine.registry.analyser_for`). Prints, per family, the time a
game takes (median, 95th percentile, slowest), the turns judged, the
slowest turn (the game, the turn's number in the record, its time), the
solver's programme (compiled or interpreted) and the load average before
and after (the machine may be shared: the figures say so). Aim: under 2 s
per 4-player Sabra game with the compiled solver.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from engine.contract import ContractGame  # noqa: E402
from engine.contract import analysis as contract_analysis  # noqa: E402
from engine.contract.ai import play_game  # noqa: E402
from engine.records import write_game  # noqa: E402
from engine.registry import analyser_for  # noqa: E402
from engine.rummikub import SabraGame  # noqa: E402
from engine.rummikub import analysis as rummikub_analysis  # noqa: E402
from engine.rummikub.ai.levels import player  # noqa: E402
from engine.solver.compiled import load  # noqa: E402

AIM_SABRA = 2.0


def sabra_records(n: int, seed: str, levels: list[str]) -> list[str]:
    out = []
    for i in tqdm(range(n), desc="playing Sabra", unit="game", file=sys.stderr):
        g = SabraGame.new(4, seed=f"{seed}-sabra-{i}")
        seats = [player(levels[s % len(levels)], seed=f"{seed}/{i}/{s}") for s in range(4)]
        while not g.is_over:
            g.push(seats[g.to_move].choose(g))
        out.append(write_game(g))
    return out


def contract_records(n: int, seed: str) -> list[str]:
    out = []
    for i in tqdm(range(n), desc="playing contract", unit="game", file=sys.stderr):
        g = ContractGame.new(4, seed=f"{seed}-contract-{i}")
        play_game(g)
        out.append(write_game(g))
    return out


class TurnClock:
    """Times each call of a module's per-turn function (patched in place):
    the slowest call, with the record's move number of the position."""

    def __init__(self, module, name: str, where):
        self.module, self.name, self.where = module, name, where
        self.slowest = (0.0, None, None)
        self.game = None

    def __enter__(self):
        inner = self.original = getattr(self.module, self.name)

        def timed(*args, **kw):
            t0 = time.perf_counter()
            try:
                return inner(*args, **kw)
            finally:
                dt = time.perf_counter() - t0
                if dt > self.slowest[0]:
                    self.slowest = (dt, self.game, self.where(*args))
        setattr(self.module, self.name, timed)
        return self

    def __exit__(self, *exc):
        setattr(self.module, self.name, self.original)


def run(label: str, records: list[str], clock: TurnClock) -> dict:
    analyse = analyser_for("sabra" if label == "sabra" else "contract")
    times, turns = [], 0
    with clock:
        for i, text in enumerate(tqdm(records, desc=f"analysing {label}", unit="game", file=sys.stderr)):
            clock.game = i
            t0 = time.perf_counter()
            a = analyse(text)
            times.append(time.perf_counter() - t0)
            turns += len(a.turns)
    times.sort()
    p95 = times[min(len(times) - 1, max(0, round(0.95 * len(times)) - 1))]
    return {"games": len(times), "turns": turns, "p50": statistics.median(times), "p95": p95,
            "max": times[-1], "total": sum(times), "slowest": clock.slowest}


def report(label: str, r: dict) -> None:
    dt, game, turn = r["slowest"]
    print(f"{label}: {r['games']} games, {r['turns']} turns judged, {r['total']:.1f} s in all")
    print(f"  per game: median {r['p50']:.3f} s, 95th percentile {r['p95']:.3f} s, slowest {r['max']:.3f} s")
    print(f"  slowest turn: {dt * 1000:.1f} ms (game {game}, record move {turn})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sabra", type=int, default=100, help="4-player Sabra games (100)")
    ap.add_argument("--contract", type=int, default=20, help="4-player contract games (20)")
    ap.add_argument("--seed", default="bench-analysis")
    ap.add_argument("--levels", default="greedy,strong", help="Sabra seats' levels, in turn")
    args = ap.parse_args(argv)
    _, backend = load()
    from engine.solver import bound

    backend += f", its bound by {bound.backend()}"
    load_before = os.getloadavg()
    print(f"solver: {backend}; cores: {os.cpu_count()}; "
          f"load average before: {' '.join(f'{x:.2f}' for x in load_before)}")
    results = []
    if args.sabra:
        recs = sabra_records(args.sabra, args.seed, args.levels.split(","))
        clock = TurnClock(rummikub_analysis, "judge_move", lambda game, turn, move: turn)
        results.append(("sabra (4 players)", run("sabra", recs, clock)))
    if args.contract:
        recs = contract_records(args.contract, args.seed)
        clock = TurnClock(contract_analysis, "_could",
                          lambda game, seat: len(game.move_stack) + 1)
        results.append(("contract (4 players)", run("contract", recs, clock)))
    for label, r in results:
        report(label, r)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, r in results:
        if label.startswith("sabra"):
            met = r["p95"] < AIM_SABRA
            print(f"aim: under {AIM_SABRA:.0f} s per 4-player Sabra game (95th percentile): "
                  f"{'met' if met else 'NOT met'} (solver: {backend})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
