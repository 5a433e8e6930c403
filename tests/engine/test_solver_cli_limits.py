"""``python -m engine solve`` on hostile lines: JSON nested thousands deep,
lines of megabytes, huge tokens. Each is answered with an error line, the
batch goes on, and nothing prints a traceback."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.solver import cli
from engine.solver.cli import MAX_DEPTH, MAX_LINE, json_depth, run

ROOT = Path(__file__).resolve().parents[2]
GOOD = json.dumps({"table": ["R1", "R2", "R3"], "rack": ["R4"], "initial_meld_done": True})


def _run(text: str) -> tuple[int, list[dict]]:
    out = io.StringIO()
    status = run(io.StringIO(text), out)
    return status, [json.loads(x) for x in out.getvalue().splitlines()]


def test_json_depth():
    assert json_depth('{"a": [1, 2]}') == 2
    assert json_depth('"[[[[[["') == 0                     # brackets inside a string
    assert json_depth('["a\\"[[[", [[]]]') == 3            # an escaped quote does not end it
    assert json_depth("[" * 100_000) == 100_000             # no recursion, any depth


@pytest.mark.parametrize("hostile, words", [
    ("[" * 100_000 + "]" * 100_000, "nested deeper"),
    ('{"table": ' + "[" * 5000 + "]" * 5000 + ', "rack": []}', "nested deeper"),
    ('{"rules": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}", "nested deeper"),
    ("[" * 100_000, "nested deeper"),
])
def test_deeply_nested_json_answers_an_error_and_the_batch_goes_on(hostile, words):
    status, out = _run("\n".join([GOOD, hostile, GOOD]) + "\n")
    assert status == 0 and len(out) == 3
    assert out[0] == out[2] and out[0]["tiles_placed"] == 1
    assert out[1]["error"].startswith("line 2:") and words in out[1]["error"]


def test_nesting_up_to_the_limit_is_read_normally():
    line = json.dumps({"table": [], "rack": [], "rules": {}})
    assert json_depth(line) <= MAX_DEPTH
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    status, out = _run(nested + "\n")
    assert "nested deeper" not in out[0]["error"] and "object" in out[0]["error"]


def test_an_oversized_line_answers_an_error_and_is_not_held_whole(monkeypatch):
    huge = json.dumps({"table": ["R1"] * (MAX_LINE // 4), "rack": []})
    assert len(huge) > MAX_LINE
    status, out = _run("\n".join([GOOD, huge, GOOD, huge]))  # the last has no newline
    assert status == 0 and len(out) == 4
    assert out[0] == out[2]
    for i in (1, 3):
        assert out[i] == {"error": f"line {i + 1}: longer than {MAX_LINE} characters"}


def test_an_error_quoting_a_huge_token_is_cut():
    line = json.dumps({"table": ["X" * 150_000], "rack": []})
    status, (out,) = _run(line + "\n")
    assert out["error"].startswith("line 1:") and len(out["error"]) < 1_000
    assert "characters)" in out["error"]


def test_a_solver_bug_answers_an_internal_error_line_and_exit_1(monkeypatch):
    calls = []

    def broken(data, fewest_moves=False, read_rules=None):
        calls.append(data)
        if len(calls) == 2:
            raise KeyError("boom")
        return {"ok": len(calls)}

    monkeypatch.setattr(cli, "answer", broken)
    status, out = _run("\n".join([GOOD] * 3) + "\n")
    assert status == 1
    assert out[0] == {"ok": 1} and out[2] == {"ok": 3}
    assert out[1]["error"].startswith("line 2: internal error KeyError")


def test_hostile_batch_under_the_real_command_prints_no_traceback():
    lines = [GOOD, "[" * 200_000, "{" * 50_000, '{"rack": ' + "[" * 30_000, GOOD,
             json.dumps({"table": ["R1"] * 100_000, "rack": []}), GOOD]
    proc = subprocess.run([sys.executable, "-m", "engine", "solve"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr == ""
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert [("error" in o) for o in out] == [False, True, True, True, False, True, False]
