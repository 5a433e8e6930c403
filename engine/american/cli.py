"""``python -m engine closed-hand``: International Rummikub's closed-hand
classifier over JSON Lines.

One line in: ``{"tiles": [14 codes], "first_turn": bool, "original_hand":
bool}`` (the flags optional, false). One line out: ``{"types": [...],
"best": n, "score": points, "melds": [[...], ...]}``, or ``{"types": [],
"best": null, "score": 0}`` when no type fits, or ``{"error": "..."}`` for a
malformed line (never a traceback). Exit status 0, or 2 when a line was
malformed.
"""

from __future__ import annotations

import json
import sys

from ..errors import EngineError
from .closed import classify


def answer(line: str) -> dict:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} (column {exc.colno})"}
    if not isinstance(data, dict):
        return {"error": 'a line is an object: {"tiles": [14 codes], "first_turn": false, ...}'}
    unknown = sorted(set(data) - {"tiles", "first_turn", "original_hand"})
    if unknown:
        return {"error": f"unknown key(s): {', '.join(unknown)} (tiles, first_turn, original_hand)"}
    if "tiles" not in data:
        return {"error": "no tiles"}
    flags = {}
    for key in ("first_turn", "original_hand"):
        value = data.get(key, False)
        if not isinstance(value, bool):
            return {"error": f"{key} is true or false, not {value!r}"}
        flags[key] = value
    try:
        return classify(data["tiles"], **flags).to_dict()
    except EngineError as exc:
        return {"error": str(exc)}


def main(argv: list[str] | None = None, stdin=None, stdout=None) -> int:
    if argv:
        print("usage: python -m engine closed-hand < hands.jsonl", file=sys.stderr)
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
