"""Disputes of a Rummikub move, judged by the solver (:mod:`engine.solver`).

- ``table_invalid``: the table after the move (or the refused play, or a
  typed-in table) cannot be divided into valid groups and runs;
- ``could_open``: the mover could have made the initial meld from the rack;
- ``not_best``: a play placing more tiles (then more points) existed.

Each judge takes the states before and after the move and answers
``{"upheld", "verdict", "summary", "evidence"}``; a kind that cannot apply
to the move is a :class:`engine.family.DisputeRefused`.
"""

from __future__ import annotations

from typing import Any

from ..errors import EngineError
from ..family import DisputeRefused
from ..melds import format_meld
from ..tiles import JOKER, TILES, face_value, parse_tiles

KINDS = ("table_invalid", "could_open", "not_best")


def _table_tiles(state) -> list[int]:
    return [s if s < 52 else JOKER for m in state.table_melds() for s in m]


def _tokens(tiles) -> list[str]:
    return [str(TILES[int(t)]) for t in sorted(int(t) for t in tiles)]


def _melds_text(melds) -> list[str]:
    """Melds in the engine's notation, each joker naming the tile it stands
    for (``[R7 R8 J(R9)]``)."""
    return [format_meld(m) for m in melds]


def _solution(sol) -> dict[str, Any]:
    return {**sol.to_json(), "melds": _melds_text(sol.melds)}


def parse_claimed(tiles, tileset) -> list[int]:
    """A typed-in table (a list of tile codes, or one text).

    :raises DisputeRefused: not a non-empty list of tiles of the set.
    """
    if isinstance(tiles, str):
        tiles = tiles.split()
    if not isinstance(tiles, list) or not tiles:
        raise DisputeRefused("claimed_table must be a non-empty list of tiles, e.g. [\"R7\", \"K7\", \"B7\"]",
                             "bad-claimed-table")
    try:
        parsed = [int(t) for t in parse_tiles([str(t) for t in tiles])]
        tileset.check(parsed)
    except EngineError as exc:
        raise DisputeRefused(f"claimed_table: {exc}", "bad-claimed-table") from None
    return parsed


def judge(kind: str, before, after, payload: dict[str, Any], *,
          claimed_table: list[int] | None = None) -> dict[str, Any]:
    """The Rummikub kinds, by :mod:`engine.solver`.

    :raises DisputeRefused: a ``could_open`` on a seat that had opened.
    """
    from ..solver import could_open, divide, solve

    ts = type(before).tileset
    seat = payload.get("seat", before.to_move)
    move = before.parse_move(payload["move"])
    rules = before.rules
    if kind == "table_invalid":
        if claimed_table is not None:
            tiles, source = list(claimed_table), "claimed"
        elif payload.get("refused"):
            refused = before.parse_move(payload["refused"]["move"])
            tiles = _table_tiles(before) + [int(t) for t in refused.tiles]
            source = "refused-play"
        else:
            tiles, source = _table_tiles(after), "after-move"
        melds = divide(tiles, tileset=ts)
        evidence = {"source": source, "seat": seat, "tiles": _tokens(tiles),
                    "reading": "free rearrangement (seed 000)"}
        if melds is None:
            return {"upheld": True, "verdict": "table_not_valid", "evidence": {**evidence, "arrangement": None},
                    "summary": f"the {len(tiles)} tiles cannot be divided into valid groups and runs"}
        return {"upheld": False, "verdict": "table_valid",
                "evidence": {**evidence, "arrangement": _melds_text(melds)},
                "summary": f"the {len(tiles)} tiles divide into {len(melds)} valid melds"}
    rack = before.rack(seat)
    if kind == "could_open":
        if before.initial_done[seat]:
            raise DisputeRefused(f"seat {seat} had already made the initial meld before this move")
        if move.kind == "play" and not payload.get("refused"):
            raise DisputeRefused(f"seat {seat} made the initial meld with this move")
        found = could_open(rack, rules=rules, tileset=ts)
        evidence = {"seat": seat, "rack": _tokens(rack), "threshold": rules.initial_meld}
        if found is None:
            return {"upheld": False, "verdict": "could_not_open", "evidence": {**evidence, "play": None},
                    "summary": f"no melds from the rack reach {rules.initial_meld} points"}
        return {"upheld": True, "verdict": "could_have_opened",
                "evidence": {**evidence, "play": _solution(found)},
                "summary": f"{' '.join(str(t) for t in found.play)} ({found.value_placed} points) "
                           f"could have opened"}
    table = _table_tiles(before)
    done = bool(before.initial_done[seat])
    best = solve(table, rack, done, rules=rules, tileset=ts)
    placed = [int(t) for t in move.tiles] if move.kind == "play" and not payload.get("refused") else []
    value = sum(face_value(t) for t in placed)
    evidence = {"seat": seat, "rack": _tokens(rack), "table": _tokens(table),
                "played": {"tiles_placed": len(placed), "value_placed": value, "play": _tokens(placed)},
                "best": _solution(best), "initial_meld_done": done}
    if (best.tiles_placed, best.value_placed) > (len(placed), value):
        return {"upheld": True, "verdict": "better_play_existed", "evidence": evidence,
                "summary": f"{best.tiles_placed} tiles worth {best.value_placed} could have been "
                           f"placed; the move placed {len(placed)} worth {value}"}
    return {"upheld": False, "verdict": "best_play", "evidence": evidence,
            "summary": f"no play places more than {len(placed)} tiles worth {value}"}


def check_opening(kind: str, before, payload: dict[str, Any], move_version: int) -> None:
    """Refuse, when it is opened, a could_open dispute that cannot apply.

    :raises DisputeRefused: the seat had opened before, or opened with it.
    """
    if kind == "could_open":
        mover = payload.get("seat", before.to_move)
        if before.initial_done[mover]:
            raise DisputeRefused(f"seat {mover} had already made the initial meld before move {move_version}")
        if payload["move"].startswith("play") and not payload.get("refused"):
            raise DisputeRefused(f"seat {mover} made the initial meld with move {move_version}")
