"""``python -m engine solve``: JSON Lines in, one JSON line out per line.

Each input line is a position::

    {"table": ["R1", "R2", "R3"], "rack": ["R4", "K9"],
     "initial_meld_done": true, "tileset": "standard", "rules": {}}

and the answer, on the same line number of the output::

    {"tiles_placed": 1, "value_placed": 4, "play": ["R4"],
     "melds": [["R1", "R2", "R3", "R4"]]}

A line that is not a valid position (bad JSON, an unknown tile, more copies
than the tile set has, a table that cannot be divided, an unknown rule
option) is answered ``{"error": "message"}`` and the batch goes on. Blank
lines are skipped. The exit status is 0.

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
    :func:`answer`); returns 0."""
    for lineno, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            out = {"error": f"line {lineno}: bad JSON: {exc.msg} at column {exc.colno}"}
        else:
            try:
                out = answer(data, fewest_moves, read_rules)
            except (ValueError, EngineError) as exc:
                out = {"error": f"line {lineno}: {exc}"}
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return 0


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
