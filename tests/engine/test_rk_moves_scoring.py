"""Move notation round trips, scoring (seed 001's sample table, the
pool-empty rule, ties), rounds, views and snapshots."""

import json

import pytest
from hypothesis import given, strategies as st

from engine.errors import DealError, IllegalMoveError, NotationError
from engine.registry import find_variant
from engine.rummikub import (Move, Round, RuleSet, SabraGame, SabraXPGame, ScoreError,
                             score_racks, score_values)
from engine.tiles import STANDARD, format_tiles, parse_tiles

# --- notation ------------------------------------------------------------------

CANONICAL = [
    "draw", "draw R7", "timeout", "timeout J", "penalty", "penalty K3 R7 J", "pass",
    "play R10 R11 R12 -> [R10 R11 R12]",
    "play B3 B8 : [K8 R8 O8] [B4 B5 B6] -> [K8 R8 B8 O8] [B3 B4 B5 B6]",
    "play R5 R6 B7 : [K7 R7 J(7)] -> [K7 R7 B7] [R5 R6 J(R7)]",
    "play : [R1 R2 R3 R4 R5 R6] -> [R1 R2 R3] [R4 R5 R6]",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_moves_round_trip(text):
    assert str(Move.parse(text)) == text
    assert eval(repr(Move.parse(text))) == Move.parse(text)


def test_non_canonical_input_reads_to_canonical():
    m = Move.parse("  play  B8 B3 :[B4 B5 B6] [O8 K8 R8] ->[B3 B4 B5 B6]  [K8 R8 B8 O8] ")
    assert str(m) == CANONICAL[8]
    # a meld on both sides is untouched and dropped
    m = Move.parse("play R4 : [K1 K2 K3] [R1 R2 R3] -> [K1 K2 K3] [R1 R2 R3 R4]")
    assert str(m) == "play R4 : [R1 R2 R3] -> [R1 R2 R3 R4]"


@pytest.mark.parametrize("bad, token", [
    ("fly", "fly"), ("draw X9", "X9"), ("play R1 R2 R3", None), ("play R1 -> [R1 R2 R3]", None),
    ("play R1 R2 R3 -> [R1 R2 R3", None), ("play J -> [R1 J R3]", "J"), ("draw R1 R2", "draw"),
    ("", ""), ("penalty K1 K2 K3 K4", "penalty"),
])
def test_bad_moves_raise_notation_errors(bad, token):
    with pytest.raises(NotationError) as err:
        Move.parse(bad)
    if token is not None:
        assert err.value.token == token


@st.composite
def plays(draw):
    g = SabraGame.new(2, seed=draw(st.text(min_size=1, max_size=8)))
    from engine.rummikub.ai.random_player import rack_melds
    melds = rack_melds(g.racks[0])
    if not melds:
        return Move("draw")
    chosen = draw(st.lists(st.sampled_from(melds), min_size=1, max_size=3))
    return Move.play([], chosen)


@given(plays())
def test_generated_moves_round_trip(move):
    assert Move.parse(str(move)) == move and str(Move.parse(str(move))) == str(move)


# --- scoring -----------------------------------------------------------------

def _rack_worth(value):
    """Tiles worth ``value`` points (13s, then the rest)."""
    out = []
    while value > 13:
        out.append("K13")
        value -= 13
    if value:
        out.append(f"R{value}")
    return out


def test_seed_001_sample_score_table():
    # Game 1: A goes out; B, C, D hold 5, 16, 3.  Game 2: C out.  Game 3: D out.
    sheets = [([0, 5, 16, 3], 0), ([6, 11, 0, 5], 2), ([32, 13, 2, 0], 3)]
    expected = [[24, -5, -16, -3], [-6, -11, 22, -5], [-32, -13, -2, 47]]
    rnd = Round(4, games=3)  # the sample shows three games
    for (values, winner), want in zip(sheets, expected):
        racks = [_rack_worth(v) for v in values]
        got = score_racks(racks, RuleSet(), winner=winner)
        assert got == want and sum(got) == 0
        rnd.record(got, [winner])
    assert rnd.totals() == [-14, -29, 4, 39]
    assert rnd.games_won() == [1, 0, 1, 1]
    # A, C and D won a game each: the highest score decides
    assert rnd.winner() == 3 and rnd.standings() == [3, 2, 0, 1]
    assert rnd.is_complete


def test_pool_empty_rule_lowest_rack_wins_the_differences():
    scores = score_racks([["R10"], ["K13", "R12"], ["J", "O10"]], winner=None)
    assert scores == [15 + 30, -15, -30] and sum(scores) == 0


def test_pool_empty_tie_for_lowest_shares_the_pot():
    scores, winners = score_values([10, 10, 25], None, tie_start=0)
    assert winners == [0, 1] and scores == [8, 7, -15]
    scores, _ = score_values([10, 10, 25], None, tie_start=1)
    assert scores == [7, 8, -15]
    scores, winners = score_values([4, 4], None)
    assert scores == [0, 0] and winners == [0, 1]


def test_score_sheet_errors():
    with pytest.raises(ScoreError):
        score_racks([["R1"], ["R2"]], winner=0)
    with pytest.raises(NotationError):
        score_racks([[], ["Q2"]], winner=0)


def test_round_rotates_the_first_player_and_checks_results():
    rnd = Round(3)
    assert [rnd.first_player(i) for i in range(3)] == [0, 1, 2]
    assert Round(3, direction="counterclockwise").first_player(1) == 2
    with pytest.raises(ScoreError):
        rnd.record([1, 1, 1], [0])
    for _ in range(3):
        rnd.record([2, -1, -1], [0])
    with pytest.raises(ScoreError):
        rnd.record([2, -1, -1], [0])
    assert rnd.winner() == 0


# --- game construction, views, snapshots --------------------------------------

def test_registry_finds_both_variants():
    assert find_variant("sabra") is SabraGame and find_variant("Rummikub") is SabraGame
    assert find_variant("xp") is SabraXPGame and find_variant("sabra-xp") is SabraXPGame
    g = SabraXPGame.new(6, seed="six")
    assert g.pool_count == 160 - 6 * 14
    with pytest.raises(DealError):
        SabraGame.new(5, seed="five")


@pytest.mark.parametrize("kw", [
    {}, {"seed": "a", "deal": {"racks": []}}, {"deal": {"racks": [["R1"] * 14, ["R2"] * 14]}},
    {"deal": {"racks": [["R1"], ["R2"]]}}, {"deal": {"racks": [["Z1"] * 14] * 2}},
    {"deal": {"hands": []}}, {"seed": ""},
])
def test_bad_deals_are_refused(kw):
    with pytest.raises(DealError):
        SabraGame.new(2, **kw)


def test_real_table_game_names_its_draws():
    tiles = STANDARD.tiles()
    racks = [tiles[:14], tiles[14:28]]
    g = SabraGame.new(2, deal={"racks": [[str(t) for t in r] for r in racks]})
    with pytest.raises(IllegalMoveError) as err:
        g.push("draw")
    assert err.value.rule == "draw-must-name-tile"
    with pytest.raises(IllegalMoveError) as err:
        g.push("draw K1")  # both K1 are on seat 0's rack
    assert err.value.rule == "tile-not-in-pool"
    g.push("draw O13")
    assert "O13" in [str(t) for t in g.rack(0)] and g.pool_count == 106 - 29


def test_seeded_draw_naming_a_tile_is_refused_alike_right_or_wrong():
    # A refusal that told a right guess from a wrong one would leak the
    # secret shuffle: both are refused with the same rule and message.
    g = SabraGame.new(2, seed="named")
    nxt = g.pool[g.pool_pos]
    wrong = next(t for t in range(52) if t != nxt)
    errors = []
    for tile in (wrong, nxt):
        with pytest.raises(IllegalMoveError) as info:
            g.push(Move("draw", [tile]))
        errors.append((info.value.rule, str(info.value)))
    assert errors[0] == errors[1] and errors[0][0] == "draw-names-tile"
    assert g.pool_pos == g.pool.index(nxt) and len(g.rack(0)) == 14
    g.push(Move("draw", []))
    assert nxt in g.rack(0)


def test_view_hides_other_racks_and_the_pool():
    g = SabraGame.new(3, seed="secret")
    v = g.view(1)
    text = json.dumps(v)
    assert v["rack"] == [str(t) for t in g.rack(1)]
    assert v["rack_counts"] == [14, 14, 14] and v["pool_count"] == 106 - 42
    assert "racks" not in v and "pool" not in v and "seed" not in text
    public = g.view(None)
    assert "rack" not in public
    with pytest.raises(DealError):
        g.view(3)


def test_view_reveals_everything_once_over():
    g = SabraGame.from_position(["K10 K11 K12", "R1 R2"], [], RuleSet(), initial_meld_done=False)
    g.push("play K10 K11 K12 -> [K10 K11 K12]")
    v = g.view(1)
    assert v["is_over"] and v["racks"] == [[], ["R1", "R2"]] and v["scores"] == [3, -3]


def test_snapshot_round_trip_mid_game():
    from engine.rummikub.ai.random_player import RandomPlayer
    g = SabraGame.new(3, seed="snap")
    p = RandomPlayer(5)
    for _ in range(30):
        g.push(p.choose(g))
    data = json.loads(json.dumps(g.snapshot()))
    h = SabraGame.from_snapshot(data)
    assert h.snapshot() == g.snapshot()
    while not g.is_over:
        mv = p.choose(g)
        g.push(mv)
        h.push(Move.parse(str(mv)))
    assert h.snapshot() == g.snapshot() and h.scores() == g.scores()


def test_pool_empties_then_a_rack_empties_is_a_normal_win():
    g = SabraGame.from_position(["R1 R2 J", "K10 K11 K12"], [], RuleSet(), initial_meld_done=False)
    g.pool_count = 0  # the pool is declared empty
    g.push("pass")
    assert not g.is_over and g.passes == 1
    g.push("play K10 K11 K12 -> [K10 K11 K12]")
    assert g.is_over and g.end_reason == "rack-empty" and g.winners == [1]
    assert g.scores() == [-33, 33]
