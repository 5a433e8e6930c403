"""Judging a claimed Okey win: the dispute "that was not a winning hand"
asks the same hand checker as ``python -m engine okey-hand``
(:func:`engine.okey.hand.check`)."""

from __future__ import annotations

from typing import Any

from .game import OkeyGame, sort_key
from .hand import check, tile_text
from .moves import Move


def judge_finish(before: OkeyGame, move: Move) -> dict[str, Any]:
    """Whether ``move`` (a ``finish``) on the state ``before`` it left a
    winning 14: ``{"valid", "seat", "game", "okey", "tiles", "discard",
    "kind", "melds"}``.

    :raises ValueError: the move is not a finish, or the tile is not held.
    """
    if move.action != "finish":
        raise ValueError(f"{move} is not a finish")
    seat = before.to_move
    rack = list(before.racks[seat])
    if move.tile not in rack:
        raise ValueError(f"seat {seat} held no {tile_text(move.tile)}")
    rack.remove(move.tile)
    tiles = [tile_text(t) for t in sorted(rack, key=sort_key)]
    answer = check(tiles, okey=tile_text(before.okey), rules=before.rules.to_dict())
    return {"valid": answer.winning, "seat": seat, "game": before.game_no + 1,
            "okey": answer.okey, "tiles": tiles, "discard": tile_text(move.tile),
            "kind": answer.kind, "melds": answer.melds}
