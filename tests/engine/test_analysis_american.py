"""Post-game analysis of American and International Rummikub
(engine/american/analysis.py) on typed-in deals whose mistakes are known:
the held-back trump, fewer tiles laid, a missed going out, a missed initial
meld, a missed closed hand, and turns that were the best there was."""

from __future__ import annotations

import json
from collections import Counter

from engine.american.analysis import analyse
from engine.american.deal import TILES
from engine.american.game import AmericanGame, InternationalGame
from engine.analysis import GameAnalysis
from engine.tiles import format_tile, parse_tile

WINNER = "R1 R2 R3 R4 K7 R7 B7 O9 O10 O11 B4 B5 B6 K13"
OTHER = "K1 K2 B9 B12 R5 R9 O4 O6 K8 B2 R11 O13 K11 B6"        # 99 points, no meld
PAIRS = "K1 K1 K2 K2 B8 B8 O5 O5 K5 K5 R6 R6 B12 B12"


def deal(hands: list[str], pool_top: str = "", trump: str | None = None, international: bool = False) -> dict:
    rest = Counter(TILES)
    held = [[parse_tile(t) for t in h.split()] for h in hands]
    top = [parse_tile(t) for t in pool_top.split()]
    for t in [x for h in held for x in h] + top + ([parse_tile(trump)] if trump else []):
        rest[t] -= 1
        assert rest[t] >= 0, format_tile(t)
    d = {"hands": [[format_tile(t) for t in h] for h in held],
         "pool": [format_tile(t) for t in top + sorted(rest.elements())]}
    if not international:
        d["trump"] = trump
    return d


def played(game, moves):
    for m in moves:
        game.push(m)
    assert game.is_over
    return {t.turn: t for t in analyse(game).turns}


def codes(t):
    return [r.code for r in t.reasons]


def test_the_trump_held_back_is_a_miss():
    g = AmericanGame.new(2, deal=deal([WINNER, OTHER], "O2 O12 K3 O3", "B3"))
    t = played(g, ["draw", "lay [R1 R2 R3 R4] [K7 R7 B7] [O9 O10 O11] [B4 B5 B6]", "discard O2",
                   "draw", "discard O12",
                   "draw", "discard K3",                   # 6: B3 and K13 went out
                   "draw", "discard O3",
                   "trump add 4 B3 discard K13"])
    assert sorted(t) == [1, 4, 6, 8, 10]
    assert (t[1].mark, t[1].moves, t[1].placed, t[1].possible) == ("best", 3, 13, 13)
    assert (t[6].mark, codes(t[6])) == ("miss", ["held-back-trump"])
    assert t[6].best == "trump add 4 B3 discard K13"
    assert t[4].mark == t[8].mark == "best"
    assert t[10].mark == "best" and t[10].figures["tiles_left"] == 0


def test_fewer_tiles_laid_and_a_going_out_missed():
    g = AmericanGame.new(2, deal=deal([WINNER, OTHER], "O2 O13 R5 O12 B7", "B13"))
    t = played(g, ["draw", "lay [R1 R2 R3 R4] [K7 R7 B7] [O9 O10 O11]", "discard K13",
                   "draw", "discard O13",
                   "draw", "lay [B4 B5 B6]", "discard R5",   # 6: R5 went on meld 1, then O2 out
                   "draw", "discard O12",
                   "draw", "lay add 4 B7", "discard O2"])
    assert (t[1].mark, codes(t[1])) == ("inaccuracy", ["fewer-tiles"])
    assert (t[1].placed, t[1].possible) == (10, 13) and "[B4 B5 B6]" in t[1].best
    assert (t[6].mark, codes(t[6])) == ("miss", ["could-go-out"])
    assert t[6].best == "lay [B4 B5 B6] add 1 R5 ; discard O2"
    assert t[11].mark == "best"
    a = analyse(g)
    assert a.series[0] == ((1, 4), (6, 1), (11, 0)) and a.series_kind == "tiles_left"
    assert GameAnalysis.from_dict(json.loads(a.to_json())) == a and a.solver_version is None


def test_international_a_missed_initial_meld_and_a_missed_closed_hand():
    g = InternationalGame.new(2, deal=deal([WINNER + " O2", PAIRS], "O9 R5", international=True))
    t = played(g, ["discard O2",                          # 1: 76 points could be laid
                   "draw", "discard O9",                  # 2: O9 made a closed hand
                   "draw", "lay [R1 R2 R3 R4 R5] [K7 R7 B7] [O9 O10 O11] [B4 B5 B6]", "discard K13"])
    assert (t[1].mark, codes(t[1])) == ("miss", ["could-open"])
    assert (t[2].mark, codes(t[2])) == ("miss", ["closed-hand-missed"])
    assert t[2].best == "closed O9" and t[2].possible == 14
    # laying all fourteen at once made the closed hand on the table: best
    assert t[4].mark == "best" and t[4].placed == 14 and g.win["kind"] == "closed"
