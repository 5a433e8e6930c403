"""Benchmark: seeded matches between the AI levels of Rummikub, Okey, or
American and International Rummikub.

Plays 2-player matches (a level against the one below it, seats swapped
every game) and 4-player matches (two seats of each, alternating, rotated),
as duplicate deals (each shuffle played with every seating), and prints each
level's win rate with a 95% Wilson interval, the points a game the
stronger level makes more than the weaker (per duplicate deal, with a 95%
interval; not for Okey, whose points stay in the match) and the mean time a
move takes for each level. A level beats the one below when its whole interval lies
above 50% (a shared win counts half).

The near pair (``strong`` against ``greedy``) gets more games than the far
one (``greedy`` against ``random``, which it wins almost every game): the
difference between two solver-exact players is small next to the luck of
the draw.

    .venv/bin/python bench/ai.py                    # default run, a few minutes
    .venv/bin/python bench/ai.py --quick            # a CI-sized run
    .venv/bin/python bench/ai.py --games 400 --pair greedy,strong --seed club
    .venv/bin/python bench/ai.py --family okey      # Okey's levels, one deal a game
    .venv/bin/python bench/ai.py --family american  # American Rummikub (also: international)

With ``--family okey`` a game is one deal of Okey (four seats, two of each
level, or two seats in the 2-player match); a deal that runs the middle
empty has no winner and counts a quarter (a half at two seats) to each seat,
so it moves neither level's rate. ``--family american`` and
``--family international`` play one deal of that variant a game; a deal with
no winner (International's empty stacks) counts like Okey's.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from engine.american import AmericanGame, InternationalGame  # noqa: E402
from engine.american.ai import LEVELS as AMERICAN_LEVELS  # noqa: E402
from engine.okey import OkeyGame  # noqa: E402
from engine.okey.ai import LEVELS as OKEY_LEVELS  # noqa: E402
from engine.rummikub.ai.levels import LEVEL_NAMES, player  # noqa: E402
from engine.rummikub import SabraGame  # noqa: E402

FAMILY = "rummikub"  # set by --family
OKEY_GAMES = {"greedy": (200, 40), "strong": (1200, 120)}
AMERICAN = {"american": AmericanGame, "international": InternationalGame}
AMERICAN_GAMES = {"greedy": (400, 40), "strong": (1200, 120)}

MAX_TURNS = 3000
# games per match, (default, quick), by the stronger level of the pair
GAMES = {"greedy": (40, 8), "strong": (600, 24)}
CLOCK: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(levels: list[str], seed: str) -> tuple[list[float], dict, list[int] | None]:
    """One seeded game; the share of the win of each seat (1, or split on a
    tie of the pool-empty end), each level's thinking time and moves, and
    each seat's points (``None`` for Okey, whose match keeps the points).

    :raises RuntimeError: the game does not end within ``MAX_TURNS`` moves.
    """
    clock: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    okey = FAMILY == "okey"
    if okey:
        game = OkeyGame.new(len(levels), {"start_points": 1000}, seed=seed)
        players = [OKEY_LEVELS[lv](f"{seed}/{i}") for i, lv in enumerate(levels)]
    elif FAMILY in AMERICAN:
        game = AMERICAN[FAMILY].new(len(levels), seed=seed)
        players = [AMERICAN_LEVELS[lv](f"{seed}/{i}") for i, lv in enumerate(levels)]
    else:
        game = SabraGame.new(len(levels), seed=seed)
        players = [player(lv, seed=f"{seed}/{i}") for i, lv in enumerate(levels)]
    turns = 0
    while not game.is_over and not (okey and game.results):
        seat = game.to_move
        t0 = time.perf_counter()
        move = players[seat].choose(game)
        used = clock[levels[seat]]
        used[0] += time.perf_counter() - t0
        used[1] += 1
        game.push(move)
        turns += 1
        if turns > MAX_TURNS:
            raise RuntimeError(f"game {seed} did not end")
    if okey:
        w = game.results[0]["winner"]
        winners = list(range(len(levels))) if w is None else [w]
    else:
        winners = game.winners or list(range(len(levels)))   # no winner: a share each
    points = None if okey else game.scores()
    return [1 / len(winners) if s in winners else 0.0 for s in range(len(levels))], dict(clock), points


def _play(job):
    return job[0], play_game(*job)


def match(low: str, high: str, games: int, seats: int, seed: str, jobs: int = 1,
          progress: bool = False) -> tuple[float, int, list[float]]:
    """``high``'s share of wins over ``games`` games against ``low``, and for
    each duplicate deal (every seating of one shuffle) the points a ``high``
    seat made on average less a ``low`` seat's (empty for Okey); the games
    shared among ``jobs`` processes (the result does not depend on it);
    ``progress`` draws a bar on standard error."""
    todo = []
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
        todo.append((levels, f"{seed}-{seats}p-{low}-{high}-{deal}"))
    bar = tqdm(total=games, desc=f"{high} vs {low} ({seats}p)", unit="game", leave=False, file=sys.stderr,
               disable=not progress)
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = []
            for result in pool.imap(_play, todo, chunksize=1):
                results.append(result)
                bar.update()
    else:
        results = []
        for job in todo:
            results.append(_play(job))
            bar.update()
    bar.close()
    won = 0.0
    per_deal: dict[int, list[float]] = defaultdict(list)
    for g, (levels, (shares, clock, points)) in enumerate(results):
        won += sum(s for s, lv in zip(shares, levels) if lv == high)
        for lv, (t, n) in clock.items():
            CLOCK[lv][0] += t
            CLOCK[lv][1] += n
        if points is not None:
            mine = [p for p, lv in zip(points, levels) if lv == high]
            theirs = [p for p, lv in zip(points, levels) if lv == low]
            per_deal[g // seats].append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
    return won, games, [sum(d) / len(d) for d in per_deal.values()]


def mean_interval(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% interval (normal approximation)."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return mean, mean - z * sd / math.sqrt(n), mean + z * sd / math.sqrt(n)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None,
                    help="games per match (default: 40 greedy-random, 600 strong-greedy; "
                         "quick: 8 and 24)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", default="bench-ai")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="processes playing games side by side (default: one per core)")
    ap.add_argument("--family", choices=("rummikub", "okey", "american", "international"), default="rummikub",
                    help="whose AI levels to match (default rummikub)")
    ap.add_argument("--pair", default=None,
                    help="only this pair of neighbouring levels, e.g. greedy,strong")
    args = ap.parse_args(argv)
    if args.games is not None and args.games < 1:
        ap.error("--games must be at least 1")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    global FAMILY
    FAMILY = args.family
    names = list(OKEY_LEVELS) if FAMILY == "okey" else list(AMERICAN_LEVELS) if FAMILY in AMERICAN else LEVEL_NAMES
    pairs = list(zip(names, names[1:]))
    if args.pair:
        pair = tuple(args.pair.split(","))
        if pair not in pairs:
            ap.error(f"--pair must be one of {', '.join(a + ',' + b for a, b in pairs)}")
        pairs = [pair]
    start = time.perf_counter()
    ok = True
    print(f"{'match':28}{'games':>6}  {'win rate of the stronger':>24}  95% interval")
    points: list[str] = []
    for seats in (2, 4):
        for low, high in pairs:
            table = OKEY_GAMES if FAMILY == "okey" else AMERICAN_GAMES if FAMILY in AMERICAN else GAMES
            games = args.games or table[high][1 if args.quick else 0]
            won, n, diffs = match(low, high, games, seats, args.seed, args.jobs, progress=True)
            lo, hi = wilson(won, n)
            beats = lo > 0.5
            ok &= beats
            print(f"{high + ' vs ' + low + f' ({seats}p)':28}{n:>6}  {won / n:24.1%}  "
                  f"[{lo:.1%}, {hi:.1%}]  {'beats' if beats else 'not shown'}", flush=True)
            if diffs:
                mean, a, b = mean_interval(diffs)
                points.append(f"{high + ' vs ' + low + f' ({seats}p)':28}{len(diffs):>6}  {mean:+24.1f}  "
                              f"[{a:+.1f}, {b:+.1f}]")
    if points:
        print(f"\n{'match':28}{'deals':>6}  {'points a game, stronger less':>24}  95% interval")
        print("\n".join(points))
    print("\nmean time a move takes: " + ", ".join(
        f"{lv} {1000 * t / n:.1f} ms" for lv, (t, n) in CLOCK.items() if n))
    print(f"{time.perf_counter() - start:.0f} s; every level beats the one below: "
          f"{'yes' if ok else 'not shown at this sample size'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
