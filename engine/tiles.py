"""Rummikub tiles, tile sets, and the seeded shuffle.

Notation
--------
A numbered tile is a colour letter and a number: ``K`` black, ``R`` red,
``B`` blue, ``O`` orange, numbers 1-13 (``R7``, ``K13``). The joker is ``J``.
Parsing is case-insensitive (``r7`` reads as ``R7``); formatting is always the
canonical upper-case form, so ``format_tile(parse_tile(t)) == t`` for every
canonical ``t``.

Integer encoding (stable; the solver and the records rely on it)
-----------------------------------------------------------------
A tile is a small ``int`` (:class:`Tile` is an ``int`` subclass, so plain ints
work everywhere a tile is expected)::

    code = colour * 13 + (number - 1)     # 0..51; colour K=0, R=1, B=2, O=3
    JOKER = 52

So ``K1 = 0``, ``K13 = 12``, ``R1 = 13``, ``O13 = 51``. Sorting codes sorts
tiles by colour, then number, joker last: that is the canonical order of a
list of tiles. Multisets of tiles are often held as a list of 53 counts
indexed by code (:func:`counts_of`).

Tile sets
---------
:data:`STANDARD` has two copies of each of the 52 numbered tiles and 2 jokers
(106 tiles); :data:`XP` has three copies and 4 jokers (160 tiles, for 5-6
players).

Seeded shuffle
--------------
:func:`shuffled` derives the order of a tile set from a seed string with a
Fisher-Yates shuffle driven by SHA-256, so the same seed gives the same order
on every platform and Python version (``random`` is not used). See its
docstring for the exact algorithm.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

from .errors import NotationError

COLOURS = "KRBO"
COLOUR_NAMES = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
K, R, B, O = 0, 1, 2, 3
JOKER = 52
NUM_CODES = 53  # 52 numbered tiles + the joker


class Tile(int):
    """A tile: an ``int`` code (see the module docstring) that prints as
    its notation. Use :func:`parse_tile` / :data:`TILES` rather than calling
    the constructor; ``Tile(code)`` works for any code 0..52.

    >>> t = parse_tile("R7")
    >>> str(t), int(t), t.colour, t.number
    ('R7', 19, 1, 7)
    """

    __slots__ = ()

    def __new__(cls, code: int):
        if not 0 <= code <= JOKER:
            raise NotationError(f"tile code {code!r} out of range 0..52",
                                token=str(code))
        return int.__new__(cls, code)

    @property
    def is_joker(self) -> bool:
        return self == JOKER

    @property
    def colour(self) -> int | None:
        """0..3 (K, R, B, O), ``None`` for the joker."""
        return None if self == JOKER else int(self) // 13

    @property
    def number(self) -> int | None:
        """1..13, ``None`` for the joker."""
        return None if self == JOKER else int(self) % 13 + 1

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Tile({_TEXT[self]!r})"


TILES: tuple[Tile, ...] = ()
_TEXT: list[str] = [f"{COLOURS[c // 13]}{c % 13 + 1}" for c in range(52)] + ["J"]
TILES = tuple(Tile(c) for c in range(NUM_CODES))
_PARSE: dict[str, Tile] = {}
for _code, _text in enumerate(_TEXT):
    _PARSE[_text] = TILES[_code]
    _PARSE[_text.lower()] = TILES[_code]
del _code, _text


def tile(colour: int | str, number: int) -> Tile:
    """The tile of ``colour`` (0..3 or a letter K/R/B/O) and ``number`` 1..13.

    :raises NotationError: colour or number out of range.
    """
    if isinstance(colour, str):
        if colour.upper() not in COLOURS or len(colour) != 1:
            raise NotationError(f"unknown colour {colour!r} (use K, R, B or O)",
                                token=colour)
        colour = COLOURS.index(colour.upper())
    if not (0 <= colour <= 3) or not (1 <= number <= 13):
        raise NotationError(f"no tile with colour {colour!r} and number {number!r}",
                            token=f"{colour}/{number}")
    return TILES[colour * 13 + number - 1]


def parse_tile(text: str) -> Tile:
    """Read one tile token (``"R7"``, ``"k13"``, ``"J"``).

    :raises NotationError: not a tile; the message and ``.token`` name it.
    """
    t = _PARSE.get(text) if isinstance(text, str) else None
    if t is None:
        t = _PARSE.get(text.strip()) if isinstance(text, str) else None
        if t is None:
            raise NotationError(
                f"unknown tile {text!r}: expected a colour K, R, B or O and a "
                f"number 1-13 (as R7, K13), or J for a joker", token=str(text))
    return t


def as_tile(value) -> Tile:
    """A :class:`Tile` from a tile, an int code or a token.

    :raises NotationError: not a tile.
    """
    if isinstance(value, Tile):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value <= JOKER:
            return TILES[value]
        raise NotationError(f"tile code {value!r} out of range 0..52", token=str(value))
    if isinstance(value, str):
        return parse_tile(value)
    raise NotationError(f"not a tile: {value!r}", token=repr(value))


def parse_tiles(text: str | Iterable) -> list[Tile]:
    """Read tiles separated by spaces and/or commas (``"R7 K13, J"``), or a
    list of tokens/codes.

    :raises NotationError: naming the first bad token.
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
        get = _PARSE.get
        out = []
        for tok in tokens:
            t = get(tok)
            if t is None:
                parse_tile(tok)  # raises with the message
            out.append(t)
        return out
    return [as_tile(v) for v in text]


def format_tile(t: int) -> str:
    """The canonical text of a tile code."""
    return _TEXT[t]


def format_tiles(tiles: Iterable[int], sort: bool = True) -> str:
    """Tiles as canonical text separated by single spaces, in canonical
    order (colour, number, joker last) unless ``sort`` is false."""
    seq = sorted(tiles) if sort else list(tiles)
    return " ".join(_TEXT[t] for t in seq)


def face_value(t: int, joker_value: int = 30) -> int:
    """The points a tile counts on a rack: its number, a joker ``joker_value``."""
    return joker_value if t == JOKER else t % 13 + 1


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A multiset of tiles as a list of 53 counts indexed by code."""
    c = [0] * NUM_CODES
    for t in tiles:
        c[t] += 1
    return c


def tiles_of(counts: list[int]) -> list[Tile]:
    """The sorted tiles of a 53-count list."""
    out: list[Tile] = []
    for code, n in enumerate(counts):
        if n:
            out.extend([TILES[code]] * n)
    return out


class TileSet:
    """A physical set of tiles: ``copies`` of each numbered tile and
    ``jokers`` jokers."""

    __slots__ = ("name", "copies", "jokers", "size")

    def __init__(self, name: str, copies: int, jokers: int):
        self.name = name
        self.copies = copies
        self.jokers = jokers
        self.size = 52 * copies + jokers

    def counts(self) -> list[int]:
        """How many copies of each code the set holds (53 counts)."""
        return [self.copies] * 52 + [self.jokers]

    def tiles(self) -> list[Tile]:
        """Every tile of the set in canonical order (colour, number, jokers
        last; copies adjacent)."""
        out: list[Tile] = []
        for code in range(52):
            out.extend([TILES[code]] * self.copies)
        out.extend([TILES[JOKER]] * self.jokers)
        return out

    def check(self, tiles: Iterable[int]) -> None:
        """:raises NotationError: more copies of a tile than the set holds."""
        c = counts_of(tiles)
        if max(c[:JOKER], default=0) <= self.copies and c[JOKER] <= self.jokers:
            return
        for code, n in enumerate(c):
            limit = self.jokers if code == JOKER else self.copies
            if n > limit:
                raise NotationError(
                    f"{n} copies of {_TEXT[code]} but the {self.name} set has {limit}",
                    token=_TEXT[code])

    def __repr__(self) -> str:
        return f"TileSet({self.name!r}, copies={self.copies}, jokers={self.jokers})"


STANDARD = TileSet("standard", 2, 2)
XP = TileSet("xp", 3, 4)
TILESETS = {"standard": STANDARD, "xp": XP}


def tileset(name: str) -> TileSet:
    """:raises NotationError: unknown tile set name."""
    try:
        return TILESETS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise NotationError(f"unknown tile set {name!r} (standard or xp)",
                            token=str(name)) from None


SHUFFLE_DOMAIN = "tablekeeper-shuffle-v1"


def _random_stream(seed: str):
    """Unsigned 64-bit integers from SHA-256 in counter mode."""
    counter = 0
    prefix = f"{SHUFFLE_DOMAIN}:{seed}:".encode("utf-8")
    while True:
        digest = hashlib.sha256(prefix + str(counter).encode("ascii")).digest()
        counter += 1
        for i in range(0, 32, 8):
            yield int.from_bytes(digest[i:i + 8], "big")


def shuffled(ts: TileSet, seed: str) -> list[Tile]:
    """The tiles of ``ts`` in the order decided by ``seed``.

    Algorithm (version 1, frozen: changing it would change every recorded
    seeded game): start from :meth:`TileSet.tiles` (canonical order). Draw
    64-bit words ``w_0, w_1, ...``: block ``k`` is
    ``SHA-256(UTF-8("tablekeeper-shuffle-v1:" + seed + ":" + str(k)))``, read
    as four big-endian 64-bit words. Fisher-Yates from the end: for
    ``i = n-1`` down to ``1``, pick ``j`` uniform in ``0..i`` by rejection
    (take the next word ``w``; reject while ``w >= 2**64 - 2**64 % (i+1)``;
    ``j = w % (i+1)``) and swap positions ``i`` and ``j``.

    :raises DealError: empty seed.
    """
    from .errors import DealError

    if not isinstance(seed, str) or not seed:
        raise DealError("a seed must be a non-empty string")
    tiles = ts.tiles()
    words = _random_stream(seed)
    two64 = 1 << 64
    for i in range(len(tiles) - 1, 0, -1):
        m = i + 1
        limit = two64 - two64 % m
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % m
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles
