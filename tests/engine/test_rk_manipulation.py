"""Every manipulation example of seed 001 (the boxed rules), and the ways to
clear a joker, under the default rules and the options that change them."""

import pytest

# --- seed 001, "Manipulation" -------------------------------------------------


def test_add_tiles_to_a_run_and_a_group(check):
    assert check(["[B4 B5 B6]", "[K8 R8 O8]"], "B3 B8 K5",
                 "play B3 B8 : [K8 R8 O8] [B4 B5 B6] -> [K8 R8 B8 O8] [B3 B4 B5 B6]") == "ok"


def test_take_the_fourth_tile_of_a_group(check):
    assert check(["[K4 R4 B4 O4]"], "B3 B5 B6 K9",
                 "play B3 B5 B6 : [K4 R4 B4 O4] -> [K4 R4 O4] [B3 B4 B5 B6]") == "ok"


def test_add_a_tile_to_free_another(check):
    assert check(["[B8 B9 B10]"], "R8 O8 B11 K1",
                 "play R8 O8 B11 : [B8 B9 B10] -> [R8 B8 O8] [B9 B10 B11]") == "ok"


def test_split_a_run(check):
    assert check(["[R3 R4 R5 R6 R7 R8]"], "R6 K1",
                 "play R6 : [R3 R4 R5 R6 R7 R8] -> [R3 R4 R5 R6] [R6 R7 R8]") == "ok"


def test_combined_split(check):
    assert check(["[O1 O2 O3 O4]", "[K1 R1 B1 O1]"], "B1 K9",
                 "play B1 : [K1 R1 B1 O1] [O1 O2 O3 O4] -> [K1 B1 O1] [R1 B1 O1] [O2 O3 O4]") == "ok"


def test_multiple_split(check):
    assert check(["[R8 R9 R10]", "[B6 B7 B8 B9 B10]", "[O8 O9 O10]"], "K10 B5 K1",
                 "play K10 B5 : [R8 R9 R10] [B6 B7 B8 B9 B10] [O8 O9 O10] -> "
                 "[R8 B8 O8] [R9 B9 O9] [K10 R10 B10 O10] [B5 B6 B7]") == "ok"


def test_a_manipulation_must_end_with_every_meld_valid(position):
    from engine.errors import IllegalMoveError
    g = position(["[R3 R4 R5 R6 R7 R8]"], "R6 K1")
    with pytest.raises(IllegalMoveError) as err:
        g.push("play R6 : [R3 R4 R5 R6 R7 R8] -> [R3 R4] [R5 R6 R6 R7 R8]")
    assert err.value.rule == "table-not-valid"
    assert str(err.value.penalty) == "penalty"
    assert g.table_text() == ["[R3 R4 R5 R6 R7 R8]"] and g.rack(0) == g.rack(0)
    # no recorded pool here: the penalty names the three tiles drawn
    out = g.push("penalty K5 K6 K7")
    assert out.kind == "penalty" and g.rack(0) == g.rack(0) and g.rack_sizes[0] == 2 + 3


def test_the_old_tiles_must_all_stay_on_the_table(position):
    from engine.errors import NotationError
    g = position(["[R3 R4 R5 R6]"], "R7 K1")
    with pytest.raises(NotationError):
        g.parse_move("play R7 : [R3 R4 R5 R6] -> [R4 R5 R6 R7]")


def test_at_least_one_tile_from_the_rack(check):
    assert check(["[R1 R2 R3 R4 R5 R6]"], "K1 K2",
                 "play : [R1 R2 R3 R4 R5 R6] -> [R1 R2 R3] [R4 R5 R6]") == "no-tile-from-rack"


def test_old_melds_must_be_on_the_table(check):
    assert check(["[R3 R4 R5]"], "R6 K1",
                 "play R6 : [R2 R3 R4 R5] -> [R2 R3 R4 R5 R6]") == "meld-not-on-table"


def test_tiles_must_be_on_the_rack(check):
    assert check(["[R3 R4 R5]"], "K1 K2", "play R6 : [R3 R4 R5] -> [R3 R4 R5 R6]") == "tiles-not-on-rack"


# --- seed 001, "4 ways to clear the joker" ------------------------------------

FREE = {}
KEEP = {"joker_sets": "keep-tile", "joker_freed_from": "rack"}
FROZEN = {"joker_sets": "frozen", "joker_freed_from": "rack"}


@pytest.mark.parametrize("colour", ["B7", "O7"])
@pytest.mark.parametrize("rules", [FREE, KEEP, FROZEN])
def test_way1_either_missing_colour_frees_a_group_joker(check, colour, rules):
    move = f"play R5 R6 {colour} : [K7 R7 J(7)] -> [K7 R7 {colour}] [R5 R6 J(R7)]"
    assert check(["[K7 R7 J(7)]"], f"{colour} R5 R6 K1", move, rules) == "ok"


@pytest.mark.parametrize("rules", [FREE, KEEP, FROZEN])
def test_way1_or_both_tiles(check, rules):
    assert check(["[K7 R7 J(7)]"], "B7 O7 R5 R6",
                 "play R5 R6 B7 O7 : [K7 R7 J(7)] -> [K7 R7 B7 O7] [R5 R6 J(R7)]", rules) == "ok"


def test_way2_split_the_run_and_clear_the_joker(check):
    table = ["[K3 K4 K5 J(K6) K7 K8]"]
    move = "play K6 R9 O9 : [K3 K4 K5 J(K6) K7 K8] -> [K3 K4 K5] [K6 K7 K8] [R9 O9 J(9)]"
    assert check(table, "K6 R9 O9", move, FREE) == "ok"
    assert check(table, "K6 R9 O9", move, KEEP) == "ok"
    assert check(table, "K6 R9 O9", move, FROZEN) == "joker-set-frozen"


def test_way3_add_a_tile_and_clear_the_joker(check):
    table = ["[B6 B7 J(B8)]"]
    move = "play K2 K3 B5 : [B6 B7 J(B8)] -> [K2 K3 J(K4)] [B5 B6 B7]"
    assert check(table, "B5 K2 K3", move, FREE) == "ok"
    # the joker stood for B8 and nobody supplied it
    assert check(table, "B5 K2 K3", move, KEEP) == "joker-not-replaced"
    assert check(table, "B5 K2 K3", move, FROZEN) == "joker-set-frozen"


def test_way4_split_the_run_into_the_groups(check):
    table = ["[K1 K2 J(K3)]", "[R1 B1 O1]", "[R2 B2 O2]"]
    move = ("play R5 R6 : [K1 K2 J(K3)] [R1 B1 O1] [R2 B2 O2] -> "
            "[K1 R1 B1 O1] [K2 R2 B2 O2] [R5 R6 J(R7)]")
    assert check(table, "R5 R6", move, FREE) == "ok"
    assert check(table, "R5 R6", move, KEEP) == "joker-not-replaced"


def test_retrieved_joker_needs_the_initial_meld(check):
    # before the initial meld nothing on the table may be touched (boxed rules)
    assert check(["[K7 R7 J(7)]"], "B7 R5 R6 R8 R9 R10",
                 "play R5 R6 B7 : [K7 R7 J(7)] -> [K7 R7 B7] [R5 R6 J(R7)]",
                 initial=False) == "initial-meld-from-rack-only"


def test_a_play_from_the_whole_new_table(position):
    g = position(["[K1 K2 K3]", "[B4 B5 B6]", "[K8 R8 O8]"], "B3 B8 K5")
    move = g.play_to_table(["[K1 K2 K3]", "[B3 B4 B5 B6]", "[K8 R8 B8 O8]"])
    assert str(move) == "play B3 B8 : [K8 R8 O8] [B4 B5 B6] -> [K8 R8 B8 O8] [B3 B4 B5 B6]"
    g.push(move)
    assert g.table_text() == ["[K1 K2 K3]", "[K8 R8 B8 O8]", "[B3 B4 B5 B6]"]
    from engine.errors import NotationError
    with pytest.raises(NotationError):
        g.play_to_table(["[K1 K2 K3]"])  # tiles would leave the table
