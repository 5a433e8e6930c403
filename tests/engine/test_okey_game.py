"""A match of Okey (seed 003) through the engine: the deal, the indicator
and the okey (13 to 1), false jokers, 1 as 14, seven pairs, every scoring
case, the Compare Stone's timing, With Color, the empty middle, a match
played down to 0, records and views. Positions are typed-in deals, so each
case is exactly the hand it names."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import DealError, IllegalMoveError, RuleOptionError
from engine.okey import TILES, OkeyGame
from engine.okey.game import _code, sort_key
from engine.okey.hand import tile_text
from engine.records import replay_text
from engine.registry import find_variant

T = str.split


def deal(hands: list[str], indicator: str, middle_top: str = "", first: int = 0,
         players: int = 4) -> dict:
    """A whole typed-in deal: the hands given (seat ``first`` with 15), the
    rest of each hand filled from the tiles left in the set's order but
    avoiding the okey (no accidental wild), the middle the remainder, with
    ``middle_top`` on top."""
    left = Counter(TILES)
    fixed = [[_code(t) for t in T(h)] for h in hands]
    ind = _code(indicator)
    top = [_code(t) for t in T(middle_top)]
    for t in [ind] + top + [t for h in fixed for t in h]:
        left[t] -= 1
        assert left[t] >= 0, tile_text(t)
    okey = ind // 13 * 13 + (ind % 13 + 1) % 13
    spare = [t for t in sorted(left.elements(), key=lambda c: (c == okey or c == 52, c % 13, c // 13))]
    out = []
    for s in range(players):
        want = 15 if s == first else 14
        h = fixed[s] if s < len(fixed) else []
        while len(h) < want:
            h.append(spare.pop(0))
        out.append([tile_text(t) for t in h])
    return {"hands": out, "indicator": indicator,
            "middle": [tile_text(t) for t in top + spare]}


WIN = "R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5"   # 14 tiles, no okey needed


def test_registry_and_deal_from_a_seed():
    Game = find_variant("okey")
    assert Game is OkeyGame and find_variant("turkish-okey") is OkeyGame
    g = Game.new(4, seed="coffee-house-1")
    assert [len(r) for r in g.racks] == [15, 14, 14, 14]
    assert len(g.middle) == 48 and g.indicator != 52
    assert sum(g.tile_count().values()) == 106 and g.tile_count() == Counter(TILES)
    assert g.to_move == 0 and g.phase == "discard"       # the starter discards first
    # the same seed deals the same tiles, another seed another deal
    assert Game.new(4, seed="coffee-house-1").snapshot() == g.snapshot()
    assert Game.new(4, seed="coffee-house-2").racks != g.racks
    with pytest.raises(DealError, match="2-4 players"):
        Game.new(5, seed="x")
    with pytest.raises(RuleOptionError, match="start_points"):
        Game.new(4, {"start_points": 0}, seed="x")
    with pytest.raises(RuleOptionError, match="unknown rule option"):
        Game.new(4, {"jokers": 2}, seed="x")


@pytest.mark.parametrize("indicator,okey", [("R5", "R6"), ("K13", "K1"), ("O1", "O2"), ("B12", "B13")])
def test_the_okey_is_one_higher_than_the_indicator_13_to_1(indicator, okey):
    g = OkeyGame.new(4, deal=deal([WIN + " K9"], indicator))
    assert tile_text(g.okey) == okey
    assert g.view(None)["okey"] == okey and g.view(None)["indicator"] == indicator


def test_typed_deals_are_checked():
    good = deal([WIN + " K9"], "K3")
    bad = dict(good, hands=[good["hands"][0][:-1]] + good["hands"][1:])
    with pytest.raises(DealError, match="seat 0 has 14 tiles, not 15"):
        OkeyGame.new(4, deal=bad)
    twice = dict(good, middle=good["middle"][:-1] + ["R1"])
    with pytest.raises(DealError, match="not Okey's 106"):
        OkeyGame.new(4, deal=twice)
    with pytest.raises(DealError, match="never the indicator"):
        OkeyGame.new(4, deal=dict(good, indicator="F"))


def finish(g: OkeyGame, tile: str):
    return g.push(g.parse_move(f"finish {tile}"))


def test_a_normal_win_costs_each_other_player_2():
    g = OkeyGame.new(4, deal=deal([WIN + " K9"], "K3"))
    out = finish(g, "K9")
    assert out.kind == "game-won" and out.seat == 0
    assert g.points == [20, 18, 18, 18]
    r = g.results[0]
    assert (r["winner"], r["kind"], r["loss"], r["okey_finish"]) == (0, "melds", 2, False)
    assert sorted(sum(r["melds"], [])) == sorted(T(WIN))
    # the next game is dealt, the next seat starting with 15
    assert g.game_no == 1 and g.to_move == 1 and len(g.racks[1]) == 15
    assert g.tile_count() == Counter(TILES)


def test_a_hand_that_does_not_win_is_refused_and_nothing_changes():
    g = OkeyGame.new(4, deal=deal(["R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 K12 K13 K9"], "B2"))
    before = g.snapshot()
    with pytest.raises(IllegalMoveError, match="not a winning hand") as exc:
        finish(g, "K9")
    assert exc.value.rule == "not-a-winning-hand" and g.snapshot() == before


def test_finishing_by_discarding_an_okey_costs_4():
    # okey R6 (indicator R5): the winning 14 plus an okey thrown as the 15th
    g = OkeyGame.new(4, deal=deal([WIN + " R6"], "R5"))
    finish(g, "R6")
    assert g.points == [20, 16, 16, 16] and g.results[0]["okey_finish"]


def test_one_counts_as_14_but_13_1_2_is_no_run():
    won = "K12 K13 K1 R4 R5 R6 B7 B8 B9 O10 O11 O12 O13 R7"
    g = OkeyGame.new(4, deal=deal([won + " O2"], "B2"))
    finish(g, "O2")
    assert ["K12", "K13", "K1"] in g.results[0]["melds"]
    g = OkeyGame.new(4, deal=deal(["K13 K1 K2 R4 R5 R6 B7 B8 B9 O10 O11 O12 O13 R7 O2"], "B2"))
    with pytest.raises(IllegalMoveError, match="not a winning hand"):
        finish(g, "O2")


def test_a_false_joker_is_the_okey_face_only():
    # okey R6 (indicator R5): F is a natural R6 in R4 R5 F R7 ...
    won = "R4 R5 F R7 K1 K2 K3 B7 B8 B9 O10 O11 O12 O13"
    g = OkeyGame.new(4, deal=deal([won + " K9"], "R5"))
    finish(g, "K9")
    assert ["R4", "R5", "F", "R7"] in g.results[0]["melds"]
    # ... and nothing else: K1 K2 F K4 would need F as K3
    g = OkeyGame.new(4, deal=deal(["K1 K2 F K4 R1 R2 R3 B7 B8 B9 O10 O11 O12 O13 K9"], "R5"))
    with pytest.raises(IllegalMoveError, match="not a winning hand"):
        finish(g, "K9")
    # where the okey itself (R6, wild) stands for K3, the same hand wins
    g = OkeyGame.new(4, deal=deal(["K1 K2 R6 K4 R1 R2 R3 B7 B8 B9 O10 O11 O12 O13 K9"], "R5"))
    finish(g, "K9")
    assert g.results[0]["winner"] == 0


def test_seven_pairs_is_a_rule_option_worth_4_and_8_with_an_okey():
    pairs = "K1 K1 R4 R4 B7 B7 O9 O9 K11 K11 R13 R13 B2 B2"
    g = OkeyGame.new(4, deal=deal([pairs + " O5"], "O3"))
    with pytest.raises(IllegalMoveError, match="not a winning hand"):
        finish(g, "O5")                      # off by default (seed 003's room)
    g = OkeyGame.new(4, {"seven_pairs": True}, deal=deal([pairs + " O5"], "O3"))
    finish(g, "O5")
    assert g.results[0]["kind"] == "pairs" and g.points == [20, 16, 16, 16]
    # seven pairs finished by discarding an okey (O4, from indicator O3)
    g = OkeyGame.new(4, {"seven_pairs": True}, deal=deal([pairs + " O4"], "O3"))
    finish(g, "O4")
    assert g.points == [20, 12, 12, 12]
    # an okey pairs with anything
    g = OkeyGame.new(4, {"seven_pairs": True},
                     deal=deal(["K1 K1 R4 R4 B7 B7 O9 O9 K11 K11 R13 R13 B2 O4 O5"], "O3"))
    finish(g, "O5")
    assert g.results[0]["kind"] == "pairs"


@pytest.mark.parametrize("indicator,doubled", [("R3", True), ("K3", True), ("B3", False), ("O3", False)])
def test_with_color_doubles_wins_when_the_indicator_is_red_or_black(indicator, doubled):
    g = OkeyGame.new(4, {"with_color": True}, deal=deal([WIN + " K9"], indicator))
    finish(g, "K9")
    assert g.points[1] == 20 - (4 if doubled else 2)
    assert g.results[0]["with_color"] is doubled
    g = OkeyGame.new(4, deal=deal([WIN + " K9"], indicator))   # the option off
    finish(g, "K9")
    assert g.points[1] == 18


def test_the_compare_stone_before_ones_first_draw_only():
    # the indicator R5's twin with seat 1; seat 0 starts
    g = OkeyGame.new(4, {"with_color": True}, deal=deal(["", "R5"], "R5"))
    assert not g.can_show(0)
    with pytest.raises(IllegalMoveError) as exc:
        g.push("show")
    assert exc.value.rule == "no-compare-stone-tile"
    g.push(f"discard {tile_text(g.racks[0][-1])}")
    assert g.to_move == 1 and g.can_show(1)
    out = g.push("show")
    # each other player loses 1, never doubled by With Color (red indicator)
    assert out.kind == "shown" and g.points == [19, 20, 19, 19]
    with pytest.raises(IllegalMoveError, match="has shown"):
        g.push("show")
    # too late once a tile was drawn: the same deal, seat 1 draws first
    g = OkeyGame.new(4, deal=deal(["", "R5"], "R5"))
    g.push(f"discard {tile_text(g.racks[0][-1])}")
    g.push("draw")
    with pytest.raises(IllegalMoveError) as exc:
        g.push("show")
    assert exc.value.rule == "compare-stone-after-draw" and g.points == [20] * 4
    # the starter may show before the first discard
    g = OkeyGame.new(4, deal=deal(["R5"], "R5"))
    g.push("show")
    assert g.points == [20, 19, 19, 19] and g.phase == "discard" and g.to_move == 0
    # a room without the Compare Stone refuses it
    g = OkeyGame.new(4, {"compare_stone": False}, deal=deal(["R5"], "R5"))
    with pytest.raises(IllegalMoveError, match="no Compare Stone"):
        g.push("show")


def test_turns_take_the_previous_discard_or_draw_then_discard():
    g = OkeyGame.new(4, seed="turns")
    with pytest.raises(IllegalMoveError) as exc:
        g.push("draw")                       # the starter discards without drawing
    assert exc.value.rule == "must-discard"
    t0 = tile_text(g.racks[0][0])
    g.push(f"discard {t0}")
    assert g.view(None)["piles"][0] == [t0] and g.view(None)["takeable"] == t0
    with pytest.raises(IllegalMoveError) as exc:
        g.push(f"discard {tile_text(g.racks[1][0])}")
    assert exc.value.rule == "must-draw"
    g.push("take")
    assert g.racks[1].count(_code(t0)) >= 1 and g.piles[0] == [] and g.taken[1] == [_code(t0)]
    g.push(f"discard {t0}")
    top = g.middle[-1]
    g.push("draw")
    assert g.racks[2][-1] == top and len(g.middle) == 47
    missing = next(t for t in range(52) if t not in g.racks[2])
    with pytest.raises(IllegalMoveError, match="not in the rack"):
        g.push(f"discard {tile_text(missing)}")


def test_the_empty_middle_ends_the_game_and_nobody_scores():
    g = OkeyGame.new(4, seed="empty-middle")
    while g.game_no == 0:
        seat = g.to_move
        if g.phase == "draw":
            g.push("draw" if g.middle and not g.last_chance else "take")
        else:
            # throw the highest tile that does not finish
            tile = max(g.racks[seat], key=sort_key)
            g.push(f"discard {tile_text(tile)}")
    r = g.results[0]
    assert r["winner"] is None and r["loss"] == 0 and g.points == [20] * 4
    assert g.to_move == 1 and len(g.racks[1]) == 15     # next game, next starter


def last_tile_position(last: str) -> OkeyGame:
    """Seat 1 to draw the middle's one tile ``last``; seat 2 holds a hand
    that wins with B13 (and K9 to throw); seat 1 holds B13."""
    waiting = T("R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 O5 K9")
    left = Counter(TILES)
    for t in waiting + ["B13", last, "K3"]:
        left[_code(t)] -= 1
    spare = [tile_text(t) for t in sorted(left.elements())]
    g = OkeyGame.new(4, seed="shape")
    state = g.snapshot()
    state["indicator"] = "K3"                                  # okey K4
    state["racks"] = [spare[0:14], ["B13"] + spare[14:27], waiting, spare[27:41]]
    state["middle"] = [last]
    state["piles"] = [[], [], [], spare[41:]]
    state.update(active=1, phase="draw", drawn=[True] * 4, turn=96)
    g = OkeyGame.from_snapshot(state)
    assert g.tile_count() == Counter(TILES)
    return g


def test_after_the_last_tile_the_next_player_may_only_take_it_to_win():
    g = last_tile_position("K11")
    g.push("draw")
    g.push("discard B13")                  # the middle is empty; seat 2 wins with B13
    assert g.last_chance and g.to_move == 2 and not g.results
    with pytest.raises(IllegalMoveError) as exc:
        g.push("draw")
    assert exc.value.rule == "middle-empty"
    g.push("take")
    g.push("finish K9")
    assert g.results[0]["winner"] == 2 and g.points == [18, 18, 20, 18]


def test_after_the_last_tile_a_discard_nobody_wins_with_ends_the_game():
    g = last_tile_position("K11")
    g.push("draw")
    g.push("discard K11")                  # seat 2 cannot win with K11: over, no score
    assert g.results[0]["winner"] is None and g.points == [20] * 4
    assert g.game_no == 1 and g.to_move == 1


def test_a_match_is_played_down_to_0_and_scored_by_the_points_kept():
    g = OkeyGame.new(4, {"start_points": 4}, deal=deal([WIN + " K9"], "K3"))
    finish(g, "K9")
    assert not g.is_over and g.points == [4, 2, 2, 2]
    # game 2 comes from the seed the typed deal derives; play it to its end
    from engine.okey.ai import LEVELS

    players = [LEVELS["greedy"](f"m{i}") for i in range(4)]
    while not g.is_over:
        g.push(players[g.to_move].choose(g))
    assert min(g.points) <= 0 and g.scores() == g.points
    assert g.winners == [s for s, p in enumerate(g.points) if p == max(g.points)]
    assert g.end_reason.startswith("a player reached 0")
    with pytest.raises(IllegalMoveError, match="over"):
        g.push("draw")
    # the record replays to the same match, tile for tile
    text = g.record(["Ayşe", "Burak", "Cem", "Deniz"])
    assert '[Family "okey"]' in text and "[Deal " in text
    again = replay_text(text)
    assert again.snapshot() == g.snapshot()


def test_views_hide_the_other_racks_and_the_middle():
    g = OkeyGame.new(4, seed="views")
    v = g.view(2)
    assert v["my_rack"] == [tile_text(t) for t in sorted(g.racks[2], key=sort_key)]
    assert v["rack_counts"] == [15, 14, 14, 14] and v["middle_count"] == 48
    text = repr(g.view(None))
    assert "my_rack" not in text and "middle'" not in text
    for s in (0, 1, 3):
        assert v["my_rack"] != [tile_text(t) for t in sorted(g.racks[s], key=sort_key)]
    assert "racks" not in v and "middle" not in v
    with pytest.raises(IllegalMoveError):
        g.view(4)
