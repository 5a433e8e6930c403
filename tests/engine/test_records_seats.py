"""Records name their seat: every move line says who moved, replay refuses a
move by a seat whose turn it was not (naming the turn, the seat that moved
and the seat on turn), older seatless records still replay; and the verdict
of ``python -m engine replay`` as its exit status (0 good, 1 a rule broken,
2 usage or unreadable) and as one JSON object with ``--json``."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli_replay import main as replay_main
from engine.contract import ContractGame, InternationalGame
from engine.contract.ai import play_game
from engine.errors import RecordError, ResultMismatchError
from engine.records import (ReplayError, read_record, record_from_game, replay, replay_text,
                            split_seat, write_game, write_record)
from engine.rummikub import SabraGame
from engine.rummikub.ai.random_player import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
SEATLESS = Path(__file__).parent / "data" / "seatless-normal-game.txt"


def _rk_game(seed="seats", players=3, turns=None):
    g = SabraGame.new(players, seed=seed)
    p = RandomPlayer(seed)
    n = 0
    while not g.is_over and (turns is None or n < turns):
        g.push(p.choose(g))
        n += 1
    return g


def _move_lines(text):
    return [line for line in text.splitlines() if line[:1].isdigit()]


# --- the notation ------------------------------------------------------------------------

def test_split_seat():
    assert split_seat("2 play R1 R2 R3 -> [R1 R2 R3]") == (2, "play R1 R2 R3 -> [R1 R2 R3]")
    assert split_seat("draw") == (None, "draw")
    assert split_seat("  0   draw R7 ") == (0, "draw R7")
    assert split_seat("12") == (None, "12")  # a seat with no move is no seat: the move is bad


def test_rummikub_lines_name_the_seat_that_moved():
    g = _rk_game(players=3)
    text = write_game(g, ["Ann", "Ben", "Cleo"])
    lines = _move_lines(text)
    assert len(lines) == len(g.move_stack)
    for line, seat, move in zip(lines, g.move_seats, g.move_stack):
        number, rest = line.split(". ", 1)
        body, _, comment = rest.partition(" ; ")
        assert body == f"{seat} {move}"
        assert comment == ["Ann", "Ben", "Cleo"][seat]


def test_round_trip_rummikub_write_read_write():
    g = _rk_game(seed="round-trip", players=4)
    text = write_game(g, ["A", "B", "C", "D"], {"Event": "x"})
    rec = read_record(text)
    assert write_record(rec) == text
    assert all(split_seat(t)[0] is not None for t, _, _ in rec.moves)
    again = replay(rec)
    assert again.snapshot() == g.snapshot()
    assert write_game(again, ["A", "B", "C", "D"], {"Event": "x"}) == text


def test_round_trip_contract_write_read_write():
    g = InternationalGame.new(3, seed="round-trip")
    play_game(g)
    text = g.record(seats=["Ann", "Ben", "Cleo"])
    rec = read_record(text)
    assert write_record(rec) == text
    # contract moves name their seat themselves: written once, not twice
    for (t, _, _), seat in zip(rec.moves, g.move_seats):
        named, body = split_seat(t)
        assert named == seat and not body[:1].isdigit()
    again = replay(rec)
    assert again.snapshot() == g.snapshot()
    assert again.record(seats=["Ann", "Ben", "Cleo"]) == text


def test_an_unfinished_game_round_trips_with_seats():
    g = _rk_game(seed="half", players=2, turns=25)
    text = write_game(g)
    assert all(line.split(". ", 1)[1][0].isdigit() for line in _move_lines(text))
    assert replay_text(text).snapshot() == g.snapshot()


# --- older records ---------------------------------------------------------------------------

def test_an_old_seatless_record_still_replays_to_the_same_game():
    old = SEATLESS.read_text(encoding="utf-8")
    assert all(not split_seat(t)[0] for t, _, _ in read_record(old).moves)  # truly seatless
    new = (EXAMPLES / "normal-game.txt").read_text(encoding="utf-8")
    assert old != new
    assert replay_text(old).snapshot() == replay_text(new).snapshot()
    assert replay_main([str(SEATLESS)]) == 0


def test_a_record_mixing_seated_and_seatless_lines_replays():
    g = _rk_game(seed="mixed", players=3, turns=12)
    rec = record_from_game(g)
    rec.moves = [(split_seat(t)[1] if i % 2 else t, c, n) for i, (t, c, n) in enumerate(rec.moves)]
    assert replay(rec).snapshot() == g.snapshot()


# --- out of turn ---------------------------------------------------------------------------

def test_a_skipped_turn_typed_in_is_refused_at_that_turn_naming_both_seats(capsys):
    """The sample typed in from a real table: Ben's turn 5 was not written
    down, so Cleo's draw stands as turn 5."""
    path = EXAMPLES / "illegal-out-of-turn.txt"
    rec = read_record(path.read_text(encoding="utf-8"))
    assert rec.get("Expect") == "turn 5 not-your-turn"
    with pytest.raises(ReplayError) as info:
        replay(rec)
    e = info.value
    assert (e.turn, e.seat, e.to_move, e.rule, e.player) == (5, 2, 1, "not-your-turn", "Cleo")
    assert "turn 5" in str(e) and "seat 2 (Cleo)" in str(e) and "seat 1 (Ben)" in str(e)
    assert replay_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "turn 5" in err and "Cleo (seat 2)" in err and "Ben" in err and "not-your-turn" in err


def test_without_the_seat_the_same_skip_would_pass_unnoticed():
    """Why the seat is written: the skipped turn of the sample, read as an
    old seatless record, replays (the engine cannot tell)."""
    rec = read_record((EXAMPLES / "illegal-out-of-turn.txt").read_text(encoding="utf-8"))
    rec.moves = [(split_seat(t)[1], c, n) for t, c, n in rec.moves]
    rec.set("Result", "*")
    assert replay(rec).turn == 6


@pytest.mark.parametrize("turn", [1, 2, 7, 20])
def test_any_rummikub_move_by_the_wrong_seat_is_refused(turn):
    g = _rk_game(seed="wrong-seat", players=4, turns=30)
    rec = record_from_game(g, ["Ann", "Ben", "Cleo", "Dov"])
    text, comment, line = rec.moves[turn - 1]
    seat, body = split_seat(text)
    wrong = (seat + 2) % 4
    rec.moves[turn - 1] = (f"{wrong} {body}", comment, line)
    with pytest.raises(ReplayError) as info:
        replay(rec)
    e = info.value
    assert (e.turn, e.seat, e.to_move, e.rule) == (turn, wrong, seat, "not-your-turn")


def test_a_seat_that_does_not_exist_is_refused():
    g = _rk_game(seed="no-seat", players=2, turns=4)
    rec = record_from_game(g)
    rec.moves[2] = ("5 draw", "", 0)
    with pytest.raises(ReplayError) as info:
        replay(rec)
    assert info.value.turn == 3 and info.value.rule == "no-such-seat"


def _contract_record():
    g = ContractGame.new(3, seed="contract-seats")
    play_game(g)
    return g, read_record(g.record(seats=["Ann", "Ben", "Cleo"]))


def test_a_contract_move_by_the_wrong_seat_is_refused_naming_both_seats():
    g, rec = _contract_record()
    # the first plain move (not a buy/allow/refuse) after turn 3: give it to another seat
    turn = next(i for i, (t, _, _) in enumerate(rec.moves, 1)
                if i > 3 and split_seat(t)[1].startswith("draw"))
    seat, body = split_seat(rec.moves[turn - 1][0])
    wrong = (seat + 1) % 3
    rec.moves[turn - 1] = (f"{wrong} {body}", "", 0)
    with pytest.raises(ReplayError) as info:
        replay(rec)
    e = info.value
    assert (e.turn, e.seat, e.to_move, e.rule) == (turn, wrong, seat, "not-your-turn")
    names = ["Ann", "Ben", "Cleo"]
    assert f"seat {wrong} ({names[wrong]})" in str(e) and f"seat {seat} ({names[seat]})" in str(e)


def test_a_contract_buy_is_the_move_out_of_turn_that_is_allowed():
    """contract-table-deal.txt opens with Ben (seat 1) buying the upcard
    while Ann (seat 0) is on turn, and Ann refusing: both replay."""
    rec = read_record((EXAMPLES / "contract-table-deal.txt").read_text(encoding="utf-8"))
    assert rec.moves[0][0] == "1 buy" and rec.first() == 0
    seen = []
    replay(rec, on_move=lambda game, turn, move, outcome: seen.append((turn, outcome.kind)))
    assert seen[0] == (1, "buy-requested") and seen[1] == (2, "refused")
    # and the same buy written as the seat on turn's move is refused: no own-turn buy here
    rec.moves[0] = ("0 buy", "", 0)
    with pytest.raises(ReplayError) as info:
        replay(rec)
    assert info.value.turn == 1 and info.value.rule == "own-turn-buy"


# --- python -m engine replay: exit status and --json -------------------------------------------

GOOD = (EXAMPLES / "normal-game.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("mutate, rule", [
    (lambda t: t.replace("[Scores \"", "[Scores \"1"), "scores-differ"),
    (lambda t: t.replace('[Result "0"]', '[Result "2"]'), "result-differs"),
    (lambda t: t[:t.index("\n30. ")] + "\n", "game-not-over"),
])
def test_a_result_the_replay_does_not_reach_is_a_verdict_exit_1(tmp_path, capsys, mutate, rule):
    bad = mutate(GOOD)
    assert bad != GOOD
    with pytest.raises(ResultMismatchError) as info:
        replay_text(bad)
    assert info.value.rule == rule and isinstance(info.value, RecordError)
    path = tmp_path / "bad.txt"
    path.write_text(bad)
    assert replay_main([str(path)]) == 1
    assert rule in capsys.readouterr().err
    assert replay_main(["--json", str(path)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["rule"] == rule and verdict["turn"] is None


def test_json_verdict_of_a_good_record(capsys):
    assert replay_main(["--json", str(EXAMPLES / "normal-game.txt")]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    verdict = json.loads(out)
    game = replay_text(GOOD)
    assert verdict == {"ok": True, "variant": "sabra", "turns": len(game.move_stack),
                       "over": True, "result": [0], "scores": game.scores(), "warnings": []}


def test_json_verdict_of_a_broken_rule(capsys):
    assert replay_main([str(EXAMPLES / "illegal-out-of-turn.txt"), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict == {"ok": False, "turn": 5, "seat": 2, "player": "Cleo", "to_move": 1,
                       "rule": "not-your-turn", "move": "2 draw",
                       "message": "seat 2 (Cleo) moved at turn 5, but it was seat 1 (Ben)'s turn"}
    assert replay_main(["--json", str(EXAMPLES / "illegal-initial-meld.txt")]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["turn"], verdict["seat"], verdict["rule"]) == (3, 2, "initial-meld-below-threshold")


def test_json_of_unreadable_input_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text(GOOD.replace('[Variant "sabra"]', '[Variant "chess"]'))
    assert replay_main(["--json", str(path)]) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False and verdict["error"] == "unreadable"
    assert "unknown variant" in verdict["message"]
    assert replay_main(["--json", str(tmp_path / "nope.txt")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["message"]


@pytest.mark.parametrize("argv", [[], ["a.txt", "b.txt"], ["--bogus", "a.txt"], ["--json"]])
def test_usage_errors_exit_2(argv, capsys):
    assert replay_main(argv) == 2
    assert "usage" in capsys.readouterr().err


def test_help_exits_0(capsys):
    assert replay_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "usage" in out and "--json" in out


def test_an_oversized_move_line_is_not_echoed_back_whole(tmp_path, capsys):
    huge = "play " + "R1 " * 2_000_000  # 6 MB
    for line in (huge, "0 " + huge, "0 draw " + "X" * 3_000_000):
        text = GOOD.replace("\n1. 0 ", f"\n1. {line} ; was: ", 1)
        path = tmp_path / "huge.txt"
        path.write_text(text)
        assert replay_main([str(path)]) == 1
        err = capsys.readouterr().err
        assert len(err) < 2_000 and "…" in err and "turn 1" in err
        assert replay_main(["--json", str(path)]) == 1
        out = capsys.readouterr().out
        assert len(out) < 2_000
        verdict = json.loads(out)
        assert verdict["turn"] == 1 and verdict["move"].endswith("characters)")


def test_exit_statuses_under_a_subprocess(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "engine", "replay", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
    assert run(str(EXAMPLES / "normal-game.txt")).returncode == 0
    assert run(str(EXAMPLES / "illegal-out-of-turn.txt")).returncode == 1
    assert run(str(tmp_path / "missing.txt")).returncode == 2
    assert run().returncode == 2
    out = run("--json", str(EXAMPLES / "contract-illegal-players-rule.txt"))
    assert out.returncode == 1 and json.loads(out.stdout)["ok"] is False


def test_a_seat_tag_past_the_table_is_unreadable_exit_2(tmp_path, capsys):
    text = (EXAMPLES / "normal-game.txt").read_text(encoding="utf-8")
    players = read_record(text).players()
    path = tmp_path / "seat99.txt"
    path.write_text(text.replace("[Seat \"0 ", "[Seat \"99 ", 1), encoding="utf-8")
    assert '[Seat "99 ' in path.read_text(encoding="utf-8") and players == 4
    assert replay_main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "99" in err and f"{players} players" in err, err
    assert replay_main(["--json", str(path)]) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["error"] == "unreadable" and "Seat" in verdict["message"] and "99" in verdict["message"]
    with pytest.raises(RecordError):
        replay_text(path.read_text(encoding="utf-8"))


def test_a_record_starting_with_a_utf8_bom_replays(tmp_path, capsys):
    text = (EXAMPLES / "normal-game.txt").read_text(encoding="utf-8")
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert replay_main([str(path)]) == 0, capsys.readouterr().err
    assert replay_text("\ufeff" + text).is_over
    result = subprocess.run([sys.executable, "-m", "engine", "replay", "-"], input=b"\xef\xbb\xbf" + text.encode(),
                            capture_output=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
