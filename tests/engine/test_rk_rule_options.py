"""Each rule option changes what the engine allows, as docs/rules/rummikub.md
says."""

import pytest

from engine.errors import IllegalMoveError, RuleOptionError
from engine.rummikub import (PRESETS, RULE_OPTIONS, RuleSet, SabraGame, rules_from_dict,
                             rules_to_dict, score_racks)

# --- joker_reuse: the four readings of "a freed joker must make a new set" ----

# seed 001, reading 3: a set of four 4's and a run B7 B8 J(B6); the player
# holds B6 B6 B3, puts one B6 for the joker and lays B3 B4 J(B5) B6, taking
# the B4 from the group.
READING3 = (["[K4 R4 B4 O4]", "[J(B6) B7 B8]"], "B3 B6 B6",
            "play B3 B6 B6 : [K4 R4 B4 O4] [J(B6) B7 B8] -> "
            "[K4 R4 O4] [B3 B4 J(B5) B6] [B6 B7 B8]")
# the joker joins an old meld (extends [K9 K10 K11])
TO_OLD_MELD = (["[R3 R4 J(R5)]", "[K9 K10 K11]"], "R5 O1",
               "play R5 : [K9 K10 K11] [R3 R4 J(R5)] -> [K9 K10 K11 J(K12)] [R3 R4 R5]")
# the joker makes a new meld, but of table tiles only
NEW_FROM_TABLE = (["[R3 R4 J(R5)]", "[K8 K9 K10 K11 K12]"], "R5 O1",
                  "play R5 : [K8 K9 K10 K11 K12] [R3 R4 J(R5)] -> [K8 K9 K10] [K11 K12 J(K13)] [R3 R4 R5]")
# the joker makes a new meld with two rack tiles only
NEW_FROM_RACK = (["[R3 R4 J(R5)]"], "R5 B2 B3",
                 "play R5 B2 B3 : [R3 R4 J(R5)] -> [R3 R4 R5] [B2 B3 J(B4)]")


@pytest.mark.parametrize("reading, case, expected", [
    ("any", TO_OLD_MELD, "ok"),
    ("new-meld", TO_OLD_MELD, "joker-reuse"),
    ("new-meld", NEW_FROM_TABLE, "ok"),
    ("new-meld-with-rack-tiles", NEW_FROM_TABLE, "joker-reuse"),
    ("new-meld-with-rack-tiles", READING3, "ok"),
    ("joker-and-rack-tiles-only", READING3, "joker-reuse"),
    ("joker-and-rack-tiles-only", NEW_FROM_RACK, "ok"),
    ("any", READING3, "ok"),
])
@pytest.mark.parametrize("sets", ["free", "keep-tile", "frozen"])
def test_joker_reuse_readings(check, reading, case, expected, sets):
    table, rack, move = case
    rules = {"joker_reuse": reading, "joker_sets": sets}
    assert check(table, rack, move, rules) == expected


# --- joker_sets ------------------------------------------------------------

def test_frozen_sets_may_be_added_to(check):
    for sets in ("free", "keep-tile", "frozen"):
        assert check(["[R3 R4 J(R5)]"], "R2 R6", "play R2 R6 : [R3 R4 J(R5)] -> [R2 R3 R4 J(R5) R6]",
                     {"joker_sets": sets}) == "ok"


def test_nothing_may_be_taken_from_a_frozen_set(check):
    table, rack = ["[R3 R4 J(R5) R6]"], "K3 B3"
    move = "play K3 B3 : [R3 R4 J(R5) R6] -> [K3 R3 B3] [R4 J(R5) R6]"
    assert check(table, rack, move, {"joker_sets": "free"}) == "ok"
    assert check(table, rack, move, {"joker_sets": "keep-tile"}) == "ok"
    assert check(table, rack, move, {"joker_sets": "frozen"}) == "joker-set-frozen"


def test_keep_tile_lets_a_joker_move_only_as_the_same_tile(check):
    table, rack = ["[R1 R2 R3 J(R4) R5 R6]"], "K1 B1"
    keeps = "play K1 B1 : [R1 R2 R3 J(R4) R5 R6] -> [K1 R1 B1] [R2 R3 J(R4) R5 R6]"
    assert check(table, rack, keeps, {"joker_sets": "keep-tile"}) == "ok"
    assert check(table, rack, keeps, {"joker_sets": "frozen"}) == "joker-set-frozen"
    # the joker turns into R7 at the other end without R4 being supplied
    table, rack = ["[R3 R4 J(R5)]"], "R2 K9"
    moved = "play R2 : [R3 R4 J(R5)] -> [R2 R3 R4 J(R5)]"
    assert check(table, rack, moved, {"joker_sets": "keep-tile"}) == "ok"
    changed = "play R2 : [R3 R4 J(R5)] -> [J(R1) R2 R3 R4]"
    assert check(table, rack, changed, {"joker_sets": "keep-tile", "joker_reuse": "any"}) == \
        "joker-not-replaced"
    assert check(table, rack, changed, {"joker_sets": "free", "joker_reuse": "any"}) == "ok"
    assert check(table, rack, changed, {"joker_sets": "frozen", "joker_reuse": "any"}) == \
        "joker-set-frozen"


# --- joker_freed_from ------------------------------------------------------

def test_freeing_tile_from_the_table_or_the_rack_only(check):
    table = ["[R3 R4 J(R5)]", "[R5 R6 R7 R8]"]
    move = "play K9 K10 : [R3 R4 J(R5)] [R5 R6 R7 R8] -> [K9 K10 J(K11)] [R3 R4 R5] [R6 R7 R8]"
    for sets in ("keep-tile", "frozen"):
        assert check(table, "K9 K10", move, {"joker_sets": sets,
                                             "joker_freed_from": "rack-or-table"}) == "ok"
        got = check(table, "K9 K10", move, {"joker_sets": sets, "joker_freed_from": "rack"})
        assert got == "joker-not-replaced"


# --- joker_group_both_colours -------------------------------------------------

@pytest.mark.parametrize("sets", ["keep-tile", "frozen"])
def test_both_missing_colours_to_free_a_group_joker(check, sets):
    table = ["[K7 R7 J(7)]"]
    one = "play R5 R6 B7 : [K7 R7 J(7)] -> [K7 R7 B7] [R5 R6 J(R7)]"
    both = "play R5 R6 B7 O7 : [K7 R7 J(7)] -> [K7 R7 B7 O7] [R5 R6 J(R7)]"
    rules = {"joker_sets": sets, "joker_group_both_colours": True, "joker_freed_from": "rack"}
    assert check(table, "B7 O7 R5 R6", one, rules) != "ok"
    assert check(table, "B7 O7 R5 R6", both, rules) == "ok"
    rules["joker_group_both_colours"] = False
    assert check(table, "B7 O7 R5 R6", one, rules) == "ok"


# --- initial meld ------------------------------------------------------------

def test_initial_meld_threshold_30_or_50(check):
    move = "play K10 K11 K12 -> [K10 K11 K12]"  # 33 points
    assert check([], "K10 K11 K12", move, initial=False) == "ok"
    assert check([], "K10 K11 K12", move, {"initial_meld": 50}, initial=False) == \
        "initial-meld-below-threshold"
    assert check([], "K1 K2 K3", "play K1 K2 K3 -> [K1 K2 K3]", initial=False) == \
        "initial-meld-below-threshold"


def test_a_joker_in_the_initial_meld_counts_as_its_tile(check):
    assert check([], "K10 K12 J", "play K10 K12 J -> [K10 J(K11) K12]", initial=False) == "ok"
    assert check([], "K2 K4 J", "play K2 K4 J -> [K2 J(K3) K4]", initial=False) == \
        "initial-meld-below-threshold"


def test_manipulation_on_the_initial_meld_turn(check):
    table = ["[R3 R4 R5]"]
    rack = "K10 K11 K12 R6"
    move = "play K10 K11 K12 R6 : [R3 R4 R5] -> [K10 K11 K12] [R3 R4 R5 R6]"
    assert check(table, rack, move, initial=False) == "initial-meld-from-rack-only"
    assert check(table, rack, move, {"manipulate_on_initial_turn": True}, initial=False) == "ok"
    # the 30 points must still come from melds of rack tiles alone
    small = "play R6 : [R3 R4 R5] -> [R3 R4 R5 R6]"
    assert check(table, rack, small, {"manipulate_on_initial_turn": True}, initial=False) == \
        "initial-meld-below-threshold"


# --- direction, time limit, pool-empty end, rack size ----------------------------

def test_turn_direction():
    g = SabraGame.new(4, seed="dir")
    g.push("draw")
    assert g.to_move == 1
    g = SabraGame.new(4, {"direction": "counterclockwise"}, seed="dir")
    g.push("draw")
    assert g.to_move == 3


def test_timeout_draws_one_tile_only_with_a_time_limit():
    g = SabraGame.new(2, seed="t")
    out = g.push("timeout")
    assert out.kind == "timeout" and g.rack_sizes[0] == 15
    g = SabraGame.new(2, {"turn_time_limit": 0}, seed="t")
    with pytest.raises(IllegalMoveError) as err:
        g.push("timeout")
    assert err.value.rule == "no-time-limit"


def _empty_pool_game(rules):
    # the pool is declared empty (the other tiles play no part here)
    g = SabraGame.from_position(["K1 K2 K3 K5", "R1 R2 R9 R9"], [], rules,
                                initial_meld_done=False)
    g.pool_count = 0  # every other tile is imagined off the game
    return g


def test_pool_empty_end_all_pass_or_first_pass():
    g = _empty_pool_game(RuleSet())
    g.push("pass")
    assert not g.is_over
    g.push("pass")
    assert g.is_over and g.end_reason == "pool-empty"
    g = _empty_pool_game(RuleSet(pool_empty_end="first-pass"))
    g.push("pass")
    assert g.is_over


def test_pass_only_when_the_pool_is_empty_and_draw_only_when_not():
    g = SabraGame.new(2, seed="p")
    with pytest.raises(IllegalMoveError) as err:
        g.push("pass")
    assert err.value.rule == "pool-not-empty"
    g = _empty_pool_game(RuleSet())
    with pytest.raises(IllegalMoveError) as err:
        g.push("draw")
    assert err.value.rule == "pool-empty"


def test_rack_size():
    g = SabraGame.new(3, {"rack_size": 10}, seed="r")
    assert g.rack_sizes == [10, 10, 10] and g.pool_count == 106 - 30


def test_joker_penalty_30_or_25():
    racks = [[], ["J", "R5"]]
    assert score_racks(racks, RuleSet(), winner=0) == [35, -35]
    assert score_racks(racks, RuleSet(joker_penalty=25), winner=0) == [30, -30]


# --- the rule set value -----------------------------------------------------

def test_rule_set_is_frozen_and_round_trips():
    r = RuleSet()
    with pytest.raises(Exception):
        r.initial_meld = 50
    for name, preset in PRESETS.items():
        assert rules_from_dict(rules_to_dict(preset)) == preset
        assert rules_from_dict({"preset": name}) == preset
    assert set(rules_to_dict(r)) == set(RULE_OPTIONS)


@pytest.mark.parametrize("bad", [{"initial_meld": -1}, {"joker_reuse": "sometimes"},
                                 {"no_such_option": 1}, {"direction": "up"},
                                 {"joker_group_both_colours": "maybe"}, {"preset": "nope"},
                                 {"joker_sets": "melted"}, {"rack_size": 0}])
def test_bad_rule_options_are_named(bad):
    with pytest.raises(RuleOptionError) as err:
        rules_from_dict(bad)
    key = next(iter(bad))
    assert key in str(err.value) or str(bad[key]) in str(err.value)


def test_text_values_as_records_hold_them():
    r = rules_from_dict({"initial_meld": "50", "manipulate_on_initial_turn": "true"})
    assert r.initial_meld == 50 and r.manipulate_on_initial_turn is True
