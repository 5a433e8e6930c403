"""The league's algorithms are pure: no Django, no database."""

import ast
from pathlib import Path

import pytest

PURE = ["seating.py", "standings.py", "ratings.py", "charts.py"]
LEAGUE = Path(__file__).resolve().parents[2] / "league"


@pytest.mark.parametrize("name", PURE)
def test_module_imports_no_django(name):
    tree = ast.parse((LEAGUE / name).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: must itself be a pure module
                target = (node.module or "").split(".")[0]
                assert f"{target}.py" in PURE, f"{name} imports league.{target}"
            else:
                imported.add((node.module or "").split(".")[0])
    assert not imported & {"django", "celery", "games", "rest_framework"}, imported

