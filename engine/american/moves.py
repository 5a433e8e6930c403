"""The move notation of American and International Rummikub.

======================================  ==========================================
``draw``                                take the next face-down tile
``take``                                take the discard the previous player just made
``trump [R12 R13 R1] discard R5``        American: take the face-up trump and win with
                                        it in the same move (lay parts, then the
                                        final discard)
``lay [R1 R2 R3] [K5 B5 O5]``           new melds from the rack
``lay add 2 R4 R5``                     extend the table's meld 2 (numbered from 1 in
                                        the order laid) with rack tiles
``lay free 3 R6 [J(K6) K7 K8]``         put R6 in place of the joker standing for it in
                                        meld 3, and use the joker in a new meld
``announce``                            say that three or fewer tiles are left
                                        (International)
``discard R7``                          end the turn with a tile face up
``closed R7``                           discard R7 and show the other 14 as a closed
                                        hand (International)
======================================  ==========================================

One ``lay`` may hold several new melds, additions and freed jokers; its
parts are applied together (freed jokers first), and the table after it
must be valid. Jokers are written with what they stand for, as on the
Rummikub table: ``J(R6)`` in a run, ``J(6)`` in a group. Tiles are written
as in the rest of the engine (``K R B O`` and 1-13, ``J`` a joker). Only the
seat on turn moves, so a move names no seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError
from ..melds import Meld, format_meld, parse_meld, parse_slot, slot_text
from ..tiles import format_tile, parse_tile

SIMPLE = ("draw", "take", "announce")
WITH_TILE = ("discard", "closed")
ACTIONS = SIMPLE + WITH_TILE + ("lay", "trump")
_TOKENS = re.compile(r"\[[^\]]*\]|\S+")


@dataclass(frozen=True)
class Move:
    action: str
    tile: int | None = None
    melds: tuple[Meld, ...] = ()
    adds: tuple[tuple[int, tuple[int, ...]], ...] = ()   # (meld number from 1, slots)
    frees: tuple[tuple[int, int], ...] = ()              # (meld number from 1, tile)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """:raises NotationError: not a move, naming the bad token."""
        if not isinstance(text, str):
            raise NotationError(f"a move is text, not {text!r}", token=repr(text))
        parts = _TOKENS.findall(text.strip())
        if not parts:
            raise NotationError("an empty move: draw, take, trump, lay ..., announce, discard <tile> "
                                "or closed <tile>", token="")
        action = parts[0].lower()
        if action not in ACTIONS:
            raise NotationError(f"unknown move {parts[0]!r} (draw, take, trump, lay, announce, "
                                f"discard <tile>, closed <tile>)", token=parts[0])
        if action in SIMPLE:
            if len(parts) != 1:
                raise NotationError(f"{action} takes nothing more", token=parts[1])
            return cls(action)
        if action in WITH_TILE:
            if len(parts) != 2:
                raise NotationError(f"{action} names one tile, as in '{action} R5'", token=text.strip())
            return cls(action, int(parse_tile(parts[1])))
        if action == "trump":
            if len(parts) < 3 or parts[-2].lower() != "discard":
                raise NotationError("the trump is taken only to win: 'trump <lay parts> discard <tile>'",
                                    token=text.strip())
            tile = int(parse_tile(parts[-1]))
            if len(parts) == 3:
                return cls("trump", tile)
            lay = cls._parse_lay(parts[1:-2], text)
            return cls("trump", tile, lay.melds, lay.adds, lay.frees)
        return cls._parse_lay(parts[1:], text)

    @classmethod
    def _parse_lay(cls, parts: list[str], text: str) -> "Move":
        melds: list[Meld] = []
        adds: list[tuple[int, tuple[int, ...]]] = []
        frees: list[tuple[int, int]] = []
        i = 0
        while i < len(parts):
            tok = parts[i]
            if tok.startswith("["):
                melds.append(parse_meld(tok))
                i += 1
            elif tok.lower() in ("add", "free"):
                if i + 2 >= len(parts) or not parts[i + 1].isdigit():
                    raise NotationError(f"{tok} is followed by a meld number and tiles, as in "
                                        f"'{tok.lower()} 2 R4'", token=tok)
                number = int(parts[i + 1])
                if number < 1:
                    raise NotationError(f"melds are numbered from 1, not {number}", token=parts[i + 1])
                i += 2
                if tok.lower() == "free":
                    frees.append((number, int(parse_tile(parts[i]))))
                    i += 1
                else:
                    slots = []
                    while i < len(parts) and not parts[i].startswith("[") and parts[i].lower() not in ("add", "free"):
                        slots.append(parse_slot(parts[i]))
                        i += 1
                    if not slots:
                        raise NotationError(f"add {number} names the tiles to add", token=tok)
                    adds.append((number, tuple(slots)))
            else:
                raise NotationError(f"a lay holds melds in brackets, 'add N tiles' and 'free N tile', "
                                    f"not {tok!r}", token=tok)
        if not (melds or adds or frees):
            raise NotationError("lay what? as in 'lay [R1 R2 R3]'", token=text.strip())
        return cls("lay", melds=tuple(melds), adds=tuple(adds), frees=tuple(frees))

    def __str__(self) -> str:
        if self.action in SIMPLE:
            return self.action
        if self.action in WITH_TILE:
            return f"{self.action} {format_tile(self.tile)}"
        out = [self.action]
        out += [f"free {n} {format_tile(t)}" for n, t in self.frees]
        out += [format_meld(m) for m in self.melds]
        out += [f"add {n} " + " ".join(slot_text(s) for s in slots) for n, slots in self.adds]
        if self.action == "trump":
            out.append(f"discard {format_tile(self.tile)}")
        return " ".join(out)
