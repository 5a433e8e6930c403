"""Seeded random positions (a divisible table and a rack) for tests and
benchmarks.

The table is built from random valid melds (groups, runs of 3-7, now and
then a joker standing in), so it always divides; the rack is drawn from the
remaining tiles.
"""

from __future__ import annotations

import random

from ..tiles import JOKER, STANDARD, TileSet


def random_table(rng: random.Random, ts: TileSet, size: int,
                 joker_rate: float = 0.15) -> tuple[list[int], list[int]]:
    """A divisible table of about ``size`` tiles (never more) drawn from
    ``ts``; returns ``(table, remaining tiles)``, both lists of codes."""
    left = [ts.copies] * 52 + [ts.jokers]
    table: list[int] = []
    tries = 0
    while len(table) < size - 2 and tries < 400:
        tries += 1
        want = min(size - len(table), 4 if rng.random() < 0.5 else 7)
        if want < 3:
            break
        meld: list[int] = []
        if rng.random() < 0.45:
            n = rng.randrange(13)
            colours = [c for c in range(4) if left[c * 13 + n]]
            rng.shuffle(colours)
            k = rng.choice((3, 4)) if want >= 4 else 3
            meld = [c * 13 + n for c in colours[:k]]
        else:
            c = rng.randrange(4)
            length = rng.randint(3, max(3, min(want, 7)))
            s = rng.randint(0, 13 - length)
            meld = [c * 13 + p for p in range(s, s + length) if left[c * 13 + p]]
            if len(meld) < length:
                meld = []
        if len(meld) < 3 or len(table) + len(meld) > size:
            continue
        if left[JOKER] and rng.random() < joker_rate:
            meld[rng.randrange(len(meld))] = JOKER
        need = [0] * 53
        for t in meld:
            need[t] += 1
        if any(need[t] > left[t] for t in range(53)):
            continue
        for t in meld:
            left[t] -= 1
        table.extend(meld)
    rest = [t for t in range(53) for _ in range(left[t])]
    return table, rest


def random_position(seed, ts: TileSet = STANDARD, table_size: int = 40,
                    rack_size: int = 14, joker_rate: float = 0.15
                    ) -> tuple[list[int], list[int]]:
    """``(table, rack)`` for a seed: a divisible table of about
    ``table_size`` tiles and a rack of ``rack_size`` drawn at random from
    what is left."""
    rng = random.Random(seed)
    table, rest = random_table(rng, ts, table_size, joker_rate)
    rng.shuffle(rest)
    return sorted(table), sorted(rest[:rack_size])
