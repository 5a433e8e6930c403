"""The engine's layers: the shared core (tiles, melds) and the solver import
no game family, the Rummikub family never imports another family, and no
engine module imports one that (directly or not) imports it back, lazy
imports inside functions included."""

import ast
import json
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FAMILIES = ("engine.rummikub", "engine.contract")


def _name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _graph() -> dict[str, set[str]]:
    """Every engine module and the engine modules it imports anywhere in
    its source. ``from pkg import name`` counts ``pkg.name`` when that is a
    module, else ``pkg`` (a package's ``__init__`` running before its
    modules is not counted as a cycle: Python always does that)."""
    paths = {_name(p): p for p in sorted(ENGINE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for mod, path in paths.items():
        is_pkg = path.name == "__init__.py"
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".")
                    base = base[:len(base) - node.level + (1 if is_pkg else 0)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    deps.add(sub if sub in paths else target)
        graph[mod] = {d for d in deps if d in paths and d != mod}
    return graph


def _reaches(graph, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for d in graph[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_the_graph_sees_the_engine():
    graph = _graph()
    assert "engine.solver.api" in graph and "engine.rummikub.game" in graph
    assert "engine.solver.layout" in graph["engine.solver.api"]


def test_core_and_solver_import_no_family():
    graph = _graph()
    below = [m for m in graph if m in ("engine.tiles", "engine.melds", "engine.errors")
             or m.startswith("engine.solver")]
    assert len(below) >= 8
    for mod in below:
        bad = sorted(d for d in _reaches(graph, mod) if d.startswith(FAMILIES))
        assert not bad, f"{mod} reaches {bad}"


def test_rummikub_imports_no_other_family():
    graph = _graph()
    for mod in (m for m in graph if m.startswith("engine.rummikub")):
        bad = sorted(d for d in _reaches(graph, mod) if d.startswith("engine.contract"))
        assert not bad, f"{mod} reaches {bad}"


def test_no_import_cycles_in_the_solver_and_the_rummikub_family():
    graph = _graph()
    ours = [m for m in graph if m.startswith(("engine.solver", "engine.rummikub"))]
    cycles = [m for m in ours if m in _reaches(graph, m)]
    assert not cycles, cycles


def test_loading_the_solver_loads_no_family():
    code = ("import json, sys, engine.solver, engine.solver.layout, engine.solver.cli\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('engine.'))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parent, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert "engine.solver.api" in loaded
    assert not [m for m in loaded if m.startswith(FAMILIES)], loaded
