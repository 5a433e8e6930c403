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

from ..errors import EngineError
from ..jsonlines import read_object, serve
from .closed import classify


def answer(line: str) -> dict:
    data = read_object(line, ("tiles", "first_turn", "original_hand"),
                       '{"tiles": [14 codes], "first_turn": false, ...}')
    if "error" in data:
        return data
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
    return serve(answer, 'usage: python -m engine closed-hand < hands.jsonl', argv, stdin, stdout)
