"""A Rummikub move: an immutable value with one canonical text.

Notation (``str(Move.parse(t)) == t`` for canonical ``t``; see
``docs/records.md``)::

    draw                      draw one tile (seeded game: the engine knows it)
    draw R7                   draw, naming the tile (a game from a real table)
    timeout | timeout R7      the turn ran out of time: one tile drawn
    penalty | penalty R7 K3 J a manipulation that did not end valid: 3 tiles
    pass                      the pool is empty and the player does not play
    play R10 R11 R12 -> [R10 R11 R12]
    play B3 B8 : [B4 B5 B6] [K8 R8 O8] -> [B3 B4 B5 B6] [K8 R8 B8 O8]

A play lists the tiles taken from the rack, then (after ``:``) the melds of
the table it took apart or changed, then (after ``->``) the melds that
replace them. Melds left untouched are not written. The played tiles must be
exactly the tiles of the new melds less those of the old ones.
"""

from __future__ import annotations

from typing import Iterable

from ..errors import NotationError
from ..melds import Meld, canonical, format_meld, parse_melds
from ..tiles import JOKER, NUM_CODES, as_tile, counts_of, format_tiles, parse_tiles, tiles_of


def _meld_counts(melds) -> list[int]:
    c = [0] * NUM_CODES
    for m in melds:
        for s in m:
            c[s if s < 52 else JOKER] += 1
    return c


class Move:
    """One turn, an immutable value with a canonical text (see the module
    docstring). ``kind`` is ``"play"``, ``"draw"``, ``"timeout"``,
    ``"penalty"`` or ``"pass"``; ``tiles`` the tiles played (play) or named
    as drawn (draw, timeout, penalty); ``removed``/``added`` the old and new
    melds of a play, canonical and sorted."""

    __slots__ = ("kind", "tiles", "removed", "added", "_text")

    KINDS = ("play", "draw", "timeout", "penalty", "pass")

    def __init__(self, kind: str, tiles: Iterable[int] = (), removed: Iterable[Meld] = (),
                 added: Iterable[Meld] = ()):
        if kind not in self.KINDS:
            raise NotationError(f"unknown move {kind!r} (play, draw, timeout, penalty, pass)",
                                token=kind)
        tiles = tuple(sorted(as_tile(t) for t in tiles))
        removed = sorted(canonical(m) for m in removed)
        added = sorted(canonical(m) for m in added)
        if kind == "play":
            # melds on both sides are untouched: drop them
            for m in list(removed):
                if m in added:
                    removed.remove(m)
                    added.remove(m)
            if not added:
                raise NotationError("a play must lay at least one meld after '->'", token="->")
            diff = _meld_counts(added)
            for code, n in enumerate(_meld_counts(removed)):
                diff[code] -= n
            if diff != counts_of(tiles):
                want = tiles_of([max(0, d) for d in diff])
                raise NotationError(
                    f"the played tiles ({format_tiles(tiles) or 'none'}) are not the tiles "
                    f"the melds add ({format_tiles(want) or 'none'}"
                    f"{'; the new melds lack some old tiles' if min(diff) < 0 else ''})",
                    token=format_tiles(tiles))
        else:
            if removed or added:
                raise NotationError(f"a {kind} move has no melds", token=kind)
            limit = {"draw": 1, "timeout": 1, "penalty": 3, "pass": 0}[kind]
            if len(tiles) > limit:
                raise NotationError(f"a {kind} names at most {limit} tile(s)", token=kind)
        self.kind = kind
        self.tiles = tiles
        self.removed = tuple(removed)
        self.added = tuple(added)
        self._text = None

    @classmethod
    def play(cls, removed: Iterable[Meld], added: Iterable[Meld]) -> "Move":
        """A play from its old and new melds; the played tiles are derived.

        :raises NotationError: the new melds do not hold every old tile.
        """
        removed = [canonical(m) for m in removed]
        added = [canonical(m) for m in added]
        diff = _meld_counts(added)
        for code, n in enumerate(_meld_counts(removed)):
            diff[code] -= n
        if min(diff) < 0:
            raise NotationError("the new melds lack some tiles of the old ones", token="->")
        return cls("play", tiles_of(diff), removed, added)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read a move in the canonical notation (extra spaces and any order
        of tiles and melds are accepted).

        :raises NotationError: naming the bad token.
        """
        if not isinstance(text, str):
            raise NotationError(f"a move is text, not {type(text).__name__}", token=repr(text))
        simple = _SIMPLE_MOVES.get(text)
        if simple is not None:
            return simple
        body = text.strip()
        if not body:
            raise NotationError("empty move", token="")
        head, _, rest = body.partition(" ")
        kind = head.lower()
        if kind != "play":
            if kind not in cls.KINDS:
                raise NotationError(f"unknown move {head!r} (play, draw, timeout, penalty, pass)",
                                    token=head)
            return cls(kind, parse_tiles(rest))
        left, arrow, right = rest.partition("->")
        if not arrow:
            raise NotationError("a play needs '->' followed by the new melds", token=body)
        played_text, colon, old_text = left.partition(":")
        tiles = parse_tiles(played_text)
        removed = parse_melds(old_text) if colon else []
        added = parse_melds(right)
        return cls("play", tiles, removed, added)

    def __str__(self) -> str:
        if self._text is None:
            if self.kind == "play":
                parts = ["play", format_tiles(self.tiles)] if self.tiles else ["play"]
                if self.removed:
                    parts.append(":")
                    parts.extend(format_meld(m) for m in self.removed)
                parts.append("->")
                parts.extend(format_meld(m) for m in self.added)
                self._text = " ".join(parts)
            else:
                self._text = self.kind + ("" if not self.tiles else " " + format_tiles(self.tiles))
        return self._text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Move) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


_SIMPLE_MOVES = {k: Move(k) for k in ("draw", "timeout", "penalty", "pass")}
