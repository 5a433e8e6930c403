"""American and International Rummikub (seed 001), rule by rule, on typed-in
deals: the deal and the trump, drawing and taking, laying (the initial meld,
additions, a 1 high or low, freed jokers), going out, the trump, the empty
stacks, International's Open, Foot and Closed wins, announcing and its
scoring; records, snapshots and hidden racks."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.american.closed import TYPES
from engine.american.deal import TILES
from engine.american.game import AmericanGame, InternationalGame
from engine.american.scoring import international_points, settle
from engine.errors import DealError, IllegalMoveError, RuleOptionError
from engine.records import replay_text
from engine.registry import find_variant
from engine.tiles import format_tile, parse_tile


def deal(hands: list[str], pool_top: str = "", trump: str | None = None, international: bool = False) -> dict:
    """A typed-in deal: the hands, the first tiles drawn, the trump
    (American), every other tile after them in a fixed order."""
    rest = Counter(TILES)
    held = [[parse_tile(t) for t in h.split()] for h in hands]
    top = [parse_tile(t) for t in pool_top.split()]
    for t in [x for h in held for x in h] + top + ([parse_tile(trump)] if trump else []):
        rest[t] -= 1
        assert rest[t] >= 0, format_tile(t)
    pool = top + sorted(rest.elements())
    d = {"hands": [[format_tile(t) for t in h] for h in held], "pool": [format_tile(t) for t in pool]}
    if not international:
        d["trump"] = trump
    return d


def refused(game, move: str, rule: str, words: str = ""):
    before = game.snapshot()
    with pytest.raises(IllegalMoveError) as info:
        game.push(move)
    assert info.value.rule == rule, (info.value.rule, str(info.value))
    assert words in str(info.value), str(info.value)
    assert game.snapshot() == before                    # nothing changed
    return info.value


def american(hands, pool_top="", trump="B13", **rules):
    return AmericanGame.new(len(hands), rules or None, deal=deal(list(hands), pool_top, trump))


def international(hands, pool_top="", **rules):
    return InternationalGame.new(len(hands), rules or None, deal=deal(list(hands), pool_top, international=True))


OTHER = "K1 K2 B9 B12 R5 R9 O4 O6 K8 B2 R11 O13 K11 B6"        # 99 points, no meld


def test_both_variants_are_registered_with_their_defaults():
    a, i = find_variant("american"), find_variant("international-rummikub")
    assert (a.family, i.family) == ("american", "american")
    assert a.rules_from_dict(None).initial_meld == 21 and i.rules_from_dict(None).initial_meld == 50
    assert find_variant("rummikub-international") is i and i.zero_sum is False and a.zero_sum is True


def test_the_deal_from_a_seed():
    g = AmericanGame.new(4, seed="deal")
    assert [len(r) for r in g.racks] == [14, 14, 14, 14] and len(g.pool) == 105 - 56
    assert g.trump is not None and g.phase == "draw" and sum(g.tile_count().values()) == 106
    i = InternationalGame.new(3, seed="deal", first=1)
    assert [len(r) for r in i.racks] == [14, 15, 14] and i.phase == "play" and i.to_move == 1
    assert i.trump == i.pool[-7] and i.trump_in_pool() and sum(i.tile_count().values()) == 106
    assert AmericanGame.new(4, seed="deal").snapshot() == g.snapshot()          # the seed decides


@pytest.mark.parametrize("bad, words", [
    ({"hands": [[], []], "pool": []}, "keys"),
    ({"hands": [["R1"] * 14, ["R1"] * 14], "pool": [], "trump": "R5"}, "the 106"),
    ({"hands": [["R1"] * 13, ["R1"] * 14], "pool": [], "trump": "R5"}, "seat 0 has 13 tiles"),
])
def test_a_typed_deal_is_checked(bad, words):
    with pytest.raises(DealError, match=words):
        AmericanGame.new(2, deal=bad)


def test_bad_players_and_rules_are_refused():
    with pytest.raises(DealError, match="2-4 players"):
        AmericanGame.new(5, seed="x")
    with pytest.raises(RuleOptionError, match="initial_meld"):
        AmericanGame.new(2, {"initial_meld": "many"}, seed="x")
    with pytest.raises(RuleOptionError, match="joker_reuse"):
        AmericanGame.new(2, {"joker_reuse": "nowhere"}, seed="x")


def test_take_only_the_discard_just_made_and_in_american_from_the_second_turn():
    g = american(["R1 R2 R3 K7 R7 B7 O9 O10 O11 K13 B4 O2 K5 J", OTHER], pool_top="O5 O7 O8 K9")
    refused(g, "take", "nothing-to-take")
    refused(g, "discard K13", "wrong-phase")
    g.push("draw")
    g.push("discard O5")
    refused(g, "take", "take-too-early", "second turn")      # seat 1's first turn
    g.push("draw")
    g.push("discard B12")
    g.push("take")                                         # seat 0's second turn: B12
    assert parse_tile("B12") in g.racks[0] and g.view(None)["piles"][1] is None
    intl = international(["R1 R2 R3 K7 R7 B7 O9 O10 O11 K13 B4 O2 K5 J K3", OTHER])
    intl.push("discard K3")
    intl.push("take")                                      # International: always
    assert parse_tile("K3") in intl.racks[1]


def test_the_initial_meld_then_additions_and_a_one_high_or_low():
    g = american(["R12 R13 R1 R2 R3 K7 R7 B7 O9 O10 O11 B4 O2 J", "O7 O8 B11 B12 B13 K6 R5 R9 O4 O6 K8 B2 R11 K11"],
                 pool_top="O5 K10 B3")
    g.push("draw")
    refused(g, "lay [R1 R2 R3]", "initial-meld-too-small", "needs 21 points from the rack; these melds are worth 6")
    refused(g, "lay [K7 R7 B7] add 1 R4", "no-such-meld")
    refused(g, "lay [R13 R1 R2] [K7 B7 O9]", "invalid-meld")               # 13-1-2 is no run
    refused(g, "lay [K7 R7 B7 O7]", "not-on-rack", "O7")
    g.push("lay [R12 R13 R1] [K7 R7 B7]")                                  # 12-13-1: the 1 high
    assert g.view(0)["table"][0]["meld"] == "[R1 R12 R13]" and g.melded[0]
    g.push("lay [R2 R3 J(R4)]")                                            # after it, any value
    g.push("discard O5")
    g.push("draw")
    refused(g, "lay add 2 O7", "initial-meld-first")                       # seat 1 has not melded
    g.push("lay [B11 B12 B13]")
    g.push("lay add 2 O7")                                                 # another player's meld
    assert g.view(None)["table"][1]["meld"] == "[K7 R7 B7 O7]"
    refused(g, "lay add 3 R6 R9", "invalid-meld")
    g.push("discard K10")
    assert [len(r) for r in g.racks] == [5, 10] and sum(g.tile_count().values()) == 106


def test_a_freed_joker_goes_into_a_new_meld_with_rack_tiles():
    g = american(["R1 R2 K7 R7 B7 O9 O10 O11 K13 B4 O2 K5 J B9", "R3 K6 K8 B11 B12 B13 O6 R5 R9 O4 K12 B2 R11 O13"],
                 pool_top="O5 K10 O8 B3")
    g.push("draw")
    g.push("lay [R1 R2 J(R3)] [K7 R7 B7]")
    g.push("discard O5")
    g.push("draw")
    refused(g, "lay free 1 R3 [K6 J(K7) K8]", "initial-meld-first")
    g.push("lay [B11 B12 B13]")
    refused(g, "lay free 2 R3 [K6 J(K7) K8]", "no-joker-to-free")
    refused(g, "lay free 1 R3", "joker-reuse", "must go into a new meld")
    refused(g, "lay free 1 R3 add 2 J(7)", "joker-reuse")
    g.push("lay free 1 R3 [K6 J(K7) K8]")
    table = [m["meld"] for m in g.view(None)["table"]]
    assert table == ["[R1 R2 R3]", "[K7 R7 B7]", "[B11 B12 B13]", "[K6 J(K7) K8]"]
    assert sum(g.tile_count().values()) == 106
    anywhere = american(["R1 R2 K7 R7 B7 O9 O10 O11 K13 B4 O2 K5 J B9",
                         "R3 K6 K8 B11 B12 B13 O6 R5 R9 O4 K12 B2 R11 O13"],
                        pool_top="O5 K10", joker_reuse="any")
    for move in ("draw", "lay [R1 R2 J(R3)] [K7 R7 B7]", "discard O5", "draw", "lay [B11 B12 B13]"):
        anywhere.push(move)
    anywhere.push("lay free 1 R3 add 2 J(7)")                     # the option lets it extend a meld
    assert anywhere.view(None)["table"][1]["meld"] == "[K7 R7 B7 J(7)]"


WINNER = "R1 R2 R3 R4 K7 R7 B7 O9 O10 O11 B4 B5 B6 K13"


def test_going_out_with_a_last_discard_and_american_scoring():
    g = american([WINNER, OTHER], pool_top="O2 O13 R5")
    g.push("draw")
    refused(g, "lay [R1 R2 R3 R4] [K7 R7 B7] [O9 O10 O11] [B4 B5 B6] [K13 J(K12) J(K11)]", "not-on-rack")
    g.push("lay [R1 R2 R3 R4] [K7 R7 B7] [O9 O10 O11] [B4 B5 B6]")
    assert g.racks[0] and sorted(g.view(0)["my_rack"]) == ["K13", "O2"]
    g.push("discard K13")
    g.push("draw")
    g.push("discard O13")
    g.push("draw")
    g.push("lay add 1 R5")
    out = g.push("discard O2")
    assert out.game_over and g.winners == [0]
    values = sum(t % 13 + 1 for t in g.racks[1])
    assert g.scores() == [values, -values] and g.win["kind"] == "melded all"


def test_the_american_trump_only_to_win_with_it_and_a_jokers_penalty():
    g = american([WINNER, "K1 K2 B9 B12 R5 R9 O4 O6 K8 B2 R11 J K11 B6"], pool_top="O2 O13", trump="B3",
                 joker_penalty=25)
    g.push("draw")
    g.push("lay [R1 R2 R3 R4] [K7 R7 B7] [O9 O10 O11] [B4 B5 B6]")
    g.push("discard O2")                          # K13 left
    g.push("draw")
    g.push("discard O13")
    refused(g, "trump discard K13", "trump-to-win", "does not go out")
    g.push("trump add 4 B3 discard K13")
    assert g.winners == [0] and g.win["kind"] == "trump"
    assert g.scores() == [111, -111]              # 86 in tiles and a joker at 25
    assert g.view(None)["trump"] is None


def test_when_the_stacks_run_out():
    g = american([WINNER, OTHER])
    while not g.is_over:
        g.push("draw")
        g.push(f"discard {format_tile(g.racks[g.to_move][-1])}")
    values = g.win["values"]
    low = min(values)
    assert g.win["kind"] == "pool empty" and g.scores()[values.index(low)] > 0 and sum(g.scores()) == 0
    i = international([WINNER + " O2", OTHER])
    i.push("discard O2")
    while not i.is_over:
        i.push("draw")
        i.push(f"discard {format_tile(i.racks[i.to_move][-1])}")
    assert i.scores() == [-100, -100] and i.winners == [] and i.win["kind"] == "no winner"


def test_an_open_win_with_announcing():
    g = international([WINNER + " O2", OTHER], pool_top="R9 K5 R10 O12")
    refused(g, "lay [R1 R2 R3 R4]", "initial-meld-too-small", "needs 50 points")
    g.push("lay [O9 O10 O11] [K7 R7 B7]")         # 51
    g.push("discard O2")
    g.push("draw")
    g.push("discard R9")
    g.push("draw")                                 # K5
    g.push("lay [R1 R2 R3 R4] [B4 B5 B6]")
    refused(g, "discard K5", "announce-first", "three or fewer")
    g.push("announce")
    g.push("discard K5")
    g.push("draw")
    g.push("discard R10")
    g.push("draw")                                 # O12
    g.push("lay add 1 O12")
    g.push("discard K13")
    assert g.win["kind"] == "open" and g.scores() == [200, -100]   # nobody else had melded: 200


def test_a_foot_lays_fourteen_at_once_with_additions():
    g = international([WINNER + " O2", "K1 K2 K3 R10 R11 R12 B9 B10 B11 K9 K10 K11 O8 O3"], pool_top="O12")
    g.push("lay [O9 O10 O11] [K7 R7 B7]")
    g.push("discard O2")
    g.push("draw")
    g.push("lay [K1 K2 K3] [R10 R11 R12] [B9 B10 B11] [K9 K10 K11] add 1 O8 O12")
    g.push("discard O3")
    left = sum(international_points(t, 30) for t in g.racks[0])
    assert g.win["kind"] == "foot" and g.scores() == [-left, 200] and left == 44


def test_a_closed_hand_declared_and_what_the_others_lose():
    pairs = "K1 K1 K2 K2 B8 B8 O5 O5 K5 K5 R6 R6 B12 B12"
    g = international([WINNER + " O2", pairs], pool_top="O9")
    g.push("discard O2")
    g.push("draw")
    g.push("closed O9")
    assert g.win["kind"] == "closed" and g.win["type"] == 35
    assert g.scores() == [-TYPES[35][1][0], TYPES[35][1][0]] == [-1700, 1700]   # not melded: the winner's score
    assert sum(g.tile_count().values()) == 106
    nothing = international([WINNER + " O2", OTHER], pool_top="O9")
    nothing.push("discard O2")
    nothing.push("draw")
    refused(nothing, "closed O9", "not-closed")
    refused(nothing, "closed R1", "not-on-rack")
    american_game = american([WINNER, OTHER], pool_top="O2")
    american_game.push("draw")
    refused(american_game, "closed O2", "no-closed")


def test_a_joker_as_the_winning_discard_doubles_every_score():
    g = international(["R1 R2 R3 R4 K7 R7 B7 O9 O10 O11 B4 B5 B6 K13 J", OTHER], pool_top="R9 K5 R10 O12")
    g.push("lay [O9 O10 O11] [K7 R7 B7]")
    g.push("discard K13")
    g.push("draw")
    g.push("discard R9")
    g.push("draw")
    g.push("lay [R1 R2 R3 R4] [B4 B5 B6]")        # K5 and the joker left
    g.push("announce")
    g.push("discard K5")
    g.push("draw")
    g.push("discard O13")
    g.push("draw")                                 # O12
    g.push("lay add 1 O12")
    g.push("discard J")
    assert g.win["kind"] == "open" and g.win["doubled"] and g.scores() == [400, -200]


def test_the_view_hides_other_racks_and_the_pool_until_the_end():
    g = american([WINNER, OTHER], pool_top="O2")
    v = g.view(1)
    assert v["my_rack"] == [format_tile(t) for t in sorted(parse_tile(t) for t in OTHER.split())]
    text = str(g.view(1)) + str(g.view(None))
    assert "racks" not in g.view(None)
    for tile in ("R4", "K13", "O10", "O2"):                 # seat 0's tiles and the next draw
        assert f"'{tile}'" not in text
    assert v["pool_count"] == len(g.pool) and "pool" not in v
    g.push("draw")
    g.push("lay [R1 R2 R3 R4] [K7 R7 B7] [O9 O10 O11] [B4 B5 B6]")
    g.push("discard K13")
    assert g.view(1)["piles"][0] == "K13" and "K13" not in g.view(1)["my_rack"]


def test_records_replay_and_snapshots_continue():
    g = international([WINNER + " O2", "K1 K2 K3 R10 R11 R12 B9 B10 B11 K9 K10 K11 O8 O3"], pool_top="O12")
    g.push("lay [O9 O10 O11] [K7 R7 B7]")
    half = InternationalGame.from_snapshot(g.snapshot())
    for game in (g, half):
        game.push("discard O2")
        game.push("draw")
        game.push("lay [K1 K2 K3] [R10 R11 R12] [B9 B10 B11] [K9 K10 K11] add 1 O8 O12")
        game.push("discard O3")
    assert half.scores() == g.scores()
    text = g.record(["Ada", "Ben"])
    assert '[Variant "international-rummikub"]' in text and "[Deal" in text
    again = replay_text(text)
    assert again.scores() == g.scores() and again.win["kind"] == "foot"


def test_the_session_settlement():
    assert settle([100, -50, 0]) == [250, -200, -50]
    assert sum(settle([1700, -1700, -40, 200])) == 0


def test_international_the_trump_cannot_be_the_final_draw_of_an_open_win():
    melder = "K9 K10 K11 R7 B7 O7 K7 B11 B12 B13 R1 R2 R3 K13"
    other = "K1 K2 B9 R5 R9 O4 O6 K8 B2 R11 O13 B6 B4 O10 O11"           # the starter's 15
    rest = Counter(TILES)
    for t in (melder + " " + other).split():
        rest[parse_tile(t)] -= 1
    pool = sorted(rest.elements())
    pool.remove(parse_tile("K12"))
    pool.insert(len(pool) - 6, parse_tile("K12"))                      # the top of the last stack
    g = InternationalGame.new(2, deal={"hands": [melder.split(), other.split()],
                                       "pool": [format_tile(t) for t in pool]}, first=1)
    assert format_tile(g.trump) == "K12" and g.view(0)["trump_in_pool"]
    g.push("discard O11")                                              # the starter
    g.push("draw")
    drawn = format_tile(g.racks[0][-1])
    g.push("lay [K9 K10 K11] [K7 R7 B7 O7] [B11 B12 B13] [R1 R2 R3]")
    g.push("announce")
    g.push(f"discard {drawn}")
    while g.pool[0] != parse_tile("K12") or g.to_move != 0:
        g.push("draw")
        g.push(f"discard {format_tile(g.racks[g.to_move][-1])}")
    g.push("draw")                                                     # seat 0 draws the trump
    assert not g.view(None)["trump_in_pool"] and g.racks[0] == [parse_tile("K13"), parse_tile("K12")]
    refused(g, "lay add 1 K12", "trump-final-draw", "cannot be the final draw")
    g.push("discard K12")                                              # and waits for another turn
    assert not g.is_over


def test_compose_writes_the_lay_a_laid_out_table_says():
    g = american(["R1 R2 K7 R7 B7 O9 O10 O11 K13 B4 O2 K5 J B9", "R3 K6 K8 B11 B12 B13 O6 R5 R9 O4 K12 B2 R11 O13"],
                 pool_top="O5 K10 O8 B3")
    g.push("draw")
    first = g.compose([["R1", "R2", "J"], ["K7", "R7", "B7"]])
    assert first["move"] == "lay [R1 R2 J(R3)] [K7 R7 B7]" and first["legal"] and first["laid_value"] == 27
    small = g.compose([["R1", "R2", "J"]])
    assert small["move"] == "lay [R1 R2 J(R3)]" and not small["legal"] and "needs 21" in small["refusal"]
    bad = g.compose([["R1", "K7", "O9"]])
    assert not bad["melds"][0]["valid"] and bad["move"] is None
    high = american(["R12 R13 R1 K7 R7 B7 O9 O10 O11 B4 O2 K5 B9 K13", OTHER], pool_top="O5")
    high.push("draw")
    assert high.compose([["R12", "R13", "R1"], ["K7", "R7", "B7"]])["move"] == "lay [R1 R12 R13] [K7 R7 B7]"
    for move in ("lay [R1 R2 J(R3)] [K7 R7 B7]", "discard O5", "draw", "lay [B11 B12 B13]"):
        g.push(move)
    freeing = g.compose([["R1", "R2", "R3"], ["K7", "R7", "B7"], ["B11", "B12", "B13"], ["K6", "J", "K8"]])
    assert freeing["move"] == "lay free 1 R3 [K6 J(K7) K8]" and freeing["legal"]
    before = g.snapshot()
    adding = g.compose([["R1", "R2", "J"], ["K7", "R7", "B7"], ["B11", "B12", "B13", "B10"]])
    assert adding["move"] == "lay add 3 B10" and not adding["legal"] and "not on the rack" in adding["refusal"]
    taking = g.compose([["R1", "R2", "J"], ["K7", "R7"], ["B11", "B12", "B13"]])
    assert not taking["melds"][1]["valid"] and taking["move"] is None       # tiles stay on the table
    assert g.snapshot() == before                                           # composing changes nothing
