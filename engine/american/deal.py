"""The deal of American and International Rummikub (seed 001): 15 stacks
of 7 and one tile over, from a seed's shuffle or typed in from a real table.

Each player takes two stacks in turn from the starting seat. American: the
odd tile is the face-up trump in the centre. International: the odd tile
goes to the starter (15 tiles), and the trump is the face-up top tile of the
stack drawn last: the seventh tile from the end of the pool.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import DealError, NotationError
from ..tiles import JOKER, format_tile, parse_tile

HAND = 14
STACK = 7
#: the 106 tiles: two of each numbered tile and two jokers
TILES: tuple[int, ...] = tuple(sorted(list(range(52)) * 2 + [JOKER, JOKER]))


def _code(text: str) -> int:
    return int(parse_tile(text))


def deal_from(tiles: list[int], n: int, first: int, international: bool):
    """``(racks, pool, trump)`` from the shuffled tiles: the pool in the
    order drawn."""
    racks: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        seat = (first + i) % n
        racks[seat] = [int(t) for t in tiles[HAND * i:HAND * (i + 1)]]
    odd = int(tiles[HAND * n])
    pool = [int(t) for t in tiles[HAND * n + 1:]]
    if international:
        racks[first].append(odd)
        return racks, pool, pool[-STACK]
    return racks, pool, odd


def check_deal(deal: dict[str, Any], n: int, first: int, international: bool):
    """``(racks, pool, trump)`` of a typed-in deal: ``{"hands": [[tiles of
    seat 0], ...], "pool": [tiles in the order drawn]}``, and American's
    ``"trump"`` (a tile, or a list of one as a record's Deal tag gives it).

    :raises DealError: a malformed deal, or not the 106 tiles.
    """
    if not isinstance(deal, dict):
        raise DealError('a deal is {"hands": [[tiles of seat 0], ...], "pool": [tiles in the order drawn]'
                        + ("" if international else ', "trump": tile') + "}")
    want_keys = {"hands", "pool"} | (set() if international else {"trump"})
    if set(deal) != want_keys:
        raise DealError(f"a deal has the keys {', '.join(sorted(want_keys))}, not "
                        f"{', '.join(sorted(map(str, deal)))}")
    hands, pool = deal["hands"], deal["pool"]
    if not isinstance(hands, list) or len(hands) != n or not all(isinstance(h, list) for h in hands):
        raise DealError(f"hands is one list of tiles per seat ({n})")
    if not isinstance(pool, list):
        raise DealError("pool is a list of tiles in the order drawn")
    try:
        racks = [[_code(t) for t in h] for h in hands]
        tiles = [_code(t) for t in pool]
        trump = None
        if not international:
            raw = deal["trump"]
            raw = raw[0] if isinstance(raw, list) and len(raw) == 1 else raw
            if not isinstance(raw, str):
                raise DealError("trump is one tile")
            trump = _code(raw)
    except NotationError as exc:
        raise DealError(f"the deal: {exc}") from None
    for s, r in enumerate(racks):
        want = HAND + (1 if international and s == first else 0)
        if len(r) != want:
            raise DealError(f"seat {s} has {len(r)} tiles, not {want}")
    if international:
        if len(tiles) < STACK:
            raise DealError("the pool holds at least the trump's stack (7 tiles)")
        trump = tiles[-STACK]
    have = Counter(tiles + [t for r in racks for t in r] + ([] if international else [trump]))
    if have != Counter(TILES):
        diff = (Counter(TILES) - have) + (have - Counter(TILES))
        name = format_tile(sorted(diff)[0])
        raise DealError(f"the tiles are not the 106 (two of each, two jokers): {name} appears "
                        f"{have[_code(name)]} times")
    return racks, tiles, trump
