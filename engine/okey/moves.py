"""Okey's move notation.

========================  =====================================================
``draw``                  take the top tile of the middle stack
``take``                  take the previous player's discard
``discard R5``            discard a tile onto one's own pile
``finish R5``             discard the 15th tile onto the middle and show the
                          other 14 as a winning hand
``show``                  show the indicator's twin (the Compare Stone)
========================  =====================================================

Tiles are written as in the rest of the engine (``K`` black, ``R`` red,
``B`` blue, ``O`` orange for Okey's yellow or green; 1-13), and ``F`` for a
false joker. Only the seat on turn moves, so a move names no seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError
from .hand import F_CODE, FALSE_JOKER, parse_okey_tile, tile_text

ACTIONS = ("draw", "take", "discard", "finish", "show")
_WITH_TILE = ("discard", "finish")


@dataclass(frozen=True)
class Move:
    action: str
    tile: int | None = None  # 0..51, or F_CODE

    @classmethod
    def parse(cls, text: str) -> "Move":
        """:raises NotationError: not a move, naming the bad token."""
        if not isinstance(text, str):
            raise NotationError(f"a move is text, not {text!r}", token=repr(text))
        parts = text.split()
        if not parts:
            raise NotationError("an empty move: draw, take, discard <tile>, finish <tile> or show",
                                token="")
        action = parts[0].lower()
        if action not in ACTIONS:
            raise NotationError(f"unknown move {parts[0]!r} (draw, take, discard <tile>, "
                                f"finish <tile>, show)", token=parts[0])
        if action in _WITH_TILE:
            if len(parts) != 2:
                raise NotationError(f"{action} names one tile, as in '{action} R5'",
                                    token=text.strip())
            code = parse_okey_tile(parts[1])
            return cls(action, F_CODE if code == FALSE_JOKER else int(code))
        if len(parts) != 1:
            raise NotationError(f"{action} takes no tile", token=parts[1])
        return cls(action)

    def __str__(self) -> str:
        return self.action if self.tile is None else f"{self.action} {tile_text(self.tile)}"
