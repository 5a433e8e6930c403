"""Game records: write/read round trips, replay of every sample in
docs/examples/, and ``python -m engine replay`` on good and bad input."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.rummikub.ai.random_player import RandomPlayer
from engine.cli_replay import main as replay_main
from engine.errors import RecordError
from engine.records import (ReplayError, read_record, record_from_game, replay, replay_text,
                            write_record)
from engine.rummikub import SabraGame

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.txt"))


def _game(seed="rec", players=3):
    g = SabraGame.new(players, seed=seed)
    p = RandomPlayer(seed)
    while not g.is_over:
        g.push(p.choose(g))
    return g


def test_write_read_write_is_stable():
    g = _game()
    text = write_record(record_from_game(g, ["A", 'B "the bold"', "C\\D"], {"Event": "x"}))
    rec = read_record(text)
    assert write_record(rec) == text
    assert rec.seats() == {0: "A", 1: 'B "the bold"', 2: "C\\D"}
    assert replay(rec).snapshot() == g.snapshot()


def test_unfinished_game_record_replays_to_the_same_state():
    g = SabraGame.new(2, seed="half")
    p = RandomPlayer(1)
    for _ in range(25):
        g.push(p.choose(g))
    rec = record_from_game(g)
    assert rec.get("Result") == "*"
    assert replay_text(write_record(rec)).snapshot() == g.snapshot()


def test_examples_exist():
    names = {p.name for p in EXAMPLES}
    for want in ("normal-game.txt", "pool-empty.txt", "failed-manipulation-penalty.txt",
                 "joker-reuse-1-any.txt", "joker-reuse-2-new-meld.txt",
                 "joker-reuse-3-with-rack-tiles.txt", "joker-reuse-4-rack-tiles-only.txt",
                 "xp-six-players.txt", "illegal-initial-meld.txt"):
        assert want in names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_replays(path, capsys):
    rec = read_record(path.read_text(encoding="utf-8"))
    expect = rec.get("Expect")
    code = replay_main([str(path)])
    out, err = capsys.readouterr()
    if expect:
        turn, rule = expect.split()[1], expect.split()[2]
        assert code == 1
        assert f"turn {turn}," in err and f"rule {rule}" in err
        who = rec.seats()[int(next(s for s in err.split("(seat ")[1:]).split(")")[0])]
        assert who in err
        return
    assert code == 0, err
    game = replay(rec)
    assert game.is_over
    assert "table (" in out and f"scores {' '.join(str(s) for s in game.scores())}" in out
    for seat, name in rec.seats().items():
        assert name in out


def test_example_details():
    def load(name):
        rec = read_record((ROOT / "docs/examples" / name).read_text())
        return rec, replay(rec)
    rec, g = load("pool-empty.txt")
    assert g.end_reason == "pool-empty" and g.pool_count == 0
    rec, g = load("failed-manipulation-penalty.txt")
    assert rec.get("Seed") is None and rec.deal() and any(m.kind == "penalty" for m in g.move_stack)
    rec, g = load("xp-six-players.txt")
    assert g.variant == "sabra-xp" and g.players == 6
    for n, reading in enumerate(["any", "new-meld", "new-meld-with-rack-tiles",
                                 "joker-and-rack-tiles-only"], 1):
        path = next(p for p in EXAMPLES if p.name.startswith(f"joker-reuse-{n}-"))
        rec = read_record(path.read_text())
        assert rec.rules()["joker_reuse"] == reading
        freeing = rec.moves[3][0]
        assert "J(" in freeing.split("->")[0] and replay(rec).is_over


def test_illegal_example_under_the_cli_subprocess():
    path = ROOT / "docs/examples/illegal-initial-meld.txt"
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "turn 3" in out.stderr and "Cleo" in out.stderr and "initial-meld-below-threshold" in out.stderr
    ok = subprocess.run([sys.executable, "-m", "engine", "replay", str(ROOT / "docs/examples/normal-game.txt")],
                        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "result:" in ok.stdout


GOOD = (ROOT / "docs/examples/normal-game.txt").read_text() if EXAMPLES else ""


@pytest.mark.parametrize("mutate, words", [
    (lambda t: t.replace('[Variant "sabra"]', '[Variant "chess"]'), "unknown variant"),
    (lambda t: t.replace('[Players "4"]', '[Players "four"]'), "Players"),
    (lambda t: t.replace('[Rule "initial_meld=30"]', '[Rule "initial_meld=lots"]'), "initial_meld"),
    (lambda t: t.replace('[Rule "initial_meld=30"]', '[Rule "jokers_fly=true"]'), "jokers_fly"),
    (lambda t: t.replace("\n2. ", "\n7. "), "turn 7"),
    (lambda t: t.replace("\n1. ", "\n1 . "), "numbered move"),
    (lambda t: t.replace('[Seed "example-normal-game"]', ""), "seed"),
    (lambda t: t + "[Late \"tag\"]\n", "tag after the moves"),
    (lambda t: "\x00\x01garbage", "expected a tag"),
])
def test_unreadable_records_exit_2_with_a_message(tmp_path, capsys, mutate, words):
    bad = mutate(GOOD)
    assert bad != GOOD
    path = tmp_path / "bad.txt"
    path.write_text(bad)
    assert replay_main([str(path)]) == 2
    err = capsys.readouterr().err
    assert words.lower() in err.lower()


def test_a_tampered_move_is_named(tmp_path, capsys):
    lines = GOOD.splitlines()
    idx = next(i for i, l in enumerate(lines) if l.startswith("5. "))
    lines[idx] = "5. play K1 K2 K3 -> [K1 K2 K3]"
    path = tmp_path / "t.txt"
    path.write_text("\n".join(lines))
    assert replay_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "turn 5," in err and "rule " in err
    with pytest.raises(ReplayError) as exc:
        replay_text("\n".join(lines))
    assert exc.value.turn == 5 and exc.value.seat == 0 and exc.value.player == "Ann"


def test_missing_file_and_usage(tmp_path, capsys):
    assert replay_main([str(tmp_path / "nope.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert replay_main([]) == 2
    (tmp_path / "latin1.txt").write_bytes(b"\xff\xfe\xfa")
    assert replay_main([str(tmp_path / "latin1.txt")]) == 2


def test_read_record_errors_name_the_line():
    with pytest.raises(RecordError) as err:
        read_record('[Variant "sabra"]\n\n1. draw\n3. draw\n')
    assert err.value.line == 4
