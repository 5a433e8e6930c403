"""Dividing a multiset of tiles into valid melds (:func:`divide`, the
dispute "was the table valid"), and reading the solver's inputs: tiles from
tokens or codes, a tile set by name. :mod:`.api` and :mod:`.layout` both
build on it.
"""

from __future__ import annotations

from ..tiles import JOKER, Tile, TileSet, counts_of, parse_tiles, tileset as _tileset
from . import core


_CODES = frozenset((int, Tile))  # the types a list of tile codes holds


def read_tiles(value, what: str) -> list[int]:
    """Tile codes from tokens or codes (``None``: none); an error names
    ``what`` was being read."""
    if value is None:
        return []
    if core.LEAN and type(value) is list:
        kinds = set(map(type, value))
        if kinds <= _CODES and (not value or 0 <= min(value) and max(value) <= JOKER):
            # codes already (what the engine passes)
            return list(map(int, value)) if Tile in kinds else value[:]
    try:
        return [int(t) for t in parse_tiles(value)]
    except ValueError as exc:
        raise type(exc)(f"{what}: {exc}") from None


def resolve_tileset(ts) -> TileSet:
    """A :class:`TileSet` from itself or its name (``None``: standard)."""
    if isinstance(ts, TileSet):
        return ts
    return _tileset(ts or "standard")


def split_counts(tiles: list[int]) -> tuple[list[int], int]:
    """52 counts of numbered tiles, and the number of jokers."""
    c = counts_of(tiles)
    return c[:52], c[JOKER]


_DIVISIBLE: dict[tuple, bool] = {}  # tables checked (counts + jokers), up to 64


def divisible(counts: list[int], jokers: int) -> bool:
    """Whether the table divides, remembered for up to 64 tables (then all
    forgotten at once): a player's or an AI's look-ahead solves one table
    against many racks. (A solve whose first steps run in C at once,
    ``dp.prelude``, checks there without remembering: a few microseconds a
    table, more than the lookup but small beside the solve.)"""
    key = (*counts, jokers)
    got = _DIVISIBLE.get(key)
    if got is None:
        got = core.dp.divides(counts, jokers)
        if len(_DIVISIBLE) >= 64:
            _DIVISIBLE.clear()
        _DIVISIBLE[key] = got
    return got


@core.gc_paused()
def divide(tiles, *, tileset="standard") -> list[tuple] | None:
    """A division of ``tiles`` into valid groups and runs, or ``None`` if
    there is none (the dispute "was the table valid").

    :param tiles: tokens (``"R1 R2 R3"`` or a list) or tile codes.
    :returns: melds as :mod:`engine.melds` slot tuples, or ``None``.
    :raises NotationError: an unknown tile or more copies than the set has.
    """
    ts = resolve_tileset(tileset)
    t = read_tiles(tiles, "tiles")
    ts.check(t)
    return divide_codes(t)


def divide_codes(t: list[int]) -> list[tuple] | None:
    """:func:`divide` of tile codes without the check of copies against a
    set: where jokers keep their tiles, the solver lays out each table
    joker as the tile it stands for, which may then be a third copy (a
    joker standing for R11 beside both R11s)."""
    counts, jokers = split_counts(t)
    if not t:
        return []
    plan = core.dp.feasible(counts, [0] * 52, jokers, 0)
    if plan is None:
        return None
    melds, _ = core.build_melds(plan)
    return melds
