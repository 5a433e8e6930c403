"""Benchmark: contract rummy self-play where every game must end.

Plays seeded 3-player games of both variants (``contract``, seed 002's
three decks, and ``international``, seed 004), one move at a time with a
player per seat (``engine.contract.ai.play_seats``): by default the
``standard`` AI against two ``random`` seats (legal moves at random), the
table where hands once never ended. It prints how many games ended (a game
that does not end within ``--max-moves`` stops the run with its seed), the
longest game in moves, how the hands ended — someone out, the stock rule
(``stock_runs_out``: the stock ran out for the last time allowed), or
nothing left to reshuffle — and how often a ``standard`` seat threw back
the discard it took in the same turn, with no play in between (it should
never: a seat that took a card, went down and discarded another copy of it
threw nothing back).

    .venv/bin/python bench/contract_selfplay.py                       # 10,000 games, two processes
    .venv/bin/python bench/contract_selfplay.py --games 200 --jobs 1
    .venv/bin/python bench/contract_selfplay.py --seats random,random,random --games 2000
    .venv/bin/python bench/contract_selfplay.py --rule stock_runs_out=2

docs/rules/contract.md records a run.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from engine.contract import ContractGame, InternationalGame  # noqa: E402
from engine.contract.ai import ContractSeatPlayer, RandomContractPlayer, play_seats  # noqa: E402

PLAYERS = {"random": RandomContractPlayer, "standard": ContractSeatPlayer}
VARIANTS = {"contract": ContractGame, "international": InternationalGame}


def play(job: tuple[str, str, tuple[str, ...], dict, int]) -> dict:
    """One game: its moves, how each hand ended, and the throw-backs of
    ``standard`` seats (a discard the seat took earlier in the same turn).

    :raises RuntimeError: the game did not end within ``max_moves`` moves.
    """
    variant, seed, seats, rules, max_moves = job
    cls = VARIANTS[variant]
    game = cls.new(len(seats), cls.rules_from_dict(rules), seed=seed)
    players = [PLAYERS[level](f"{seed}/{s}") for s, level in enumerate(seats)]
    ends: Counter = Counter()
    state = {"reshuffles": 0, "hands": 0}
    taken: dict[int, int] = {}
    thrown_back = 0

    def on_move(g, move) -> None:
        nonlocal thrown_back
        if len(g.results) != state["hands"]:          # a hand ended with this move
            state["hands"] = len(g.results)
            if g.results[-1]["winner"] is not None:
                ends["out"] += 1
            elif g.rules.reshuffle_allowed(state["reshuffles"]):
                ends["nothing to reshuffle"] += 1
            else:
                ends["stock rule"] += 1
            taken.clear()
        state["reshuffles"] = g.reshuffles
        if move.action in ("take", "refuse"):
            taken[move.seat] = g.picked[move.seat][-1]
        elif move.action in ("down", "lay", "swap"):
            taken.pop(move.seat, None)    # the hand changed: a discard of the same card is no throw-back
        elif move.action == "discard":
            if seats[move.seat] == "standard" and taken.get(move.seat) == move.card:
                thrown_back += 1
            taken.pop(move.seat, None)

    try:
        play_seats(game, players, max_moves=max_moves, on_move=on_move)
    except RuntimeError as exc:
        raise RuntimeError(f"{variant} game {seed!r}: {exc}") from None
    return {"variant": variant, "seed": seed, "moves": len(game.move_stack), "ends": ends,
            "thrown_back": thrown_back}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seats", default="standard,random,random",
                    help=f"a level per seat, comma-separated ({', '.join(PLAYERS)}); default "
                         "standard,random,random")
    ap.add_argument("--variant", choices=("both", *VARIANTS), default="both",
                    help="both (default: the two variants by turns), contract or international")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=NUMBER",
                    help="a whole-number rule option over the variant's profile, e.g. stock_runs_out=2")
    ap.add_argument("--seed", default="bench-contract-selfplay")
    ap.add_argument("--max-moves", type=int, default=100_000, help="a game longer than this fails the run")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="processes playing games side by side (default 2)")
    args = ap.parse_args(argv)
    seats = tuple(args.seats.split(","))
    if any(s not in PLAYERS for s in seats) or not 2 <= len(seats) <= 8:
        ap.error(f"--seats: two to eight of {', '.join(PLAYERS)}")
    if args.games < 1 or args.jobs < 1 or args.max_moves < 1:
        ap.error("--games, --jobs and --max-moves must be at least 1")
    rules: dict[str, int] = {}
    for item in args.rule:
        name, _, value = item.partition("=")
        if not value.strip().lstrip("-").isdigit():
            ap.error(f"--rule {item!r}: NAME=NUMBER")
        rules[name.strip()] = int(value)
    variants = list(VARIANTS) if args.variant == "both" else [args.variant]
    for v in variants:
        try:
            VARIANTS[v].new(len(seats), VARIANTS[v].rules_from_dict(rules), seed="check")
        except Exception as exc:  # a bad option or player count: the engine's sentence
            ap.error(f"{v}: {exc}")
    todo = [(variants[g % len(variants)], f"{args.seed}-{g}", seats, rules, args.max_moves)
            for g in range(args.games)]
    start = time.perf_counter()
    results = []
    bar = tqdm(total=len(todo), desc="games", unit="game", file=sys.stderr)
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for result in pool.imap_unordered(play, todo, chunksize=4):
                results.append(result)
                bar.update()
    else:
        for job in todo:
            results.append(play(job))
            bar.update()
    bar.close()
    elapsed = time.perf_counter() - start
    ends: Counter = Counter()
    for r in results:
        ends.update(r["ends"])
    moves = sorted(r["moves"] for r in results)
    longest = max(results, key=lambda r: r["moves"])
    hands = sum(ends.values())
    print(f"seats {','.join(seats)}; variants {', '.join(variants)}; rules {rules or 'the profiles'}")
    print(f"games {len(results)}, every one ended; moves a game: median {moves[len(moves) // 2]}, "
          f"p99 {moves[min(len(moves) - 1, len(moves) * 99 // 100)]}, longest {longest['moves']} "
          f"({longest['variant']}, seed {longest['seed']!r})")
    print(f"hands {hands}: " + ", ".join(f"{k} {n} ({n / hands:.2%})" for k, n in ends.most_common()))
    print(f"standard seats throwing back the discard they took: {sum(r['thrown_back'] for r in results)}")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"{elapsed:.0f} s with {args.jobs} process(es); load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
