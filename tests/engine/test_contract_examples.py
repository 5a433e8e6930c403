"""The contract rummy sample records in docs/examples replay as documented."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from engine.cli_replay import main as replay_main
from engine.records import read_record, replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("contract-*.txt"))


def load(name):
    rec = read_record((ROOT / "docs" / "examples" / name).read_text(encoding="utf-8"))
    return rec, [m[0] for m in rec.moves]


def test_the_samples_exist():
    assert {p.name for p in EXAMPLES} == {
        "contract-three-decks.txt", "contract-international.txt",
        "contract-table-deal.txt", "contract-illegal-players-rule.txt"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_sample_replays_or_is_refused_where_it_says(path, capsys):
    rec = read_record(path.read_text(encoding="utf-8"))
    code = replay_main([str(path)])
    out, err = capsys.readouterr()
    expect = rec.get("Expect")
    if expect:
        _, turn, rule = expect.split()
        assert code == 1 and f"turn {turn}," in err and f"rule {rule}" in err
        return
    assert code == 0, err
    game = replay(rec)
    assert game.is_over and len(game.results) == 7
    assert f"scores {' '.join(str(s) for s in game.scores())}" in out


def test_the_samples_show_the_rules_they_name():
    rec, moves = load("contract-three-decks.txt")
    assert rec.get("Variant") == "contract"
    assert any(m.endswith(" buy") for m in moves) and any(m.endswith(" allow") for m in moves)
    rec, moves = load("contract-international.txt")
    assert rec.get("Variant") == "international"
    assert any(m.endswith(" undo") for m in moves)
    assert any(" swap " in m for m in moves)
    rec, moves = load("contract-table-deal.txt")
    assert rec.get("Seed") is None and len(rec.deal()) == 21
    rec, moves = load("contract-illegal-players-rule.txt")
    assert rec.get("Result") == "*" and moves[-1].split()[1] == "discard"


def test_regenerating_gives_the_same_files():
    before = {p.name: p.read_bytes() for p in EXAMPLES}
    runpy.run_path(str(ROOT / "docs" / "examples" / "contract-examples.py"),
                   run_name="__main__")
    after = {p.name: p.read_bytes() for p in EXAMPLES}
    assert after == before
