"""The solver with the table as laid out: joker rule options, fewest moves,
and answers the game itself accepts."""

from __future__ import annotations

import pytest

from engine.melds import meld_kind, parse_melds
from engine.rummikub import SabraGame, rules_from_dict
from engine.solver import SolverError, divide, solve
from engine.solver.positions import random_position
from engine.tiles import JOKER, counts_of, format_tiles

JOKER_TABLE = "[R5 J(R6) R7] [K9 B9 O9]"


def _tiles(melds):
    return [s if s < 52 else JOKER for m in melds for s in m]


def test_free_reading_moves_a_joker_frozen_and_keep_tile_do_not():
    old = parse_melds(JOKER_TABLE)
    table = _tiles(old)
    free = solve(table, "R6", table_melds=old, rules={"joker_sets": "free", "joker_reuse": "any"})
    assert free.tiles_placed == 1  # R6 frees the joker, which joins the nines
    frozen = solve(table, "R6", table_melds=old, rules={"joker_sets": "frozen"})
    assert frozen.tiles_placed == 0
    keep = solve(table, "R6", table_melds=old, rules={"joker_sets": "keep-tile",
                                                       "joker_reuse": "any"})
    assert keep.tiles_placed == 0
    # adding to a meld with a joker is still allowed where the meld stays
    keep = solve(table, "R8 K10", table_melds=old, rules={"joker_sets": "keep-tile"})
    assert keep.tiles_placed == 1 and [str(t) for t in keep.play] == ["R8"]


def test_joker_options_need_the_laid_out_table():
    with pytest.raises(SolverError, match="table_melds"):
        solve("R5 J R7", "R6", rules={"joker_sets": "frozen"})
    with pytest.raises(SolverError, match="table_melds"):
        solve("R1 R2 R3", "R4", fewest_moves=True)
    with pytest.raises(SolverError, match="exactly the table"):
        solve("R1 R2 R3", "R4", table_melds=[["R1", "R2", "R3", "R4"]])
    with pytest.raises(SolverError, match="not a valid meld"):
        solve("R1 R2 R4", "", table_melds=[["R1", "R2", "R4"]])


def test_fewest_moves_keeps_old_melds():
    old = parse_melds("[R1 R2 R3] [K7 B7 O7] [R5 R6 R7 R8 R9]")
    table = _tiles(old)
    for play, moved in (("R4", 0), ("R7", 0), ("K1 K2 K3", 0), ("R7 K10 R10", 0)):
        s = solve(table, play, table_melds=old, fewest_moves=True)
        assert s.moved == moved, play
        assert all(meld_kind(m) for m in s.melds)
    # a split has to move some tiles
    s = solve("R5 R6 R7 R8 R9", "R7", table_melds=parse_melds("[R5 R6 R7 R8 R9]"),
              fewest_moves=True)
    assert s.tiles_placed == 1 and s.moved > 0


def test_keep_tile_with_the_kept_tile_on_the_rack_lays_out():
    """A joker keeping R11 beside a table R11, and another R11 on the rack:
    three R11s in the layout (one of them the joker), a legal move under
    the default rules (jokers keep their tiles: ``joker_reuse=new-meld``)."""
    table = ["K3 B3 O3", "K5 B5 O5", "K7 R7 O7", "K9 K10 K11", "K10 R10 B10", "R3 R4 R5",
             "R10 J(R11) R12", "R11 R12 R13", "B5 B6 B7", "O1 O2 O3 O4 O5 O6", "O10 O11 O12"]
    rack = "K1 K3 K7 K12 K12 K13 R1 R2 R6 R11 B2 B8 B9 B11 O4 J"
    old = [m.split() for m in table]
    flat = ["J" if t.startswith("J") else t for m in old for t in m]
    game = SabraGame.from_position([rack, "K2 K4"], [f"[{m}]" for m in table])
    for fewest in (False, True):
        sol = solve(flat, rack, rules=game.rules, table_melds=old, fewest_moves=fewest)
        assert sol.tiles_placed > 0 and all(meld_kind(m) for m in sol.melds)
        assert game.legal(game.play_to_table(sol.melds)), [format_tiles(_tiles([m])) for m in sol.melds]


RULE_VARIANTS = [
    {"joker_sets": "frozen"},
    {"joker_sets": "keep-tile", "joker_reuse": "any"},
    {"joker_sets": "free", "joker_reuse": "new-meld"},
    {"joker_sets": "free", "joker_reuse": "joker-and-rack-tiles-only"},
]


@pytest.mark.parametrize("rules", RULE_VARIANTS)
def test_answers_are_legal_plays_under_the_rules(rules):
    """Seeded positions with jokers on the table: the solver's arrangement,
    turned into a move, is one the game accepts under those rules."""
    played = 0
    for i in range(60):
        table, rack = random_position(f"rules-{i}", table_size=8 + i % 40, rack_size=10,
                                      joker_rate=0.6)
        if JOKER not in table:
            continue
        layout = divide(table)
        sol = solve(table, rack, rules=rules, table_melds=layout)
        if not sol.tiles_placed:
            continue
        used = counts_of(table + rack)
        other = format_tiles([t for t in range(52) if used[t] < 2][:3])
        game = SabraGame.from_position([format_tiles(rack), other], layout,
                                       rules_from_dict(rules))
        move = game.play_to_table(sol.melds)
        assert game.legal(move), (str(move), rules)
        played += 1
    assert played >= 10
