"""The solver at run time: loading it loads no game family. (The import
graph itself - layers, independent families, no cycles, lazy imports
included - is checked by ``lint-imports``: ``tests/test_architecture.py``.)"""

import json
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FAMILIES = ("engine.rummikub", "engine.contract", "engine.okey", "engine.american")


def test_loading_the_solver_loads_no_family():
    code = ("import json, sys, engine.solver, engine.solver.layout, engine.solver.cli\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('engine.'))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ENGINE.parent, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert "engine.solver.api" in loaded
    assert not [m for m in loaded if m.startswith(FAMILIES)], loaded
