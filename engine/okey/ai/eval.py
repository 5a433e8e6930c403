"""How good an Okey rack is, for the computer players.

- :func:`cover`: the most tiles of the rack that fit in complete sets and
  runs at once (okeys wild, false jokers as the okey's face); 14 is a
  winning rack. With seven pairs on, the pairs count too.
- :func:`shape`: the near-melds among the rest, a finer tie-break: two
  tiles of one number in different colours, two tiles of one colour one or
  two apart, okeys.
"""

from __future__ import annotations

from functools import lru_cache

from ..hand import rack_counts



def _frozen(rack, okey: int) -> tuple[tuple[int, ...], int]:
    counts, wilds = rack_counts(rack, okey)
    return tuple(counts), wilds


def cover(rack, okey: int, rules, extra_wilds: int = 0) -> int:
    """The most tiles of ``rack`` in complete melds (or in pairs, with
    seven pairs on, whichever is more). ``extra_wilds`` adds that many
    okeys to the rack (a tile changed for whatever a meld needs: the
    analysis's distance to a win, :mod:`engine.okey.analysis`)."""
    counts, wilds = _frozen(rack, okey)
    wilds += extra_wilds
    best = _cover(counts, wilds)
    if rules.seven_pairs:
        pairs = sum(n // 2 for n in counts)
        singles = sum(n % 2 for n in counts)
        pairs += min(singles, wilds) + max(0, wilds - singles) // 2
        best = max(best, 2 * min(pairs, 7))
    return best


@lru_cache(maxsize=500_000)
def _cover(counts: tuple[int, ...], wilds: int) -> int:
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return 0
    rest = list(counts)
    rest[first] -= 1
    best = _cover(tuple(rest), wilds)            # this tile left out
    colour, number = divmod(first, 13)
    # sets of its number
    others = [c for c in range(4) if c != colour and counts[c * 13 + number]]
    for mask in range(1, 1 << len(others)):
        chosen = [others[k] for k in range(len(others)) if mask >> k & 1]
        r = list(rest)
        for c in chosen:
            r[c * 13 + number] -= 1
        for k in range(0, min(wilds, 3 - len(chosen)) + 1):
            size = 1 + len(chosen) + k
            if size in (3, 4):
                best = max(best, size + _cover(tuple(r), wilds - k))
    if not others:
        for k in (2, 3):
            if wilds >= k:
                best = max(best, 1 + k + _cover(tuple(rest), wilds - k))
    # runs starting at it (1 as 14 only at a run's top)
    for p in ((1, 14) if number == 0 else (number + 1,)):
        best = max(best, _runs(tuple(rest), wilds, colour, p))
    return best


def _runs(rest: tuple[int, ...], wilds: int, colour: int, p: int) -> int:
    """Runs of ``colour`` through position ``p`` (the tile taken out of
    ``rest``); positions below it are filled with naturals where the rack
    has them (only 12 and 13 below a 1 played as 14), else okeys."""
    best = 0
    for start in range(max(1, p - 13), p + 1):
        if start == 1 and p == 14:
            continue
        r = list(rest)
        used = 0
        ok = True
        for q in range(start, p):
            code = colour * 13 + q - 1
            if r[code]:
                r[code] -= 1
            elif used < wilds:
                used += 1
            else:
                ok = False
                break
        if not ok:
            continue
        length = p - start + 1
        q = p + 1
        while True:
            if length >= 3:
                best = max(best, length + _cover(tuple(r), wilds - used))
            if q > 14 or (start == 1 and q == 14):
                break
            code = colour * 13 + (0 if q == 14 else q - 1)
            if r[code]:
                r[code] -= 1
            elif used < wilds:
                used += 1
            else:
                break
            length += 1
            q += 1
    return best


def shape(rack, okey: int) -> int:
    """Near-melds among the rack's tiles: each pair of tiles that could be
    two of a set or of a run counts one, each okey counts two."""
    counts, wilds = _frozen(rack, okey)
    score = 2 * wilds
    for code, n in enumerate(counts):
        if not n:
            continue
        colour, number = divmod(code, 13)
        for c in range(colour + 1, 4):
            if counts[c * 13 + number]:
                score += 1
        for d in (1, 2):
            if number + d < 13 and counts[code + d]:
                score += 1
        if number == 0 and counts[colour * 13 + 12]:
            score += 1   # 13 and 1
    return score
