"""``python -m engine okey-hand``: the hand checker over JSON Lines.

One line in: ``{"tiles": [...], "okey": "R6"}`` or ``{"tiles": [...],
"indicator": "R5"}``, optionally ``"rules": {"seven_pairs": true}``. One
line out: ``{"okey", "winning", "kind", "melds", "discard"}``, or
``{"error": "..."}`` for a malformed line (never a traceback). Exit status
0, or 2 when a line was malformed.
"""

from __future__ import annotations

import json
import sys

from ..errors import EngineError
from .hand import check


def answer(line: str) -> dict:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} (column {exc.colno})"}
    if not isinstance(data, dict):
        return {"error": 'a line is an object: {"tiles": [...], "okey": "R6"} or "indicator"'}
    unknown = sorted(set(data) - {"tiles", "okey", "indicator", "rules"})
    if unknown:
        return {"error": f"unknown key(s): {', '.join(unknown)} (tiles, okey, indicator, rules)"}
    if "tiles" not in data:
        return {"error": "no tiles"}
    try:
        return check(data["tiles"], okey=data.get("okey"), indicator=data.get("indicator"),
                     rules=data.get("rules")).to_dict()
    except EngineError as exc:
        return {"error": str(exc)}


def main(argv: list[str] | None = None, stdin=None, stdout=None) -> int:
    if argv:
        print("usage: python -m engine okey-hand < hands.jsonl", file=sys.stderr)
        return 2
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    status = 0
    for line in stdin:
        if not line.strip():
            continue
        out = answer(line)
        if "error" in out:
            status = 2
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return status
