"""Laying out a play on a table as it is laid out: keep what can be kept.

:func:`arrange` divides table + play keeping as many of the old melds as it
can, whole or grown at their ends by played tiles (the moves a player makes
at a real table); :func:`moved_tiles` counts the table tiles that left their
meld in a layout. Used by the solver's ``fewest_moves`` option and by the AI
players to turn an answer into a move.
"""

from __future__ import annotations

from ..melds import GROUP_JOKER, RUN_JOKER, canonical, meld_kind
from ..tiles import JOKER, counts_of
from .division import divide_codes


def meld_tiles(m) -> list[int]:
    return [s if s < 52 else JOKER for s in m]


def _extensions(m: tuple, left: list[int]) -> list[tuple]:
    """``m`` grown by numbered tiles of ``left`` (53 counts): a run at its
    ends (longest first), a group of three by a missing colour."""
    kind = meld_kind(m)
    out = []
    if kind == "run":
        codes = [s if s < 52 else s - RUN_JOKER for s in m]
        colour = codes[0] // 13
        lo, hi = min(c % 13 for c in codes), max(c % 13 for c in codes)
        below, above = [], []
        n = lo - 1
        while n >= 0 and left[colour * 13 + n] > below.count(colour * 13 + n):
            below.append(colour * 13 + n)
            n -= 1
        n = hi + 1
        while n <= 12 and left[colour * 13 + n] > 0:
            above.append(colour * 13 + n)
            n += 1
        for a in range(len(below), -1, -1):
            for b in range(len(above), -1, -1):
                if a or b:
                    out.append(tuple(sorted(below[:a])) + m + tuple(above[:b]))
    elif kind == "group" and len(m) == 3:
        num = next(s for s in m if s < 52) % 13
        present = {s // 13 for s in m if s < 52}
        if any(s >= GROUP_JOKER for s in m):
            return out  # a joker's colour would have to be settled; leave it
        for c in range(4):
            if c not in present and left[c * 13 + num]:
                out.append(m + (c * 13 + num,))
    return out


def arrange(old: list[tuple], play: list[int], tileset) -> list[tuple] | None:
    """A division of the old table + ``play`` that keeps as many old melds
    as it can (whole, or grown at their ends by played tiles), or ``None``
    if table + play does not divide. Copies are not checked against
    ``tileset`` (the callers have checked the real tiles): a table joker
    that keeps its tile is laid out as that tile, maybe a third copy."""
    pcount = counts_of(play)
    # fast path: every old meld stays and the play divides by itself
    new = divide_codes(list(play)) if play else []
    if new is not None:
        return list(old) + list(new)
    # grow old melds with played tiles first, then keep what can be kept
    rest = counts_of([t for m in old for t in meld_tiles(m)])
    for t in range(53):
        rest[t] += pcount[t]
    free_play = list(pcount)
    kept = []
    for m in sorted(old, key=len, reverse=True):
        variants = _extensions(m, free_play) + [m]
        for v in variants:
            need = counts_of(meld_tiles(v))
            if any(need[t] > rest[t] for t in range(53)):
                continue
            remaining = [rest[t] - need[t] for t in range(53)]
            tiles = [t for t in range(53) for _ in range(remaining[t])]
            if divide_codes(tiles) is None:
                continue
            kept.append(canonical(v))
            rest = remaining
            extra = counts_of(meld_tiles(v))
            base = counts_of(meld_tiles(m))
            for t in range(53):
                free_play[t] -= max(0, extra[t] - base[t])
            break
    tiles = [t for t in range(53) for _ in range(rest[t])]
    new = divide_codes(tiles)
    if new is None:
        return None
    return kept + list(new)


def _contains(new: tuple, old: tuple) -> bool:
    """``new`` is ``old`` whole or grown at its ends (same slots kept)."""
    if new == old:
        return True
    if len(new) <= len(old):
        return False
    kind = meld_kind(old)
    if kind == "group":
        return meld_kind(new) == "group" and all(new.count(s) >= old.count(s) for s in old)
    if kind == "run" and meld_kind(new) == "run":
        k = len(old)
        return any(new[i:i + k] == old for i in range(len(new) - k + 1))
    return False


def moved_tiles(old: list[tuple], new: list[tuple]) -> int:
    """Table tiles that left their meld: the tiles of every old meld that
    is not found, whole or grown at its ends, in its own new meld."""
    free = list(new)
    moved = 0
    for m in sorted(old, key=len, reverse=True):
        for i, n in enumerate(free):
            if _contains(n, m):
                del free[i]
                break
        else:
            moved += len(m)
    return moved
