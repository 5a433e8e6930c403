"""The layers and the shape of the code, as CI checks them.

``lint-imports`` reads the contracts in ``pyproject.toml`` (league -> games ->
engine, a pure engine, independent families, a solver that knows no family,
no cycles between sibling modules). These tests run it on the real tree and on
a copy with one deliberate wrong import of each kind, which must fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "league", "games", "engine")
LINT = Path(sys.executable).with_name("lint-imports")
MAX_LINES = 600
SIZE_NOTE = "Size:"  # a long module says why, in a paragraph of its docstring


def _lint(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)


def _copy_tree(dest: Path) -> Path:
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, dest / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "migrations", "templates"))
    return dest


def test_the_tree_keeps_every_import_contract():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


@pytest.mark.parametrize("module, line, contract", [
    ("engine/_probe.py", "import games.models\n", "Layers"),
    ("games/_probe.py", "import league.models\n", "Layers"),
    ("engine/_probe.py", "import django.db\n", "imports no Django"),
    ("engine/rummikub/_probe.py", "import engine.contract\n", "independent"),
    ("engine/solver/_probe.py", "import engine.rummikub\n", "knows no game family"),
    ("engine/tiles_probe.py", "import engine.contract\n", "shared core"),
], ids=["engine-up-to-games", "games-up-to-league", "engine-django", "family-to-family",
        "solver-to-family", "core-to-family"])
def test_a_deliberate_wrong_import_fails_the_lint(tmp_path, module, line, contract):
    root = _copy_tree(tmp_path)
    target = root / module
    if module == "engine/tiles_probe.py":  # a core module's own import
        target = root / "engine" / "tiles.py"
        target.write_text(target.read_text() + "\n" + line)
    else:
        target.write_text(line)
    result = _lint(root)
    assert result.returncode != 0, result.stdout
    broken = [ln for ln in result.stdout.splitlines() if ln.endswith("BROKEN")]
    assert any(contract in ln for ln in broken), result.stdout


def test_a_cycle_between_sibling_modules_fails_the_lint(tmp_path):
    root = _copy_tree(tmp_path)
    # games.errors is imported by games.services; an import back closes a cycle
    errors = root / "games" / "errors.py"
    errors.write_text(errors.read_text() + "\nfrom . import services  # noqa\n")
    result = _lint(root)
    assert result.returncode != 0
    assert "No import cycles between sibling modules BROKEN" in result.stdout, result.stdout


def test_no_module_is_long_without_saying_why():
    long = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            if text.count("\n") > MAX_LINES and SIZE_NOTE not in text[:4000]:
                long.append(f"{path.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    assert not long, (f"modules over {MAX_LINES} lines must say why in their docstring "
                      f"(a paragraph starting {SIZE_NOTE!r}): " + ", ".join(long))


def test_every_registered_family_is_in_the_independence_contract():
    """A family is named twice: in ``engine.registry.FAMILIES`` and in the
    families-independent contract. A family missing from the contract could
    import another family unnoticed."""
    import tomllib

    from engine.registry import FAMILIES

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}
    independent = set(contracts["families-independent"]["modules"])
    assert independent == {f"engine.{family}" for family in FAMILIES}
