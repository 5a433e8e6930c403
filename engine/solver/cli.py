"""``python -m engine solve``: JSON Lines in, one JSON line out per line.

Each input line is a position::

    {"table": ["R1", "R2", "R3"], "rack": ["R4", "K9"],
     "initial_meld_done": true, "tileset": "standard", "rules": {}}

and the answer, on the same line number of the output::

    {"tiles_placed": 1, "value_placed": 4, "play": ["R4"],
     "melds": [["R1", "R2", "R3", "R4"]]}

A line that is not a valid position (bad JSON, an unknown tile, more copies
than the tile set has, a table that cannot be divided, an unknown rule
option, JSON nested deeper than :data:`MAX_DEPTH` or a line longer than
:data:`MAX_LINE` characters) is answered ``{"error": "message"}`` and the
batch goes on; error messages quote at most a few hundred characters of the
input. Blank lines are skipped. The exit status is 0, or 1 when a line met
an error of the solver itself (answered ``{"error": "line N: internal
error ..."}``, the batch still going on); never a traceback.

Options: ``--fewest-moves`` prefers, among the best plays, one that moves the
fewest table tiles (needs ``table_melds`` on the line).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, TextIO

from ..errors import EngineError
from .api import solve

_KEYS = {"table", "rack", "initial_meld_done", "tileset", "rules", "table_melds"}
MAX_LINE = 200_000   # characters of one input line (a full position is a few KB)
MAX_DEPTH = 16       # nesting of JSON arrays/objects (a position needs 3)
MAX_MESSAGE = 300    # characters of an error message


def json_depth(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside
    strings do not count); read without recursion, so any depth is safe."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def _clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _lines(stdin: TextIO):
    """``(line, too_long)`` for each line of ``stdin``, reading at most
    :data:`MAX_LINE` characters of a line into memory: the rest of a longer
    line is read and dropped in pieces."""
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while True:  # drop the rest of this line
                rest = stdin.readline(65536)
                if not rest or rest.endswith("\n"):
                    break
            yield "", True
        else:
            yield line, False


def _tile_list(data: dict, name: str, required: bool) -> list:
    if name not in data:
        if required:
            raise ValueError(f"missing {name!r} (a list of tiles)")
        return []
    v = data[name]
    if not isinstance(v, list) or not all(isinstance(t, str) for t in v):
        raise ValueError(f"{name!r} must be a list of tile strings like \"R7\" or \"J\"")
    return v


def answer(data: Any, fewest_moves: bool = False, read_rules: Callable | None = None) -> dict:
    """The output object for one decoded input object. ``read_rules`` turns
    the line's ``rules`` object into what :func:`solve` takes (the game
    family's reader: ``python -m engine solve`` reads Rummikub's options);
    without it the object is read as :class:`engine.melds.MeldRules` options.

    :raises ValueError: (and its engine subclasses) for an invalid position.
    """
    if not isinstance(data, dict):
        raise ValueError("a position must be a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(map(repr, unknown))}")
    table = _tile_list(data, "table", True)
    rack = _tile_list(data, "rack", True)
    done = data.get("initial_meld_done", True)
    if not isinstance(done, bool):
        raise ValueError("'initial_meld_done' must be true or false")
    tileset = data.get("tileset", "standard")
    if not isinstance(tileset, str):
        raise ValueError("'tileset' must be \"standard\" or \"xp\"")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise ValueError("'rules' must be an object of rule options")
    table_melds = data.get("table_melds")
    if table_melds is not None:
        if not isinstance(table_melds, list) or not all(
                isinstance(m, list) and all(isinstance(t, str) for t in m)
                for m in table_melds):
            raise ValueError("'table_melds' must be a list of melds, each a list of tiles")
    named = None
    if rules is not None and read_rules is not None:
        rules, named = read_rules(rules), tuple(rules)
    sol = solve(table, rack, done, rules=rules, tileset=tileset,
                table_melds=table_melds, fewest_moves=fewest_moves, named_options=named)
    return sol.to_json()


def run(stdin: TextIO, stdout: TextIO, fewest_moves: bool = False,
        read_rules: Callable | None = None) -> int:
    """Answer every line of ``stdin`` on ``stdout`` (``read_rules``: see
    :func:`answer`); returns 0, or 1 if some line met an internal error."""
    status = 0
    for lineno, (line, too_long) in enumerate(_lines(stdin), 1):
        if too_long:
            out = {"error": f"line {lineno}: longer than {MAX_LINE} characters"}
        elif not line.strip():
            continue
        else:
            out, internal = _answer_line(line, lineno, fewest_moves, read_rules)
            status = max(status, internal)
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return status


def _answer_line(line: str, lineno: int, fewest_moves: bool,
                 read_rules: Callable | None) -> tuple[dict, int]:
    """The answer to one line, and 1 if it was an internal error."""
    if json_depth(line) > MAX_DEPTH:
        return {"error": f"line {lineno}: JSON nested deeper than {MAX_DEPTH} levels"}, 0
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"line {lineno}: bad JSON: {exc.msg} at column {exc.colno}"}, 0
    except (RecursionError, MemoryError):  # pragma: no cover - guarded by the depth check
        return {"error": f"line {lineno}: JSON too deep or too large"}, 0
    try:
        return answer(data, fewest_moves, read_rules), 0
    except (ValueError, EngineError) as exc:
        return {"error": f"line {lineno}: {_clip(str(exc))}"}, 0
    except RecursionError:  # pragma: no cover - depth is checked above
        return {"error": f"line {lineno}: position too deep"}, 0
    except Exception as exc:  # noqa: BLE001 - a solver bug must not end the batch
        return {"error": f"line {lineno}: internal error {type(exc).__name__}: "
                         f"{_clip(str(exc))}"}, 1


def main(argv: list[str] | None = None, read_rules: Callable | None = None) -> int:
    """Entry point of ``python -m engine solve [--fewest-moves]`` (``read_rules``:
    see :func:`answer`)."""
    argv = list(argv or [])
    fewest = False
    for a in argv:
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a == "--fewest-moves":
            fewest = True
        else:
            print(f"unknown option {a!r} (python -m engine solve [--fewest-moves])",
                  file=sys.stderr)
            return 2
    return run(sys.stdin, sys.stdout, fewest, read_rules)
