"""``python -m engine replay`` on contract records: a refused move names the
seat the move itself names (a buy by a player not on turn), and the final
state is the family's own summary (``describe()``)."""

from pathlib import Path

import pytest

from engine.cards import TEXT
from engine.cli_replay import main as replay_main
from engine.records import ReplayError, replay_text, write_game
from engine.registry import find_variant

ROOT = Path(__file__).resolve().parents[2]


def _record_with(extra: str) -> str:
    """A short international record (seat 1 has drawn, so the buy window on
    seat 0's discard is closed) with ``extra`` as the next move."""
    game = find_variant("international").new(3, seed="cli-seat-naming")
    game.push("0 draw")
    game.push(f"0 discard {TEXT[game.hands[0][0]]}")
    game.push("1 draw")
    text = write_game(game, seats=["Ann", "Ben", "Cleo"])
    return text.rstrip("\n") + f"\n4. {extra}\n"


def test_an_out_of_window_buy_is_blamed_on_the_buyer_not_the_seat_on_turn(tmp_path, capsys):
    text = _record_with("2 buy")
    with pytest.raises(ReplayError) as info:
        replay_text(text)
    assert info.value.seat == 2 and info.value.player == "Cleo"
    assert info.value.rule == "buy-window-closed" and info.value.turn == 4
    path = tmp_path / "late-buy.txt"
    path.write_text(text, encoding="utf-8")
    assert replay_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "player Cleo (seat 2)" in err and "buy-window-closed" in err and "Ben" not in err


def test_a_move_that_does_not_parse_names_the_seat_written_in_front(capsys, tmp_path):
    path = tmp_path / "bad-card.txt"
    path.write_text(_record_with("2 discard XX"), encoding="utf-8")
    assert replay_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "seat 2" in err and "notation" in err


def test_a_move_without_a_seat_is_still_blamed_on_the_seat_on_turn():
    text = _record_with("down 3C 3D 3H / 4C 4D 4H")   # seat 1 is on turn
    with pytest.raises(ReplayError) as info:
        replay_text(text)
    assert info.value.seat == 1 and info.value.player == "Ben"


def test_the_final_state_is_the_contract_summary(capsys):
    path = ROOT / "docs/examples/contract-three-decks.txt"
    assert replay_main([str(path)]) == 0
    out = capsys.readouterr().out
    game = replay_text(path.read_text(encoding="utf-8"))
    assert out.startswith(game.describe().splitlines()[0])
    for line in game.describe().splitlines():
        assert line in out
    assert "hand 7 (three runs)" in out
    assert f"totals: {' '.join(str(t) for t in game.scores())}" in out
    # melds as cards, not as raw dicts
    assert "{'kind'" not in out and "table (" in out
