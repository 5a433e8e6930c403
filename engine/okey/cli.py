"""``python -m engine okey-hand``: the hand checker over JSON Lines.

One line in: ``{"tiles": [...], "okey": "R6"}`` or ``{"tiles": [...],
"indicator": "R5"}``, optionally ``"rules": {"seven_pairs": true}``. One
line out: ``{"okey", "winning", "kind", "melds", "discard"}``, or
``{"error": "..."}`` for a malformed line (never a traceback). Exit status
0, or 2 when a line was malformed.
"""

from __future__ import annotations

from ..errors import EngineError
from ..jsonlines import read_object, serve
from .hand import check


def answer(line: str) -> dict:
    data = read_object(line, ("tiles", "okey", "indicator", "rules"),
                       '{"tiles": [...], "okey": "R6"} or "indicator"')
    if "error" in data:
        return data
    try:
        return check(data["tiles"], okey=data.get("okey"), indicator=data.get("indicator"),
                     rules=data.get("rules")).to_dict()
    except EngineError as exc:
        return {"error": str(exc)}


def main(argv: list[str] | None = None, stdin=None, stdout=None) -> int:
    return serve(answer, 'usage: python -m engine okey-hand < hands.jsonl', argv, stdin, stdout)
