"""Post-game analysis of Rummikub (engine/rummikub/analysis.py) on typed-in
deals whose mistakes are known: each mark and each reason, the figures,
the chart's series, determinism, the JSON round trip, and the shared core
(engine/analysis.py): a game not over is refused, the registry finds each
family's analyser."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.analysis import AnalysisError, GameAnalysis, solver_version
from engine.records import write_game
from engine.registry import analyser_for
from engine.rummikub import SabraGame
from engine.rummikub.analysis import analyse
from engine.tiles import STANDARD, format_tile, parse_tiles


def deal(racks: list[str], pool_top: str = "") -> dict:
    """The racks given, the pool drawn from ``pool_top`` first, then every
    other tile of the set in a fixed order."""
    rest = Counter(int(t) for t in STANDARD.tiles())
    top = [int(t) for t in parse_tiles(pool_top)]
    for t in [int(x) for r in racks for x in parse_tiles(r)] + top:
        rest[t] -= 1
        assert rest[t] >= 0, format_tile(t)
    return {"racks": [r.split() for r in racks],
            "pool": [format_tile(t) for t in top + sorted(rest.elements())]}


def play(racks, pool_top, moves, **rules) -> SabraGame:
    g = SabraGame.new(len(racks), {"rack_size": 6, **rules}, deal=deal(racks, pool_top))
    for m in moves:
        g.push(m)
    return g


# seat 0 opens short of its best, draws while R9 fits, draws while it could
# go out, then goes out; seat 1 can do nothing but draw
MISTAKES = play(
    ["R9 R10 R11 R12 K7 O7", "K1 K2 K9 O4 O8 B13"], "O1 B7 O2 R13 O3",
    ["play R10 R11 R12 -> [R10 R11 R12]",            # 1: R9 left behind
     "draw", "draw",                                   # 2, 3: R9 fitted
     "draw", "draw",                                   # 4, 5 (B7): all fitted
     "draw",
     "play B7 K7 O7 R9 R13 : [R10 R11 R12] -> [R9 R10 R11 R12 R13] [K7 B7 O7]"])


def by_turn(a: GameAnalysis) -> dict[int, object]:
    return {t.turn: t for t in a.turns}


def test_each_mark_and_reason_on_a_game_with_known_mistakes():
    a = analyse(MISTAKES)
    t = by_turn(a)
    assert (t[1].mark, [r.code for r in t[1].reasons]) == ("inaccuracy", ["fewer-tiles"])
    assert t[1].figures["left_behind"] == 1 and t[1].figures["left_behind_value"] == 9
    assert (t[1].placed, t[1].possible) == (3, 4)
    assert "R9" in t[1].best and t[1].best.startswith("play ")
    assert (t[3].mark, [r.code for r in t[3].reasons]) == ("inaccuracy", ["drew-while-play-existed"])
    assert (t[5].mark, [r.code for r in t[5].reasons]) == ("miss", ["could-go-out"])
    assert "B7" in t[5].best and t[5].figures["tiles_before"] == 4
    assert t[7].mark == "best" and t[7].best is None and t[7].figures["tiles_left"] == 0
    assert all(t[k].mark == "best" for k in (2, 4, 6))           # seat 1 could not open
    assert [tj.turn for tj in a.mistakes()] == [1, 3, 5]
    s0, s1 = a.summary()
    assert (s0["misses"], s0["inaccuracies"], s0["placed"], s0["possible"]) == (1, 2, 8, 4 + 1 + 4 + 5)
    assert s0["accuracy"] == round(8 / 14, 4) and s1["accuracy"] == 1.0 and s1["misses"] == 0


def test_a_best_play_found_is_legal_where_the_turn_was_played():
    game = SabraGame.new(2, {"rack_size": 6}, deal=deal(["R9 R10 R11 R12 K7 O7", "K1 K2 K9 O4 O8 B13"],
                                                        "O1 B7 O2 R13 O3"))
    best = by_turn(analyse(MISTAKES))[1].best
    assert game.legal(game.parse_move(best))


def test_could_open_is_a_miss_and_going_out_at_once_is_best():
    g = play(["R10 R11 R12 K1 K5 B7", "K10 B10 O10 K11 B11 O11"], "",
             ["draw", "play K10 B10 O10 K11 B11 O11 -> [K10 B10 O10] [K11 B11 O11]"])
    t = by_turn(analyse(g))
    assert (t[1].mark, [r.code for r in t[1].reasons]) == ("miss", ["could-open"])
    assert "33" in t[1].reasons[0].text and t[1].best == "play R10 R11 R12 -> [R10 R11 R12]"
    assert t[2].mark == "best" and (t[2].placed, t[2].possible) == (6, 6)


def test_the_initial_meld_threshold_of_the_rules_is_used():
    # 33 points do not open at 50: drawing is then the best there was
    g = play(["R10 R11 R12 K1 K5 B7", "K10 B10 O10 K11 B11 O11"], "",
             ["draw", "play K10 B10 O10 K11 B11 O11 -> [K10 B10 O10] [K11 B11 O11]"],
             initial_meld=50)
    t = by_turn(analyse(g))
    assert t[1].mark == "best" and t[1].possible == 0


def test_the_chart_series_is_tiles_left_after_each_turn():
    a = analyse(MISTAKES)
    assert a.series_kind == "tiles_left"
    assert a.series[0] == ((1, 3), (3, 4), (5, 5), (7, 0))
    assert a.series[1] == ((2, 7), (4, 8), (6, 9))


def test_analysis_is_deterministic_and_round_trips_json():
    a = analyse(MISTAKES)
    again = analyse(write_game(MISTAKES))                 # from the record's text
    assert a == again and a.to_json() == again.to_json()
    back = GameAnalysis.from_dict(json.loads(a.to_json()))
    assert back == a and back.summary() == a.summary()
    assert a.solver_version == solver_version() and "analysis" in a.engine_version


def test_a_reason_keeps_the_values_it_names_and_an_older_one_reads_without():
    a = analyse(MISTAKES)
    t = by_turn(a)
    assert [(r.code, r.params) for r in t[1].reasons] == [
        ("fewer-tiles", {"tiles": 3, "best": 4, "left_tiles": 1, "left_value": 9})]
    assert t[1].reasons[0].text == "placed 3 tiles where 4 fitted: 1 tile worth 9 left behind"
    assert [r.params["did"] for r in t[3].reasons] == ["draw"] and t[3].reasons[0].text.startswith("drew ")
    assert t[5].reasons[0].params["move"] == t[5].best
    stored = json.loads(a.to_json())
    assert [r["params"] for r in stored["turns"][0]["reasons"]] == [t[1].reasons[0].params]
    for turn in stored["turns"]:                 # an analysis stored before reasons had params
        for r in turn["reasons"]:
            del r["params"]
    old = GameAnalysis.from_dict(stored)
    assert [(r.code, r.text, r.mark, r.params) for r in old.turns[0].reasons] == \
        [("fewer-tiles", t[1].reasons[0].text, "inaccuracy", {})]


def test_a_game_not_over_is_refused():
    g = SabraGame.new(2, seed="club-night-1")
    g.push("draw")
    with pytest.raises(AnalysisError, match="not over"):
        analyse(g)
    text = write_game(g)
    with pytest.raises(AnalysisError, match="not over"):
        analyse(text)


def test_a_record_that_does_not_replay_is_refused():
    text = write_game(MISTAKES).replace("play R10 R11 R12 -> [R10 R11 R12]", "play R10 R11 -> [R10 R11]")
    with pytest.raises(AnalysisError):
        analyse(text)


def test_the_registry_finds_each_familys_analyser():
    from engine.american.analysis import analyse as american
    from engine.contract.analysis import analyse as contract
    from engine.okey.analysis import analyse as okey

    assert analyser_for("sabra") is analyse and analyser_for("xp") is analyse
    assert analyser_for("american") is american and analyser_for("international-rummikub") is american
    assert analyser_for("contract") is contract and analyser_for("okey") is okey
    with pytest.raises(ValueError, match="unknown variant"):
        analyser_for("chess")


def test_an_xp_game_from_self_play_is_analysed():
    from engine.rummikub import SabraXPGame
    from engine.rummikub.ai.levels import player

    g = SabraXPGame.new(3, seed="xp-analysis")
    players = [player("greedy", seed=f"xp/{i}") for i in range(3)]
    while not g.is_over:
        g.push(players[g.to_move].choose(g))
    a = analyse(g)
    assert a.variant == "sabra-xp" and len(a.turns) == len(g.move_stack)
    # greedy lays the solver's largest play: never fewer tiles than the best
    assert not any(r.code == "fewer-tiles" for t in a.turns for r in t.reasons)


def test_a_position_the_solver_cannot_lay_out_is_still_judged():
    # default rules: jokers keep their tiles (joker_reuse=new-meld); the
    # layout holds R11 three times (the rack's, the table's and the one the
    # joker keeps), once the solver refused it
    from engine.rummikub.analysis import judge_move
    from engine.rummikub.moves import Move

    table = ["K3 B3 O3", "K5 B5 O5", "K7 R7 O7", "K9 K10 K11", "K10 R10 B10", "R3 R4 R5",
             "R10 J(R11) R12", "R11 R12 R13", "B5 B6 B7", "O1 O2 O3 O4 O5 O6", "O10 O11 O12"]
    g = SabraGame.from_position(["K1 K3 K7 K12 K12 K13 R1 R2 R6 R11 B2 B8 B9 B11 O4 J", "K2 K4"],
                                [f"[{m}]" for m in table])
    seat, best, reasons, made, possible, figures = judge_move(g, 1, Move("draw"))
    assert seat == 0 and made == 0 and possible > 0
    assert [r.code for r in reasons] == ["drew-while-play-existed"] and g.legal(g.parse_move(best))


def test_as_many_tiles_for_fewer_points_is_less_value():
    # one joker: K1 B1 J or K13 B13 J, not both; the same tiles, 24 points less
    g = SabraGame.new(2, {"rack_size": 5, "initial_meld": 0},
                      deal=deal(["K1 B1 J K13 B13", "R9 R10 R11 R12 R13"]))
    g.push("play K1 B1 J -> [K1 B1 J(1)]")
    g.push("play R9 R10 R11 R12 R13 -> [R9 R10 R11 R12 R13]")
    t = by_turn(analyse(g))
    assert (t[1].mark, [r.code for r in t[1].reasons]) == ("inaccuracy", ["less-value"])
    assert (t[1].figures["placed_value"], t[1].figures["best_value"]) == (32, 56)
    assert "K13" in t[1].best and (t[1].placed, t[1].possible) == (3, 3)
