"""How fast the engine replays Rummikub game records (one core).

    .venv/bin/python bench/replay.py [--games N]

Plays N seeded games between random players, writes their records, then
times reading and replaying every record (parse each move, check it against
the rules, apply it). Prints turns per second, and the ratio to a reference
loop run in the same process on the same records: a loop that only splits
each move line into tokens and looks each token up in a dict (the least a
replayer must do), so the ratio says how much the rules cost on top of
reading the text. Aim: at least 20,000 turns per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rummikub.ai.random_player import RandomPlayer  # noqa: E402
from engine.records import read_record, record_from_game, replay, write_record  # noqa: E402
from engine.rummikub import SabraGame, SabraXPGame  # noqa: E402


def make_records(n: int) -> list[str]:
    texts = []
    for i in range(n):
        cls = SabraXPGame if i % 5 == 4 else SabraGame
        players = 2 + i % (cls.max_players - 1)
        g = cls.new(players, seed=f"bench-{i}")
        p = RandomPlayer(i)
        while not g.is_over:
            g.push(p.choose(g))
        texts.append(write_record(record_from_game(g)))
    return texts


def reference(texts: list[str]) -> int:
    table: dict[str, int] = {}
    turns = 0
    for text in texts:
        for line in text.splitlines():
            if not line or line[0] == "[":
                continue
            for tok in line.split():
                table[tok] = table.get(tok, 0) + 1
            turns += 1
    return turns


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    texts = make_records(args.games)
    best_engine = best_ref = float("inf")
    turns = 0
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        turns = 0
        for text in texts:
            rec = read_record(text)
            replay(rec)
            turns += len(rec.moves)
        best_engine = min(best_engine, time.perf_counter() - t0)
        t0 = time.perf_counter()
        ref_turns = reference(texts)
        best_ref = min(best_ref, time.perf_counter() - t0)
    assert ref_turns == turns
    rate = turns / best_engine
    ref_rate = turns / best_ref
    print(f"records: {len(texts)} games, {turns} turns")
    print(f"engine replay:   {rate:12,.0f} turns/s  ({best_engine:.3f} s)")
    print(f"reference loop:  {ref_rate:12,.0f} turns/s  ({best_ref:.3f} s)")
    print(f"ratio engine/reference time: {best_engine / best_ref:.1f}x")
    print(f"target 20,000 turns/s: {'met' if rate >= 20000 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
