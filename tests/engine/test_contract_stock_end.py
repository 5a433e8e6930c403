"""The contract rule that ends a hand nobody can finish: the hand ends,
nobody out, the ``stock_runs_out``-th time the stock runs out (the discards
became a new stock the times before), and every player counts the cards in
hand."""

from __future__ import annotations

import pytest

from engine.contract import ContractGame, ContractRules, InternationalGame, replay_record
from engine.contract.ai import play_game
from engine.errors import RuleOptionError

from .test_contract_rules import C, position, rule_of


def empty_stock(reshuffles, **options):
    """Seat 1 to draw from an empty stock, four cards in the discard pile,
    the stock having run out ``reshuffles`` times before this hand."""
    g = position(phase="draw", active=1, discard="4C 5C 6C 7S", stock="", **options)
    g.reshuffles = reshuffles
    return g


@pytest.mark.parametrize("profile", ["three-decks", "international"])
def test_both_profiles_end_a_hand_the_third_time_the_stock_runs_out(profile):
    rules = ContractRules.preset(profile)
    assert rules.stock_runs_out == 3
    assert [rules.reshuffle_allowed(done) for done in range(4)] == [True, True, False, False]


def test_the_first_and_second_run_out_reshuffle_the_third_ends_the_hand():
    for before in (0, 1):
        g = empty_stock(before)
        assert rule_of(g, "draw") == "ok"
        assert g.reshuffles == before + 1 and g.discards == C("7S") and len(g.stock) == 2
    g = empty_stock(2)
    out = g.push(g.parse_move("draw"))
    assert out.kind == "hand-over" and out.detail["winner"] is None
    res = g.results[0]
    assert res["winner"] is None
    # every player counts the cards in hand (nobody went out)
    assert res["points"] == [sum(map(g.rules.card_points, C(" ".join(cards))))
                             for cards in res["cards"]]
    assert all(p > 0 for p in res["points"])
    assert g.hand_no == 1 and g.reshuffles == 0      # the next hand starts afresh


def test_other_limits_and_never():
    g = empty_stock(0, stock_runs_out=1)                # no reshuffle at all
    assert g.push(g.parse_move("draw")).kind == "hand-over"
    g = empty_stock(0, stock_runs_out=2)
    assert rule_of(g, "draw") == "ok" and g.reshuffles == 1
    g = empty_stock(1, stock_runs_out=2)
    assert g.push(g.parse_move("draw")).kind == "hand-over"
    g = empty_stock(50, stock_runs_out=0)               # the rule off: reshuffle for ever
    assert rule_of(g, "draw") == "ok" and g.reshuffles == 51


def test_a_buy_at_the_last_run_out_gets_what_is_left_and_the_next_draw_ends_the_hand():
    g = position(phase="draw", active=1, discard="4C 5C 6C 7S", stock="8D")
    g.reshuffles = 2
    assert rule_of(g, "2 buy") == "ok" and rule_of(g, "allow") == "ok"
    assert g.hands[2][-2:] == C("7S 8D") and g.stock == []   # one extra card, not two
    assert g.push(g.parse_move("draw")).kind == "hand-over"


def test_the_option_round_trips_and_is_checked():
    for cls in (ContractGame, InternationalGame):
        rules = cls.rules_from_dict({"stock_runs_out": 2})
        assert cls.rules_to_dict(rules)["stock_runs_out"] == 2
        assert cls.rules_from_dict(cls.rules_to_dict(rules)) == rules
        assert cls.rules_from_dict({"profile": rules.profile, "stock_runs_out": 0}).stock_runs_out == 0
    for bad in (-1, 21, True, "2"):
        with pytest.raises(RuleOptionError, match="stock_runs_out"):
            ContractGame.rules_from_dict({"stock_runs_out": bad})


def test_records_name_the_option_only_when_it_differs_and_replay_it():
    game = InternationalGame.new(3, seed="stock-rule")
    assert "stock_runs_out" not in game.record()
    game = InternationalGame.new(3, {"stock_runs_out": 1}, seed="stock-rule")
    play_game(game)
    record = game.record()
    assert "stock_runs_out=1" in record
    again = replay_record(record)
    assert again.rules.stock_runs_out == 1 and again.results == game.results


def test_the_option_survives_a_snapshot_and_old_snapshots_take_the_default():
    g = empty_stock(1, stock_runs_out=2)
    snap = g.snapshot()
    assert ContractGame.from_snapshot(snap).rules.stock_runs_out == 2
    del snap["rules"]["stock_runs_out"]             # a snapshot stored before the option
    old = ContractGame.from_snapshot(snap)
    assert old.rules.stock_runs_out == 3 and old.reshuffles == 1


def test_every_view_says_how_often_the_stock_was_made_anew_and_the_limit():
    g = empty_stock(1, stock_runs_out=2)
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert (v["reshuffles"], v["stock_runs_out"]) == (1, 2)
    assert g.push(g.parse_move("draw")).kind == "hand-over"
    assert g.view(0)["reshuffles"] == 0
