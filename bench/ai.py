"""Benchmark: seeded matches between the Rummikub AI levels.

Plays 2-player matches (a level against the one below it, seats swapped
every game) and 4-player matches (two seats of each, alternating, rotated),
as duplicate deals (each shuffle played with every seating),
and prints each level's win rate with a 95% Wilson interval. A level beats
the one below when its whole interval lies above 50% (a shared win counts
half).

    .venv/bin/python bench/ai.py             # default run, about 2 minutes
    .venv/bin/python bench/ai.py --quick     # a CI-sized run
    .venv/bin/python bench/ai.py --games 200 --seed club
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.levels import LEVEL_NAMES, player  # noqa: E402
from engine.rummikub import SabraGame  # noqa: E402

MAX_TURNS = 3000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(levels: list[str], seed: str) -> list[float]:
    """One seeded game; the share of the win of each seat (1, or split on a
    tie of the pool-empty end)."""
    game = SabraGame.new(len(levels), seed=seed)
    players = [player(lv, seed=f"{seed}/{i}") for i, lv in enumerate(levels)]
    turns = 0
    while not game.is_over:
        game.push(players[game.to_move].choose(game))
        turns += 1
        if turns > MAX_TURNS:
            raise RuntimeError(f"game {seed} did not end")
    winners = game.winners
    return [1 / len(winners) if s in winners else 0.0 for s in range(len(levels))]


def match(low: str, high: str, games: int, seats: int, seed: str) -> tuple[float, int]:
    """``high``'s share of wins over ``games`` games against ``low``."""
    won = 0.0
    for g in range(games):
        if seats == 2:
            levels = [high, low] if g % 2 == 0 else [low, high]
        else:
            base = [high, low, high, low]
            r = g % 4
            levels = base[r:] + base[:r]
        # duplicate deals: each shuffle is played with every seating, so the
        # luck of the deal cancels between the two levels
        deal = g // 2 if seats == 2 else g // 4
        shares = play_game(levels, f"{seed}-{seats}p-{low}-{high}-{deal}")
        won += sum(s for s, lv in zip(shares, levels) if lv == high)
    return won, games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None,
                    help="games per match (default 80, quick 16)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", default="bench-ai")
    args = ap.parse_args(argv)
    games = args.games or (16 if args.quick else 80)
    start = time.perf_counter()
    ok = True
    print(f"{'match':28}{'games':>6}  {'win rate of the stronger':>24}  95% interval")
    for seats in (2, 4):
        for low, high in zip(LEVEL_NAMES, LEVEL_NAMES[1:]):
            won, n = match(low, high, games, seats, args.seed)
            lo, hi = wilson(won, n)
            beats = lo > 0.5
            ok &= beats
            print(f"{high + ' vs ' + low + f' ({seats}p)':28}{n:>6}  {won / n:24.1%}  "
                  f"[{lo:.1%}, {hi:.1%}]  {'beats' if beats else 'not shown'}", flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s; every level beats the one below: "
          f"{'yes' if ok else 'not shown at this sample size'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
