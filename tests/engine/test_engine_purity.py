"""The engine never imports Django or Celery (house rule): checked on the
source of every module under engine/ and by importing them all in a fresh
interpreter."""

import ast
import json
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("django", "celery", "rest_framework", "kombu")


def _modules():
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield path, ".".join(parts)


def test_no_module_under_engine_names_django_or_celery():
    offenders = []
    files = 0
    for path, _ in _modules():
        files += 1
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) \
                    in ("import_module", "__import__") and node.args and \
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path}:{node.lineno} imports {name}")
    assert files >= 8  # the walk really saw the engine
    assert not offenders, "\n".join(offenders)


def test_importing_every_engine_module_loads_neither():
    modules = [name for _, name in _modules()]
    code = (
        "import importlib, json, sys\n"
        f"mods = {modules!r}\n"
        "for m in mods: importlib.import_module(m)\n"
        f"bad = sorted(k for k in sys.modules if k.split('.')[0] in {FORBIDDEN!r})\n"
        "print(json.dumps({'loaded': len(mods), 'bad': bad}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parent, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["loaded"] == len(modules) and result["bad"] == []
