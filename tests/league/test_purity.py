"""The league's algorithms are pure: no Django, no database."""

import ast
from pathlib import Path

import pytest

PURE = ["seating.py", "standings.py", "ratings.py", "scoresheet.py", "charts.py"]
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


def test_league_and_games_have_no_import_cycle_and_games_never_imports_the_league():
    # grimp reads every import, those inside functions too: a lazy import
    # that dodges a cycle at import time is still a cycle here.
    import grimp

    graph = grimp.build_graph("league", "games", cache_dir=None)
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                cycles.append(" -> ".join((module, *back)))
    assert not cycles, cycles
    assert not graph.chain_exists(importer="games", imported="league", as_packages=True), \
        graph.find_shortest_chains(importer="games", imported="league", as_packages=True)
