"""Finding melds in a rack, for the computer players: every group and run
the rack can make (:func:`candidates`), the disjoint set of them that lays
the most tiles (:func:`best_cover`), and the rack tiles that extend melds on
the table (:func:`extensions`). Runs may have their 1 high (``12-13-1``),
never both ends at once; a meld holds at most two jokers."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from ...melds import RUN_JOKER, GROUP_JOKER, MeldRules, canonical, meld_kind, meld_tiles, meld_value
from ...tiles import JOKER

MAX_JOKERS_PER_MELD = 2
NODE_LIMIT = 20_000


def candidates(rack: Counter, rules: MeldRules, max_jokers: int | None = None) -> list[tuple]:
    """Every valid meld (canonical slots) the rack's tiles can make, jokers
    standing in for at most two tiles each."""
    jokers = min(rack.get(JOKER, 0), MAX_JOKERS_PER_MELD if max_jokers is None else max_jokers)
    out: set[tuple] = set()
    for number in range(13):
        colours = [c for c in range(4) if rack.get(c * 13 + number, 0) > 0]
        for size in (3, 4):
            for k in range(0, min(jokers, size - 1) + 1):
                real = size - k
                if real < 1 or real > len(colours):
                    continue
                for cs in combinations(colours, real):
                    m = canonical([c * 13 + number for c in cs] + [GROUP_JOKER + number] * k)
                    if meld_kind(m, rules):
                        out.add(m)
    for colour in range(4):
        have = [rack.get(colour * 13 + (p % 13), 0) > 0 for p in range(14)]   # position 13: the 1 high
        for start in range(14):
            for end in range(start + 2, 14):
                if start == 0 and end == 13:
                    continue                                  # a 1 at both ends
                positions = range(start, end + 1)
                gaps = sum(1 for p in positions if not have[p])
                if gaps > jokers or (end - start + 1) - gaps < 1:
                    if gaps > jokers:
                        break
                    continue
                slots = [colour * 13 + p % 13 if have[p] else RUN_JOKER + colour * 13 + p % 13 for p in positions]
                m = canonical(slots)
                if meld_kind(m, rules):
                    out.add(m)
    return sorted(out, key=lambda m: (-len(m), m))


def _fits(need: Counter, have: Counter) -> bool:
    return all(have.get(t, 0) >= k for t, k in need.items())


def best_cover(rack: Counter, rules: MeldRules, *, keep: int = 1,
               key=None) -> list[tuple]:
    """The disjoint melds that lay the most rack tiles (then the most
    points), leaving at least ``keep`` tiles on the rack. ``key(melds)``
    may rank covers otherwise (higher is better)."""
    cands = [(m, Counter(meld_tiles(m))) for m in candidates(rack, rules)]
    total = sum(rack.values())
    best: list = [[], (0, 0)]
    nodes = 0
    score = key or (lambda ms: (sum(len(m) for m in ms), sum(meld_value(m, rules) for m in ms)))

    def go(i: int, have: Counter, chosen: list, laid: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > NODE_LIMIT:
            return
        if total - laid >= keep:
            s = score(chosen)
            if s > best[1]:
                best[0], best[1] = list(chosen), s
        for j in range(i, len(cands)):
            m, need = cands[j]
            if laid + len(m) > total - keep or not _fits(need, have):
                continue
            have.subtract(need)
            chosen.append(m)
            go(j, have, chosen, laid + len(m))
            chosen.pop()
            have.update(need)

    go(0, Counter(rack), [], 0)
    return best[0]


def extensions(rack: Counter, table: list, rules: MeldRules, *, keep: int = 1) -> list[tuple[int, tuple]]:
    """Rack tiles (never jokers) that extend melds on the table, one at a
    time while the meld stays valid: ``[(meld number from 1, slots)]``,
    leaving at least ``keep`` tiles."""
    have = Counter(rack)
    left = sum(have.values())
    melds = [m for _, m in table]
    out: dict[int, list[int]] = {}
    changed = True
    while changed and left > keep:
        changed = False
        for i, m in enumerate(melds):
            for t in sorted(have):
                if t == JOKER or have[t] <= 0 or left <= keep:
                    continue
                grown = canonical(list(m) + [t])
                if meld_kind(grown, rules):
                    melds[i] = m = grown
                    have[t] -= 1
                    left -= 1
                    out.setdefault(i + 1, []).append(t)
                    changed = True
    return [(n, tuple(ts)) for n, ts in sorted(out.items())]


def joker_slot(meld: tuple, rules: MeldRules) -> int | None:
    """A slot in which a joker extends ``meld`` (a run's end, a group's
    missing colour), or ``None``."""
    for s in _JOKER_SLOTS:
        if meld_kind(canonical(list(meld) + [s]), rules):
            return s
    return None


_JOKER_SLOTS = list(range(RUN_JOKER, RUN_JOKER + 52)) + list(range(GROUP_JOKER, GROUP_JOKER + 13))


def lay_plan(rack: Counter, table: list, rules: MeldRules) -> tuple[list[tuple], list[tuple[int, tuple]], Counter]:
    """What the rack can lay now, keeping one tile to discard: the melds of
    :func:`best_cover`, the additions of the rest to the table's melds
    (:func:`extensions`), and the tiles left. When only jokers and one other
    tile are left, the jokers go onto the table's melds too (a joker extends
    almost any meld), so the rack goes out with that tile's discard."""
    melds = best_cover(rack, rules)
    rest = Counter(rack)
    for m in melds:
        rest.subtract(Counter(meld_tiles(m)))
    rest = +rest
    adds = extensions(rest, table, rules)
    left = Counter(rest)
    for _, s in adds:
        left.subtract(Counter(s))
    left = +left
    jokers = left.get(JOKER, 0)
    others = sum(left.values()) - jokers
    need = jokers if others == 1 else jokers - 1
    if jokers and others <= 1 and need > 0:
        grown = {i + 1: m for i, (_, m) in enumerate(table)}
        added = {n: list(s) for n, s in adds}
        for n, s in added.items():
            grown[n] = canonical(list(grown[n]) + s)
        placed = 0
        for n in sorted(grown):
            while placed < need:
                s = joker_slot(grown[n], rules)
                if s is None:
                    break
                grown[n] = canonical(list(grown[n]) + [s])
                added.setdefault(n, []).append(s)
                placed += 1
        if placed == need:
            adds = [(n, tuple(s)) for n, s in sorted(added.items())]
            left[JOKER] -= need
            left = +left
    return melds, adds, left
