"""No family is named above the engine: ``league/``, ``games/`` and the
templates ask a family's description (:mod:`engine.family`, through
:func:`engine.registry.family_for`) and never switch on its name.

The check looks for each family's name as a quoted string (``"okey"`` or
``'okey'``) in every source file of those trees, migrations excepted (a
migration records the field default it was written with). A family's name
inside a longer string (``"okey_games"``, a docstring's "contract rummy")
is not a switch and is not flagged. bin/test runs this file, so CI does.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.registry import FAMILIES

ROOT = Path(__file__).resolve().parent.parent
TREES = ("league", "games", "templates")
SUFFIXES = {".py", ".html", ".js", ".txt", ".json"}


def quoted_family_names(root: Path, trees=TREES) -> list[str]:
    """Every ``path:line: text`` under ``trees`` of ``root`` where a family's
    name stands alone in quotes, migrations excepted."""
    pattern = re.compile(r"""(["'])(%s)\1""" % "|".join(map(re.escape, FAMILIES)))
    found = []
    for tree in trees:
        for path in sorted((root / tree).rglob("*")):
            if path.suffix not in SUFFIXES or "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()[:120]}")
    return found


def test_league_games_and_templates_name_no_family():
    found = quoted_family_names(ROOT)
    assert not found, ("a family named above the engine (ask its description, engine.registry.family_for, "
                       "instead):\n" + "\n".join(found))


def test_the_check_finds_a_name_in_either_quotes(tmp_path):
    (tmp_path / "league" / "migrations").mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    (tmp_path / "games").mkdir()
    (tmp_path / "league" / "manager.py").write_text('games = seats if family in ("rummikub", "x") else 1\n')
    (tmp_path / "templates" / "page.html").write_text("{% if drawing.family == 'okey' %}x{% endif %}\n")
    (tmp_path / "games" / "views.py").write_text('sheet = {"okey_games": []}  # contract rummy\n')
    (tmp_path / "league" / "migrations" / "0001_initial.py").write_text('default="rummikub"\n')
    found = quoted_family_names(tmp_path)
    assert [f.split(":")[0] for f in found] == ["league/manager.py", "templates/page.html"]
