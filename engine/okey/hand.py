"""The Okey hand checker.

Tiles are written in the project's tile notation (:mod:`engine.tiles`):
a colour letter and a number, ``K`` black, ``R`` red, ``B`` blue, ``O``
orange (Okey's yellow), 1-13; ``F`` is a false joker (sahte okey). Okey has
no ``J``.

- The **okey** is the tile of the indicator's colour one higher, 13 wrapping
  to 1 (:func:`okey_of`). Both copies of it are wild.
- A **false joker** stands only for the okey's own face: it is that tile,
  natural.
- A winning hand is 14 tiles, all in **sets** (3 or 4 of one number in
  distinct colours) and **runs** (3 or more consecutive of one colour; 1 is
  low or high, so 12-13-1 is a run and 13-1-2 is not), or, when the rule
  ``seven_pairs`` is on, **seven pairs** of identical tiles (a wild pairs
  with anything).
- With 15 tiles the question is whether some discard leaves a winning 14.
  Where several do, a discard that makes the win worth more is chosen: the
  okey itself (the win by discarding an okey), and seven pairs before sets
  and runs (it costs the others more).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import NotationError
from ..tiles import COLOURS, parse_tile
from .rules import OkeyRules

FALSE_JOKER = "F"
F_CODE = 52  # a false joker among the game's tile codes
_NAT = 52  # numbered tile codes 0..51 (engine.tiles): colour * 13 + number - 1


@dataclass(frozen=True)
class HandAnswer:
    okey: str
    winning: bool
    kind: str | None = None
    melds: list[list[str]] = field(default_factory=list)
    discard: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"okey": self.okey, "winning": self.winning, "kind": self.kind,
                "melds": [list(m) for m in self.melds], "discard": self.discard}


def parse_okey_tile(text: str) -> int | str:
    """A numbered tile's code (0..51), or :data:`FALSE_JOKER`.

    :raises NotationError: not an Okey tile.
    """
    if not isinstance(text, str):
        raise NotationError(f"a tile is text, not {text!r}", token=repr(text))
    t = text.strip().upper()
    if t == FALSE_JOKER:
        return FALSE_JOKER
    if t == "J":
        raise NotationError("Okey has no J tile: a false joker is F", token=text)
    return int(parse_tile(t))


def okey_of(indicator: int) -> int:
    """The okey for an indicator tile: its colour, one higher, 13 to 1."""
    colour, number = divmod(int(indicator), 13)
    return colour * 13 + (number + 1) % 13


def _text(code: int) -> str:
    return f"{COLOURS[code // 13]}{code % 13 + 1}"


def _position_code(colour: int, position: int) -> int:
    return colour * 13 + (0 if position == 14 else position - 1)


@lru_cache(maxsize=200_000)
def _melds(counts: tuple[int, ...], wilds: int) -> tuple | None:
    """Sets and runs using every natural in ``counts`` and every wild, or
    ``None``. Each meld is a tuple of items: a natural's code, or
    ``("W", colour, position)`` / ``("W", number)`` for a wild in a run / set."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return () if wilds == 0 else None
    colour, number = divmod(first, 13)
    number += 1
    # sets of this number: other colours present, wilds for missing colours
    others = [c for c in range(4) if c != colour and counts[c * 13 + number - 1]]
    for mask in range(1 << len(others)):
        chosen = [others[k] for k in range(len(others)) if mask >> k & 1]
        for k in range(0, min(wilds, 4 - 1 - len(chosen)) + 1):
            size = 1 + len(chosen) + k
            if size not in (3, 4):
                continue
            rest = list(counts)
            for c in [colour] + chosen:
                rest[c * 13 + number - 1] -= 1
            tail = _melds(tuple(rest), wilds - k)
            if tail is not None:
                meld = tuple([colour * 13 + number - 1] + [c * 13 + number - 1 for c in chosen] +
                             [("W", number)] * k)
                return (meld,) + tail
    # runs of this colour through it (1 low, or high as 14; never both)
    for p in ((1, 14) if number == 1 else (number,)):
        # below a tile that is not 1-as-14 its colour has no naturals left
        # (it is the lowest code), so only okeys can start the run lower
        low = max(1, p - 13) if p == 14 else max(1, p - wilds)
        for start in range(low, p + 1):
            for end in range(max(p, start + 2), 15):
                if start == 1 and end == 14:
                    continue
                found = _run(counts, wilds, colour, first, p, start, end)
                if found is not None:
                    return found
    return None


def _run(counts, wilds, colour, first, p, start, end):
    rest = list(counts)
    rest[first] -= 1
    items: list[Any] = []
    used = 0

    def fill(q, rest, used, items):
        if q > end:
            tail = _melds(tuple(rest), wilds - used)
            return None if tail is None else (tuple(items),) + tail
        if q == p:
            return fill(q + 1, rest, used, items + [first])
        code = _position_code(colour, q)
        if rest[code]:
            rest[code] -= 1
            got = fill(q + 1, rest, used, items + [code])
            rest[code] += 1
            if got is not None:
                return got
        if used < wilds:
            return fill(q + 1, rest, used + 1, items + [("W", colour, q)])
        return None

    return fill(start, rest, used, items)


# the codes that could sit next to a tile in a run: one or two away in its
# colour, 13 and 1 neighbours (12-13-1); and the same number in the others
_NEAR = tuple(
    tuple(sorted({(code // 13) * 13 + (code % 13 + d) % 13 for d in (-2, -1, 1, 2)
                  if 0 <= code % 13 + d <= 13 or code % 13 + d in (-1, -2)}
                 | {c * 13 + code % 13 for c in range(4) if c != code // 13}))
    for code in range(_NAT))


def _isolated(counts: list[int]) -> int:
    """Natural tiles that no other tile could join in a set or a run: no
    tile of the same number in another colour, none of the same colour one
    or two away (13 and 1 are neighbours)."""
    n = 0
    for code in range(_NAT):
        k = counts[code]
        if k:
            for other in _NEAR[code]:
                if counts[other]:
                    break
            else:
                n += k
    return n


def rack_counts(codes, okey: int) -> tuple[list[int], int]:
    """Game tile codes as 52 natural counts (a false joker counted as the
    okey's face) and the number of okeys (wild)."""
    counts = [0] * _NAT
    wilds = 0
    for t in codes:
        if t == F_CODE:
            counts[okey] += 1
        elif t == okey:
            wilds += 1
        else:
            counts[t] += 1
    return counts, wilds


def finishing_discards(codes, okey: int, rules: OkeyRules) -> list[int]:
    """The tiles of a 15-tile rack (game codes, :data:`F_CODE` a false
    joker) whose discard leaves a winning 14. Most racks are ruled out at
    once: more tiles without a neighbour than one discard and the okeys can
    cover."""
    counts, wilds = rack_counts(codes, okey)
    if not rules.seven_pairs:
        alone = _isolated(counts)
        if alone > 1 and (wilds < 2 or alone - 1 > wilds // 2 + 1):
            return []
    out = []
    for t in sorted(set(codes)):
        rest = list(codes)
        rest.remove(t)
        if _win_cached(tuple(sorted(rest)), okey, rules) is not None:
            out.append(t)
    return out


@lru_cache(maxsize=50_000)
def _win_cached(codes: tuple[int, ...], okey: int, rules: OkeyRules):
    return _win([FALSE_JOKER if c == F_CODE else c for c in codes], okey, rules)


def _pairs(counts: list[int], wilds: int) -> list[list[Any]] | None:
    pairs, singles = [], []
    for code, n in enumerate(counts):
        pairs += [[code, code]] * (n // 2)
        if n % 2:
            singles.append(code)
    if len(singles) > wilds or (wilds - len(singles)) % 2:
        return None
    pairs += [[code, "W"] for code in singles]
    left = wilds - len(singles)
    pairs += [["W", "W"]] * (left // 2)
    return pairs if len(pairs) == 7 else None


def _win(tiles: list[int | str], okey: int, rules: OkeyRules) -> tuple[str, list[list[str]]] | None:
    """The winning reading of 14 tiles: ``("pairs" | "melds", melds)``."""
    counts = [0] * _NAT
    wilds = 0
    for t in tiles:
        if t == FALSE_JOKER:
            counts[okey] += 1       # the okey's own face, natural
        elif t == okey:
            wilds += 1              # the real joker
        else:
            counts[t] += 1

    def show(item):
        if item == "W" or isinstance(item, tuple):
            return _text(okey)
        return FALSE_JOKER if item == okey else _text(item)

    if rules.seven_pairs:
        pairs = _pairs(counts, wilds)
        if pairs is not None:
            return "pairs", [[show(i) for i in p] for p in pairs]
    alone = _isolated(counts)
    if alone and (wilds < 2 or alone > wilds // 2 + 1):
        # a tile with no neighbour needs two okeys in its meld; one run can
        # share them between tiles three apart (K1 okey okey K4)
        return None
    melds = _melds(tuple(counts), wilds)
    if melds is not None:
        return "melds", [[show(i) for i in m] for m in melds]
    return None


def check(tiles: list[str], *, okey: str | None = None, indicator: str | None = None,
          rules: dict[str, Any] | OkeyRules | None = None) -> HandAnswer:
    """Whether ``tiles`` (14, or 15 with a discard to find) make a winning
    Okey hand; the okey given, or found from the indicator.

    :raises NotationError: malformed tiles, okey or indicator.
    :raises RuleOptionError: unknown rule options.
    """
    rules = rules if isinstance(rules, OkeyRules) else OkeyRules.from_dict(rules)
    if (okey is None) == (indicator is None):
        raise NotationError("give exactly one of okey and indicator", token="")
    face = parse_okey_tile(okey if okey is not None else indicator)
    if face == FALSE_JOKER:
        raise NotationError("the okey and the indicator are numbered tiles, not F", token="F")
    okey_code = face if okey is not None else okey_of(face)
    if not isinstance(tiles, list):
        raise NotationError("tiles is a list of 14 or 15 tile codes", token=repr(tiles))
    parsed = [parse_okey_tile(t) for t in tiles]
    if len(parsed) not in (14, 15):
        raise NotationError(f"a hand is 14 tiles (15 with a discard to choose), not {len(parsed)}", token="")
    counted = Counter(parsed)
    for tile, n in counted.items():
        if n > 2:
            name = tile if tile == FALSE_JOKER else _text(tile)
            raise NotationError(f"{name} appears {n} times: the set has two of each tile", token=name)
    if okey is None and counted.get(face, 0) > 1:
        raise NotationError(f"the indicator {_text(face)} is face up: a hand holds at most one more",
                            token=_text(face))
    name = _text(okey_code)
    if len(parsed) == 14:
        won = _win(parsed, okey_code, rules)
        return HandAnswer(name, won is not None, won[0] if won else None, won[1] if won else [], None)
    best = None
    for discard in sorted(set(parsed), key=lambda t: (t != okey_code, t == FALSE_JOKER, str(t))):
        rest = list(parsed)
        rest.remove(discard)
        won = _win(rest, okey_code, rules)
        if won is None:
            continue
        value = (2 if discard == okey_code else 1) * (2 if won[0] == "pairs" else 1)
        if best is None or value > best[0]:
            best = (value, discard, won)
    if best is None:
        return HandAnswer(name, False)
    _, discard, (kind, melds) = best
    return HandAnswer(name, True, kind, melds, FALSE_JOKER if discard == FALSE_JOKER else _text(discard))


def winning_reading(codes, okey: int, rules: OkeyRules) -> tuple[str, list[list[str]]] | None:
    """The winning reading of 14 tile codes as the game keeps them (0..51,
    :data:`F_CODE` for a false joker): ``("melds" | "pairs", melds)`` or
    ``None``."""
    return _win_cached(tuple(sorted(codes)), okey, rules)


def tile_text(code: int) -> str:
    """A game tile code's text (``"R5"``, ``"F"``)."""
    return FALSE_JOKER if code == F_CODE else _text(code)
