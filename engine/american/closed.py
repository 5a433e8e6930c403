"""International Rummikub's closed hands (seed 001): which of the 40 hand
types a 14-tile hand is, and what it scores.

Tiles are the engine's codes (:mod:`engine.tiles`): ``K R B O`` and 1-13,
``J`` a joker. The table's score columns are by the jokers in the hand (0,
1, 2). The readings (``docs/rules/international.md``):

- **Groups and runs** are American Rummikub's: a group is 3 or 4 tiles of
  one number in distinct colours; a run is 3 or more consecutive tiles of
  one colour, 1 low (1-2-3) or high (12-13-1), never both: 13-1-2 is no
  run. The only run from 1 to 1 is Royal's whole-hand run.
- A **joker** is the tile it stands for: its number for totals, minor and
  major, its colour for the colour types. In the "any 14 tiles" types
  (Piccolo 41 odd, Grand odd, Single colour odd, Grand square's free six)
  it stands for whatever suits the hand best.
- **Totals** count 1 as 1 (the table says so), a joker as what it stands for.
- **Minor**: no tile higher than 9; a 1 is low there. **Major**: no tile
  lower than 10, a 1 counting high: a run may end in 1 (12-13-1), a group
  of 1s is major.
- **Grand square**: eight tiles of one number (both copies of each
  colour, jokers standing in); "the other six can be anything": they need
  form no melds.
- **Two colours**: the runs use exactly two colours; one colour is the
  Single colour types'.
- **Waves**: two runs of seven (1-7, or 8-13 and 1 high), each number once
  in each run; "mixed colours" means no two neighbouring tiles of a run in
  one colour.
- **Little Blitz / Grand Blitz**: the hand's groups and runs, with the
  caller's word that it was the first turn / the original hand.
- Where a hand is of several types it scores the most valuable; ties go to
  the lower number in the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any, Iterator

from ..errors import NotationError
from ..tiles import COLOURS, JOKER, parse_tile

# number: (name, (no joker, one joker, two jokers))
TYPES: dict[int, tuple[str, tuple[int, int, int]]] = {
    1: ("Basic", (500, 400, 300)),
    2: ("Hand minor", (800, 700, 600)),
    3: ("Hand minor 51", (1000, 900, 800)),
    4: ("Minor 51 groups", (1600, 1400, 1200)),
    5: ("Minor 51 runs", (1600, 1400, 1200)),
    6: ("Piccolo 41 odd", (800, 700, 600)),
    7: ("Piccolo 41 sets", (1400, 1200, 1000)),
    8: ("Piccolo 41 runs", (1600, 1400, 1200)),
    9: ("Piccolo 41 groups", (1600, 1400, 1200)),
    10: ("Grand odd", (700, 600, 500)),
    11: ("Grand sets", (1400, 1200, 1000)),
    12: ("Grand square", (1600, 1400, 1200)),
    13: ("Four colours", (900, 800, 700)),
    14: ("Four colours minor", (1000, 900, 800)),
    15: ("Four colours major", (1000, 900, 800)),
    16: ("Three colours", (700, 600, 500)),
    17: ("Three colours minor", (900, 800, 700)),
    18: ("Three colours major", (900, 800, 700)),
    19: ("Two colours", (1000, 900, 800)),
    20: ("Two colours minor", (1400, 1200, 1000)),
    21: ("Two colours major", (1400, 1200, 1000)),
    22: ("Single colour odd", (1600, 1400, 1200)),
    23: ("Single colour runs", (2000, 1800, 1600)),
    24: ("Royal", (2400, 2200, 2000)),
    25: ("Sticks", (1000, 900, 800)),
    26: ("Sticks minor", (1400, 1200, 1000)),
    27: ("Sticks major", (1400, 1200, 1000)),
    28: ("Mosaic", (1000, 900, 800)),
    29: ("Little wave", (1200, 1000, 900)),
    30: ("Big wave", (1200, 1000, 900)),
    31: ("Little wave single colour", (2600, 2400, 2200)),
    32: ("Big wave single colour", (2600, 2400, 2200)),
    33: ("Little wave two colours", (2200, 2000, 1800)),
    34: ("Big wave two colours", (2200, 2000, 1800)),
    35: ("Seven pairs", (1700, 1500, 1300)),
    36: ("Seven pairs minor", (2000, 1800, 1600)),
    37: ("Seven pairs major", (2000, 1800, 1600)),
    38: ("Seven pairs single colour", (2200, 2000, 1800)),
    39: ("Little Blitz", (1600, 1400, 1200)),
    40: ("Grand Blitz", (2000, 1800, 1600)),
}

HAND = 14
MAX_JOKERS = 2


def _text(code: int) -> str:
    return "J" if code == JOKER else f"{COLOURS[code // 13]}{code % 13 + 1}"


def _code(colour: int, pos: int) -> int:
    """The tile at run position ``pos`` (1-14, 14 the high 1)."""
    return colour * 13 + (0 if pos == 14 else pos - 1)


@dataclass
class Meld:
    kind: str                     # "group" | "run"
    tiles: list[int]              # codes as held (JOKER for a joker), in order
    stands: list[int]             # per tile: the run position (1-14) or the group's number
    colour: int | None = None     # a run's colour

    def values(self) -> list[int]:
        return [1 if s == 14 else s for s in self.stands]

    def minor(self) -> bool:
        return all(s <= 9 for s in self.stands)

    def major(self) -> bool:
        if self.kind == "group":
            return all(s >= 10 or s == 1 for s in self.stands)
        return all(s >= 10 for s in self.stands)   # a run's 1 counts high only at 14


@dataclass
class Answer:
    types: list[int]
    best: int | None
    score: int
    melds: list[list[str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"types": self.types, "best": self.best, "score": self.score}
        if self.best is not None:
            out["melds"] = self.melds
        return out


# --- groups and runs ------------------------------------------------------------------
def arrangements(counts: list[int], jokers: int) -> Iterator[list[Meld]]:
    """Every division of the naturals (``counts``, 52 entries) and
    ``jokers`` into groups and runs (jokers each standing for one tile)."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        if jokers == 0:
            yield []
        return
    colour, n = divmod(first, 13)
    number = n + 1
    rest = list(counts)
    rest[first] -= 1
    # groups of its number
    others = [c for c in range(4) if c != colour and rest[c * 13 + n]]
    for mask in range(1 << len(others)):
        chosen = [others[k] for k in range(len(others)) if mask >> k & 1]
        for k in range(0, min(jokers, 3 - len(chosen)) + 1):
            if 1 + len(chosen) + k not in (3, 4):
                continue
            r = list(rest)
            for c in chosen:
                r[c * 13 + n] -= 1
            meld = Meld("group", [first] + [c * 13 + n for c in chosen] + [JOKER] * k,
                        [number] * (1 + len(chosen) + k))
            for tail in arrangements(r, jokers - k):
                yield [meld] + tail
    # runs through it
    for p in ((1, 14) if number == 1 else (number,)):
        for start in range(1, p + 1):
            for end in range(max(p, start + 2), 15):
                if start == 1 and end == 14:
                    continue   # 1 to 1: only Royal's whole hand (royal())
                yield from _runs(rest, jokers, colour, first, p, start, end)


def _runs(rest, jokers, colour, first, p, start, end):
    def fill(q, r, used, tiles):
        if q > end:
            meld = Meld("run", tiles, list(range(start, end + 1)), colour)
            for tail in arrangements(r, jokers - used):
                yield [meld] + tail
            return
        if q == p:
            yield from fill(q + 1, r, used, tiles + [first])
            return
        code = _code(colour, q)
        if r[code]:
            r[code] -= 1
            yield from fill(q + 1, r, used, tiles + [code])
            r[code] += 1
        if used < jokers:
            yield from fill(q + 1, r, used + 1, tiles + [JOKER])

    yield from fill(start, list(rest), 0, [])


def meld_types(melds: list[Meld], first_turn: bool, original_hand: bool) -> set[int]:
    """The types an arrangement in groups and runs shows."""
    groups = [m for m in melds if m.kind == "group"]
    runs = [m for m in melds if m.kind == "run"]
    total = sum(sum(m.values()) for m in melds)
    minor = all(m.minor() for m in melds)
    major = all(m.major() for m in melds)
    colours = {m.colour for m in runs}
    out = {1}
    if minor:
        out.add(2)
        if total <= 51:
            out.add(3)
    if not runs and total <= 51:
        out.add(4)
    if not groups and total <= 51:
        out.add(5)
    if total <= 41:
        out.add(7)
        if not groups:
            out.add(8)
        if not runs:
            out.add(9)
    if major:
        out.add(11)
    if not groups:
        distinct = len(colours) == len(runs)
        for count, base in ((4, 13), (3, 16)):
            if len(runs) == count and distinct:
                out.add(base)
                if minor:
                    out.add(base + 1)
                if major:
                    out.add(base + 2)
        if 2 <= len(runs) <= 4 and len(colours) == 2:
            out.add(19)
            if minor:
                out.add(20)
            if major:
                out.add(21)
        if 2 <= len(runs) <= 4 and len(colours) == 1:
            out.add(23)
    if not runs and len(groups) == 4:
        out.add(25)
        if minor:
            out.add(26)
        if major:
            out.add(27)
    if first_turn:
        out.add(39)
    if original_hand:
        out.add(40)
    return out


# --- the other types ---------------------------------------------------------------------
def _numbers(tiles: list[int]) -> list[int]:
    return [t % 13 + 1 for t in tiles if t != JOKER]


def royal(naturals: list[int], jokers: int) -> list[int] | None:
    """Type 24: one run of one colour, 1 (low) to 1 (high)."""
    colours = {t // 13 for t in naturals}
    if len(colours) > 1:
        return None
    colour = colours.pop() if colours else 0
    need = [_code(colour, p) for p in range(1, 15)]
    left = list(naturals)
    for t in need:
        if t in left:
            left.remove(t)
    if left or len(naturals) + jokers != HAND:
        return None
    have = list(naturals)
    out = []
    for t in need:
        if t in have:
            have.remove(t)
            out.append(t)
        else:
            out.append(JOKER)
    return out


def _sequence_ok(seq: list[int]) -> bool:
    """No two neighbouring naturals of one colour (jokers take any colour)."""
    return all(a == JOKER or b == JOKER or a // 13 != b // 13 for a, b in zip(seq, seq[1:]))


def mosaic(naturals: list[int], jokers: int) -> list[int] | None:
    """Type 28: one run 1 (low) to 1 (high) in mixed colours."""
    by_pos: dict[int, list[int]] = {}
    for t in naturals:
        by_pos.setdefault(t % 13 + 1, []).append(t)
    if any(len(v) > (2 if n == 1 else 1) for n, v in by_pos.items()):
        return None
    if len(naturals) + jokers != HAND:
        return None
    ones = by_pos.get(1, [])
    options = []
    if len(ones) == 2:
        options = [(ones[0], ones[1]), (ones[1], ones[0])]
    elif len(ones) == 1:
        options = [(ones[0], JOKER), (JOKER, ones[0])]
    else:
        options = [(JOKER, JOKER)]
    for low, high in options:
        seq = [low] + [by_pos.get(n, [JOKER])[0] for n in range(2, 14)] + [high]
        if _sequence_ok(seq):
            return seq
    return None


def waves(naturals: list[int], jokers: int, big: bool) -> dict[str, list[list[int]]]:
    """Types 29-34: two runs of seven (1-7, or 8 to the high 1), each
    number once in each. Returns the witness pair of runs per kind found:
    ``mixed``, ``single``, ``two``."""
    positions = list(range(8, 15)) if big else list(range(1, 8))
    numbers = [1 if p == 14 else p for p in positions]
    by_num: dict[int, list[int]] = {}
    for t in naturals:
        by_num.setdefault(t % 13 + 1, []).append(t)
    if set(by_num) - set(numbers) or any(len(v) > 2 for v in by_num.values()):
        return {}
    if len(naturals) + jokers != HAND:
        return {}
    found: dict[str, list[list[int]]] = {}
    # each number's two tiles (naturals, then jokers) split between run a and run b
    slots = [(by_num.get(n, []) + [JOKER, JOKER])[:2] for n in numbers]
    for flips in product((0, 1), repeat=len(numbers)):
        a = [s[f] for s, f in zip(slots, flips)]
        b = [s[1 - f] for s, f in zip(slots, flips)]
        ca = {t // 13 for t in a if t != JOKER}
        cb = {t // 13 for t in b if t != JOKER}
        if "mixed" not in found and _sequence_ok(a) and _sequence_ok(b):
            found["mixed"] = [a, b]
        if len(ca) <= 1 and len(cb) <= 1:       # each run of one colour
            if "single" not in found and len(ca | cb) <= 1:
                found["single"] = [a, b]
            if "two" not in found and not (ca and cb and ca == cb):
                found["two"] = [a, b]
    return found


def seven_pairs(naturals: list[int], jokers: int) -> list[list[int]] | None:
    counts: dict[int, int] = {}
    for t in naturals:
        counts[t] = counts.get(t, 0) + 1
    pairs, singles = [], []
    for t, k in sorted(counts.items()):
        pairs += [[t, t]] * (k // 2)
        if k % 2:
            singles.append(t)
    if len(singles) > jokers or (jokers - len(singles)) % 2:
        return None
    pairs += [[t, JOKER] for t in singles] + [[JOKER, JOKER]] * ((jokers - len(singles)) // 2)
    return pairs if len(pairs) == 7 else None


def odd_types(naturals: list[int], jokers: int) -> dict[int, list[list[int]]]:
    """Types 6, 10, 12 and 22: conditions on any 14 tiles."""
    out: dict[int, list[list[int]]] = {}
    hand = naturals + [JOKER] * jokers
    nums = _numbers(naturals)
    if sum(nums) + jokers <= 41:
        out[6] = [hand]
    if all(n >= 10 or n == 1 for n in nums):
        out[10] = [hand]
    for n in range(1, 14):
        same = [t for t in naturals if t % 13 + 1 == n]
        if len(same) + jokers >= 8:
            eight = same + [JOKER] * (8 - len(same))
            rest = [t for t in naturals if t % 13 + 1 != n] + [JOKER] * (jokers - (8 - len(same)))
            out[12] = [eight, rest]
            break
    if len({t // 13 for t in naturals}) <= 1:
        out[22] = [hand]
    return out


# --- the classifier --------------------------------------------------------------------------
def read_hand(tiles) -> list[int]:
    """:raises NotationError: not 14 tiles, unknown codes, too many copies or jokers."""
    if not isinstance(tiles, list):
        raise NotationError("tiles is a list of 14 tile codes", token=repr(tiles))
    codes = []
    for t in tiles:
        if not isinstance(t, str):
            raise NotationError(f"a tile is text, not {t!r}", token=repr(t))
        codes.append(int(parse_tile(t.strip())))
    if len(codes) != HAND:
        raise NotationError(f"a closed hand is {HAND} tiles, not {len(codes)}", token="")
    jokers = codes.count(JOKER)
    if jokers > MAX_JOKERS:
        raise NotationError(f"{jokers} jokers: the set has {MAX_JOKERS}", token="J")
    for c in set(codes) - {JOKER}:
        if codes.count(c) > 2:
            raise NotationError(f"{_text(c)} appears {codes.count(c)} times: the set has two",
                                token=_text(c))
    return codes


def classify(tiles, *, first_turn: bool = False, original_hand: bool = False) -> Answer:
    """Every type of seed 001's table ``tiles`` (14 codes) satisfies, the
    most valuable, its score and an arrangement that shows it.

    :raises NotationError: a malformed hand.
    """
    codes = read_hand(tiles)
    jokers = codes.count(JOKER)
    naturals = sorted(c for c in codes if c != JOKER)
    found: dict[int, list[list[int]]] = {}
    counts = [0] * 52
    for c in naturals:
        counts[c] += 1
    for melds in arrangements(counts, jokers):
        for t in meld_types(melds, first_turn, original_hand):
            if t not in found:
                found[t] = [m.tiles for m in melds]
    found.update({k: v for k, v in odd_types(naturals, jokers).items() if k not in found})
    r = royal(naturals, jokers)
    if r is not None:
        found[24] = [r]
    m = mosaic(naturals, jokers)
    if m is not None:
        found[28] = [m]
    for big, base in ((False, 29), (True, 30)):
        w = waves(naturals, jokers, big)
        if "mixed" in w:
            found[base] = w["mixed"]
        if "single" in w:
            found[base + 2] = w["single"]
        if "two" in w:
            found[base + 4] = w["two"]
    p = seven_pairs(naturals, jokers)
    if p is not None:
        nums = _numbers(naturals)
        found[35] = p
        if all(n <= 9 for n in nums):
            found[36] = p
        if all(n >= 10 or n == 1 for n in nums):
            found[37] = p
        if len({t // 13 for t in naturals}) <= 1:
            found[38] = p
    if not found:
        return Answer([], None, 0)
    types = sorted(found)
    best = max(types, key=lambda t: (TYPES[t][1][jokers], -t))
    return Answer(types, best, TYPES[best][1][jokers],
                  [[_text(c) for c in meld] for meld in found[best]])
