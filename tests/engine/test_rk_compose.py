"""A turn laid out by a front end: melds checked one by one, the value laid,
and the engine's notation written from the table after the turn."""

from __future__ import annotations

from engine.registry import find_variant
from engine.tiles import parse_tiles


def test_valid_and_invalid_melds_are_named_and_the_play_is_written():
    state = find_variant("sabra").new(2, seed="compose")
    rack = state.view(state.to_move)["rack"]
    answer = state.compose([rack[:2]])
    assert answer["melds"][0]["valid"] is False and "3 or more" in answer["melds"][0]["reason"]
    assert answer["move"] is None and not answer["legal"]
    bad = state.compose([["K1", "R2", "B3"]])
    assert not bad["melds"][0]["valid"] and "neither a run" in bad["melds"][0]["reason"]


def test_an_opening_below_the_initial_meld_is_written_but_refused_with_the_rule():
    state = find_variant("sabra").new(2, seed="x")
    assert state.view(state.to_move)["rack"][:3] == ["K2", "K3", "K4"]
    answer = state.compose([["K2", "K3", "K4"]])
    assert answer["melds"] == [{"valid": True, "reason": "", "meld": "[K2 K3 K4]", "value": 9}]
    assert answer["laid_value"] == 9 and answer["move"] == "play K2 K3 K4 -> [K2 K3 K4]"
    assert not answer["legal"] and "below 30" in answer["refusal"]


def test_a_legal_opening_and_a_joker_read_in_place():
    state = find_variant("sabra").new(2, seed="x")
    seat = state.to_move
    snap = state.snapshot()
    rack = list(snap["racks"][seat])
    pool = list(snap["pool"])
    want = ["O10", "O11", "O12", "J"]
    for code in want:  # bring the tiles onto the rack from the pool
        if code in rack:
            continue
        pool.remove(code)
        rack.append(code)
    snap["racks"][seat], snap["pool"] = rack, pool
    state = type(state).from_snapshot(snap)
    answer = state.compose([["O10", "J", "O12"], ["O11", "O12", "J"]] if rack.count("O12") > 1 else
                           [["O10", "J", "O12"]])
    first = answer["melds"][0]
    assert first["meld"] == "[O10 J(O11) O12]" and first["value"] == 33
    assert answer["legal"] and answer["move"].startswith("play ") and "-> [O10 J(O11) O12]" in answer["move"]
    state.push(answer["move"])
    # the meld now on the table is kept as it is when laid out again, untouched
    again = state.compose([["O10", "J", "O12"]] + [[str(t) for t in parse_tiles("K1 K2")]])
    assert again["melds"][0]["meld"] == "[O10 J(O11) O12]" and again["laid_value"] == 0
