"""Benchmark: the AI levels of every family against each other on duplicate
deals.

Each pairing seats one *focal* level against the *other* level in every
other seat ("expert vs 3 greedy"), and plays every deal once with the focal
level in each seat (a deal of a 4-player pairing is four games), so the
luck of the deal cancels out. For each pairing it prints the games, the
deals, the focal level's wins (a shared win counts its share; a deal with
no winner, such as Okey's empty middle or International's empty stacks,
counts one share each), the win share with its 95% Wilson interval next to
the fair share (one in the number of seats), the points a game the focal
seat made more than the average other seat (per deal, with a 95% interval;
contract rummy's points are negated, so more is better everywhere), and the
time each level takes a move at the median and at the 95th percentile.

    .venv/bin/python bench/ai.py                         # every pairing, default sizes
    .venv/bin/python bench/ai.py --games 40              # every pairing, 40 games each
    .venv/bin/python bench/ai.py --only sabra-2p --games 400
    .venv/bin/python bench/ai.py --list                  # the pairings

A game is one game of Rummikub, one deal of American, International or
Okey, and a whole game of seven hands of contract rummy. ``--games`` is
rounded up to whole deals. ``--jobs`` plays games side by side in that
many processes (default 1: the machine may be shared). ``docs/ai.md``
records a run.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from engine.ai import levels_for  # noqa: E402
from engine.registry import find_variant  # noqa: E402

MAX_MOVES = 200_000


@dataclass(frozen=True)
class Pairing:
    name: str
    variant: str
    seats: int
    focal: str
    other: str
    games: int          # default number of games
    rules: tuple = ()   # rule options, as (name, value) pairs

    @property
    def family(self) -> str:
        return find_variant(self.variant).family

    def describe(self) -> str:
        others = "" if self.seats == 2 else f"{self.seats - 1} "
        return f"{self.variant} {self.seats}p: {self.focal} vs {others}{self.other}"


PAIRINGS = [
    Pairing("sabra-2p", "sabra", 2, "expert", "greedy", 200),
    Pairing("sabra-4p", "sabra", 4, "expert", "greedy", 200),
    Pairing("sabra-expert-strong", "sabra", 2, "expert", "strong", 200),
    Pairing("sabra-strong-greedy", "sabra", 2, "strong", "greedy", 200),
    Pairing("international-2p", "international-rummikub", 2, "expert", "greedy", 400),
    Pairing("american-2p", "american", 2, "strong", "greedy", 1000),
    Pairing("american-expert-2p", "american", 2, "expert", "greedy", 400),
    Pairing("american-4p", "american", 4, "strong", "greedy", 400),
    Pairing("international-4p", "international-rummikub", 4, "expert", "greedy", 240),
    Pairing("okey-4p", "okey", 4, "expert", "greedy", 400),
    Pairing("okey-expert-strong", "okey", 4, "expert", "strong", 400),
    Pairing("okey-pairs-4p", "okey", 4, "expert", "greedy", 200, (("seven_pairs", True),)),
    Pairing("contract-3p", "contract", 3, "expert", "basic", 150),
    Pairing("contract-5p", "contract", 5, "expert", "basic", 100),
    Pairing("contract-basic-random", "contract", 3, "basic", "random", 60),
    Pairing("contract-strong-basic", "contract", 3, "strong", "basic", 150),
    Pairing("contract-expert-strong", "contract", 3, "expert", "strong", 150),
]
BY_NAME = {p.name: p for p in PAIRINGS}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% interval (normal approximation)."""
    n = len(xs)
    if not n:
        return 0.0, 0.0, 0.0
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return mean, mean - z * sd / math.sqrt(n), mean + z * sd / math.sqrt(n)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def play_game(pairing: Pairing, focal_seat: int, seed: str) -> dict:
    """One game of ``pairing`` with the focal level at ``focal_seat``: each
    seat's share of the win, its points (more is better), and each level's
    move times in seconds."""
    cls = find_variant(pairing.variant)
    family = cls.family
    levels = [pairing.focal if s == focal_seat else pairing.other for s in range(pairing.seats)]
    classes = levels_for(family)
    players = [classes[lv](f"{seed}/{s}") for s, lv in enumerate(levels)]
    rules = dict(pairing.rules)
    if family == "okey":
        rules.setdefault("start_points", 1000)
    game = cls.new(pairing.seats, rules or None, seed=seed)
    times: dict[str, list[float]] = {lv: [] for lv in set(levels)}
    okey = family == "okey"
    contract = family == "contract"
    for _ in range(MAX_MOVES):
        if game.is_over or (okey and game.results):
            break
        if contract:
            active = game.active
            move = None
            for s in game.pending_actors():
                if s != active:
                    t0 = time.perf_counter()
                    move = players[s].choose(game, s)
                    times[levels[s]].append(time.perf_counter() - t0)
                    if move is not None:
                        break
            if move is None:
                t0 = time.perf_counter()
                move = players[active].choose(game, active)
                times[levels[active]].append(time.perf_counter() - t0)
        else:
            seat = game.to_move
            t0 = time.perf_counter()
            move = players[seat].choose(game)
            times[levels[seat]].append(time.perf_counter() - t0)
        game.push(move)
    else:
        raise RuntimeError(f"{pairing.name} game {seed} did not end")
    if okey:
        result = game.results[0]
        winners = list(range(pairing.seats)) if result["winner"] is None else [result["winner"]]
        points = [p - rules["start_points"] for p in result["points"]]
    else:
        raw = game.scores()
        if contract:
            points = [-p for p in raw]
            top = max(points)
            winners = [s for s, p in enumerate(points) if p == top]
        else:
            points = list(raw)
            winners = list(game.winners) or list(range(pairing.seats))
    shares = [1 / len(winners) if s in winners else 0.0 for s in range(pairing.seats)]
    return {"focal": focal_seat, "shares": shares, "points": points, "times": times}


def _job(args):
    deal, pairing, focal, seed = args
    return deal, play_game(pairing, focal, seed)


def run(pairing: Pairing, games: int, seed: str, jobs: int = 1) -> dict:
    """Play ``games`` games (whole deals) of ``pairing``; the summary."""
    deals = max(1, math.ceil(games / pairing.seats))
    todo = [(d, pairing, f, f"{seed}-{pairing.name}-{d}") for d in range(deals) for f in range(pairing.seats)]
    bar = tqdm(total=len(todo), desc=pairing.name, unit="game", leave=False, file=sys.stderr)
    results = []
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for r in pool.imap(_job, todo, chunksize=1):
                results.append(r)
                bar.update()
    else:
        for job in todo:
            results.append(_job(job))
            bar.update()
    bar.close()
    wins = 0.0
    per_deal: dict[int, list[float]] = {}
    times: dict[str, list[float]] = {pairing.focal: [], pairing.other: []}
    for deal, r in results:
        f = r["focal"]
        wins += r["shares"][f]
        others = [p for s, p in enumerate(r["points"]) if s != f]
        per_deal.setdefault(deal, []).append(r["points"][f] - sum(others) / len(others))
        for lv, ts in r["times"].items():
            times[lv].extend(ts)
    diffs = [sum(v) / len(v) for v in per_deal.values()]
    return {"games": len(results), "deals": deals, "wins": wins, "diffs": diffs, "times": times}


def report_line(pairing: Pairing, s: dict) -> str:
    n = s["games"]
    lo, hi = wilson(s["wins"], n)
    mean, a, b = mean_interval(s["diffs"])
    def ms(x: float) -> str:
        return f"{1000 * x:.1f}" if x < 0.01 else f"{1000 * x:.0f}"

    clock = "  ".join(f"{lv} {ms(percentile(ts, 0.5))}/{ms(percentile(ts, 0.95))}"
                      for lv, ts in s["times"].items())
    return (f"{pairing.name:24}{pairing.describe():44}{n:>6}{s['deals']:>6}{s['wins']:>8.1f}"
            f"{s['wins'] / n:>8.1%}  [{lo:.1%}, {hi:.1%}]  {1 / pairing.seats:>5.0%}"
            f"  {mean:+8.1f} [{a:+.1f}, {b:+.1f}]  {clock}")


HEADER = (f"{'pairing':24}{'':44}{'games':>6}{'deals':>6}{'wins':>8}{'share':>8}  95% interval"
          f"      fair  points a game (focal - other)  ms a move p50/p95")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", metavar="PAIRING",
                    help="run only this pairing (repeatable); --list shows them")
    ap.add_argument("--games", type=int, default=None, help="games a pairing (default: each pairing's own)")
    ap.add_argument("--seed", default="bench-ai")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing games side by side (default 1)")
    ap.add_argument("--list", action="store_true", help="list the pairings and stop")
    args = ap.parse_args(argv)
    if args.list:
        for p in PAIRINGS:
            print(f"{p.name:24}{p.describe():44}{p.games:>6} games")
        return 0
    if args.games is not None and args.games < 1:
        ap.error("--games must be at least 1")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    chosen = PAIRINGS
    if args.only:
        unknown = [n for n in args.only if n not in BY_NAME]
        if unknown:
            ap.error(f"unknown pairing {', '.join(unknown)} (known: {', '.join(BY_NAME)})")
        chosen = [BY_NAME[n] for n in args.only]
    start = time.perf_counter()
    print(HEADER, flush=True)
    for p in chosen:
        s = run(p, args.games or p.games, args.seed, args.jobs)
        print(report_line(p, s), flush=True)
    print(f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
