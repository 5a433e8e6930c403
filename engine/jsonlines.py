"""The engine's JSON Lines commands (``okey-hand``, ``closed-hand``): one
answer per line read, ``{"error": ...}`` for a malformed line, exit status
2 when any line was malformed."""

from __future__ import annotations

import json
import sys
from typing import Callable


def read_object(line: str, keys: tuple[str, ...], example: str) -> dict:
    """The line's JSON object, or ``{"error": ...}`` naming the problem
    (not JSON, not an object, a key not in ``keys``, no ``tiles``)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} (column {exc.colno})"}
    if not isinstance(data, dict):
        return {"error": f"a line is an object: {example}"}
    unknown = sorted(set(data) - set(keys))
    if unknown:
        return {"error": f"unknown key(s): {', '.join(unknown)} ({', '.join(keys)})"}
    if "tiles" not in data:
        return {"error": "no tiles"}
    return data


def serve(answer: Callable[[str], dict], usage: str, argv=None, stdin=None, stdout=None) -> int:
    """Answer every non-blank line of ``stdin`` on ``stdout``."""
    if argv:
        print(usage, file=sys.stderr)
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
