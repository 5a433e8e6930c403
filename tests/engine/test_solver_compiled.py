"""The compiled build of the programme (``engine.solver.compiled``): it is
used only while built from the ``dp.py`` beside it, ``TABLEKEEPER_SOLVER``
chooses, and it gives exactly the interpreted module's answers."""

from __future__ import annotations


import pytest

from engine.solver import compiled, core, dp, solve
from engine.solver.positions import random_position
from engine.tiles import STANDARD, XP

from .solver_builds import required


def _current_build():
    return required(compiled._compiled(), "the compiled solver")


def test_choice_by_environment(monkeypatch):
    monkeypatch.setenv(compiled.ENV, "python")
    assert compiled.load() == (dp, "interpreted (asked for)")
    monkeypatch.setenv(compiled.ENV, "fortran")
    with pytest.raises(ValueError, match="TABLEKEEPER_SOLVER='fortran'"):
        compiled.load()


def test_a_build_of_another_dp_py_is_never_used(monkeypatch):
    _current_build()
    monkeypatch.setattr(compiled, "source_digest", lambda: "0" * 64)
    monkeypatch.delenv(compiled.ENV, raising=False)
    mod, why = compiled.load()
    assert mod is dp and why == "interpreted (built from another dp.py)"
    monkeypatch.setenv(compiled.ENV, "compiled")
    with pytest.raises(ImportError, match="built from another dp.py"):
        compiled.load()


def test_the_solver_runs_the_build_when_current(monkeypatch):
    mod = _current_build()
    monkeypatch.delenv(compiled.ENV, raising=False)
    assert compiled.load() == (mod, "compiled with the layers in C")
    assert mod.SOURCE_DIGEST == compiled.source_digest()
    assert mod is not dp and mod.run_dp is not dp.run_dp


CLASSES = [(STANDARD, 0, 20), (STANDARD, 20, 24), (STANDARD, 40, 16), (STANDARD, 60, 6),
           (STANDARD, 76, 14), (XP, 0, 20), (XP, 40, 20), (XP, 90, 10)]


@pytest.mark.parametrize("ts,size,rack", CLASSES)
def test_compiled_and_interpreted_answer_alike(monkeypatch, ts, size, rack):
    mod = _current_build()
    for i in range(10):
        table, r = random_position(f"compiled-{ts.name}-{size}-{i}", ts, size, rack)
        answers = []
        for impl in (mod, dp):
            monkeypatch.setattr(core, "dp", impl)
            s = solve(table, r, tileset=ts)
            o = solve([], r, tileset=ts, initial_meld_done=False)
            answers.append((s.tiles_placed, s.value_placed, s.play, s.melds,
                            o.tiles_placed, o.value_placed, o.play, o.melds))
        assert answers[0] == answers[1], (table, r)
