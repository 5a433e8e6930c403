"""A ``lay`` laid out on the table, as the browser table builds it: which
melds are valid, the value laid, and the ``lay`` move that says it.

The front end sends the whole table as it should be after the lay, each
meld a list of tile codes with jokers unannotated (``["R5", "J", "R7"]``),
the melds already on the table first and in their order, new melds after
them. :func:`compose_lay` answers as :func:`engine.rummikub.compose.compose_turn`
does (``melds``, ``laid_value``, ``move``, ``legal``, ``refusal``). A meld on
the table that gained tiles is an addition (``add N ...``); one whose joker
gave way to the tile it stands for frees it (``free N tile``); a meld on the
table may not lose tiles otherwise (American Rummikub has no rearranging).
A joker's reading is the first that makes a valid meld (a 1 may be high).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..errors import IllegalMoveError, NotationError
from ..melds import GROUP_JOKER, RUN_JOKER, canonical, format_meld, meld_kind, meld_value
from ..tiles import JOKER, as_tile
from .moves import Move


def readings(tiles: list[int], rules, keep: tuple = ()) -> list[tuple]:
    """The valid melds the physical ``tiles`` make (jokers given a role),
    those holding every slot of ``keep`` (a meld on the table) first."""
    reals = [t for t in tiles if t != JOKER]
    jokers = len(tiles) - len(reals)
    if not reals or jokers > 2:
        return []
    roles = sorted({GROUP_JOKER + t % 13 for t in reals}
                   | {RUN_JOKER + (t // 13) * 13 + n for t in reals for n in range(13)})
    found: list[tuple] = []
    combos: list[tuple] = [()]
    for _ in range(jokers):
        combos = [c + (r,) for c in combos for r in roles if not c or r >= c[-1]]
    for combo in combos:
        m = canonical(reals + list(combo))
        if m not in found and meld_kind(m, rules):
            found.append(m)
    held = Counter(keep)
    return sorted(found, key=lambda m: bool(held - Counter(m)))   # those keeping the table's first


def compose_lay(game, melds: list[list[str]]) -> dict[str, Any]:
    """Check ``melds`` for the seat on turn of ``game`` (left unchanged).

    :raises NotationError: a tile code that is not a tile.
    """
    rules = game.rules.meld_rules
    old = [m for _, m in game.table]
    out, new, adds, frees, laid = [], [], [], [], 0
    answer: dict[str, Any] = {"melds": out, "laid_value": 0, "move": None, "legal": False, "refusal": ""}
    if len(melds) < len(old):
        answer["refusal"] = "a meld on the table stays on the table"
    for i, codes in enumerate(melds):
        tiles = sorted(as_tile(c) for c in codes)
        before = old[i] if i < len(old) else None
        have = [t if t < 52 else JOKER for t in before] if before is not None else []
        if before is not None and sorted(have) == tiles:
            out.append({"valid": True, "reason": "", "meld": format_meld(before), "value": meld_value(before, rules)})
            continue
        found = readings(tiles, rules, keep=before or ())
        if not found:
            reason = "a meld needs 3 or more tiles" if len(tiles) < 3 else \
                "neither a run (one colour, numbers in a row; a 1 low or high) nor a group (one number, different colours)"
            out.append({"valid": False, "reason": reason, "meld": None, "value": 0})
            continue
        meld = found[0]
        out.append({"valid": True, "reason": "", "meld": format_meld(meld), "value": meld_value(meld, rules)})
        if before is None:
            new.append(meld)
            laid += meld_value(meld, rules)
            continue
        gone = Counter(before) - Counter(meld)
        came = Counter(meld) - Counter(before)
        freed = [s for s in gone.elements() if s >= 53]
        if any(s < 53 for s in gone.elements()) or len(freed) > 1:
            out[-1].update(valid=False, reason="a meld on the table keeps its tiles")
            continue
        if freed:
            tile = next((s for s in came.elements() if s < 52 and s % 13 == _number(freed[0])), None)
            if tile is None:
                out[-1].update(valid=False, reason="a joker gives way only to the tile it stands for")
                continue
            frees.append((i + 1, tile))
            came[tile] -= 1
        extra = tuple(sorted(came.elements()))
        if extra:
            adds.append((i + 1, extra))
            laid += sum(_value(s) for s in extra)
    answer["laid_value"] = laid
    if answer["refusal"]:
        return answer
    if not all(m["valid"] for m in out):
        answer["refusal"] = "some melds are not valid"
        return answer
    if not (new or adds or frees):
        answer["refusal"] = "nothing was laid"
        return answer
    move = Move("lay", melds=tuple(new), adds=tuple(adds), frees=tuple(frees))
    answer["move"] = str(move)
    trial = type(game).from_snapshot(game.snapshot())
    try:
        trial.push(move)
    except (IllegalMoveError, NotationError) as exc:
        answer["refusal"] = str(exc)
    else:
        answer["legal"] = True
    return answer


def _number(slot: int) -> int:
    """The number (0-12) a joker slot stands for."""
    return (slot - GROUP_JOKER) if slot >= GROUP_JOKER else (slot - RUN_JOKER) % 13


def _value(slot: int) -> int:
    if slot < 52:
        return slot % 13 + 1
    return _number(slot) + 1
