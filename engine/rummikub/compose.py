"""A turn laid out on the table, as a front end builds it: which melds are
valid, the value laid from the rack, and the play that says it.

The browser table (``static/games/table/``) lets a player move physical
tiles between the rack and the melds; it sends the whole table as it should
be after the turn, each meld a list of tile codes with jokers unannotated
(``["R5", "J", "R7"]``). :func:`compose_turn` answers::

    {"melds": [{"valid": bool, "reason": str, "meld": "[R5 J(R6) R7]" | None,
                "value": int}, ...],
     "laid_value": 12,            # the new melds' value (the initial meld's count)
     "move": "play ... -> ..." | None,   # the engine's notation, when every meld is valid
     "legal": bool, "refusal": str}      # whether the engine would take it now, and why not

A meld whose tiles are those of a meld already on the table keeps that meld
(its jokers keep what they stand for); a new meld takes the first reading
of its tiles (:func:`engine.melds.interpretations`: a joker fills the first
gap of a run, or stands for a missing colour of a group).
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalMoveError, NotationError
from ..melds import Meld, format_meld, interpretations, meld_value
from ..tiles import JOKER, as_tile


def _physical(meld: Meld) -> list[int]:
    return sorted(t if t < 52 else JOKER for t in meld)


def compose_turn(game, melds: list[list[str]]) -> dict[str, Any]:
    """Check ``melds`` (the whole table after the turn, as tile codes) for
    the seat on turn of ``game`` (a Rummikub game state, left unchanged).

    :raises NotationError: a tile code that is not a tile.
    """
    on_table: dict[tuple, list[Meld]] = {}
    for m, k in game.table.items():
        on_table.setdefault(tuple(_physical(m)), []).extend([m] * k)
    rules = game.rules.meld_rules
    out, chosen, laid = [], [], 0
    for codes in melds:
        tiles = sorted(as_tile(c) for c in codes)
        same = on_table.get(tuple(tiles))
        if same:
            meld = same.pop()
            out.append({"valid": True, "reason": "", "meld": format_meld(meld),
                        "value": meld_value(meld, rules)})
            chosen.append(meld)
            continue
        readings = interpretations(tiles)
        if not readings:
            reason = "a meld needs 3 or more tiles" if len(tiles) < 3 else \
                "neither a run (one colour, numbers in a row) nor a group (one number, different colours)"
            out.append({"valid": False, "reason": reason, "meld": None, "value": 0})
            continue
        meld = readings[0]
        value = meld_value(meld, rules)
        laid += value
        out.append({"valid": True, "reason": "", "meld": format_meld(meld), "value": value})
        chosen.append(meld)
    answer: dict[str, Any] = {"melds": out, "laid_value": laid, "move": None, "legal": False, "refusal": ""}
    if not all(m["valid"] for m in out):
        answer["refusal"] = "some melds are not valid"
        return answer
    try:
        move = game.play_to_table(chosen)
    except NotationError as exc:
        answer["refusal"] = str(exc)
        return answer
    if not move.added and not move.removed:
        answer["refusal"] = "nothing was laid"
        return answer
    answer["move"] = str(move)
    try:
        game._check(move)
    except IllegalMoveError as exc:
        answer["refusal"] = str(exc)
    else:
        answer["legal"] = True
    return answer
