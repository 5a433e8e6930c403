"""Post-game analysis of Okey (engine/okey/analysis.py) on typed-in deals
whose mistakes are known: a winning hand not declared, a win by taking the
discard missed, the okey thrown away, a worse discard; the distance to win
and its series; determinism and the JSON round trip."""

from __future__ import annotations

import json
from collections import Counter

from engine.analysis import GameAnalysis
from engine.okey import TILES, OkeyGame
from engine.okey.analysis import analyse, distance
from engine.okey.game import _code
from engine.okey.hand import tile_text
from engine.okey.rules import OkeyRules

T = str.split
WIN = "R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 B13 O5"      # 14 tiles, wins without an okey
SEAT1 = "K1 K2 K3 O10 O11 O12 R10 R11 R12 R13 B6 B7 B8"     # 13 in melds


def deal(hands: list[str], indicator: str, middle_top: str = "") -> dict:
    """Seats 0 (15 tiles) and 1 as given, seats 2 and 3 filled from the
    tiles left (never the okey), the middle the rest with ``middle_top``
    on top."""
    left = Counter(TILES)
    fixed = [[_code(t) for t in T(h)] for h in hands]
    ind = _code(indicator)
    top = [_code(t) for t in T(middle_top)]
    for t in [ind] + top + [t for h in fixed for t in h]:
        left[t] -= 1
        assert left[t] >= 0, tile_text(t)
    okey = ind // 13 * 13 + (ind % 13 + 1) % 13
    spare = sorted(left.elements(), key=lambda c: (c == okey or c == 52, c % 13, c // 13))
    out = []
    for s in range(4):
        h = fixed[s] if s < len(fixed) else []
        while len(h) < (15 if s == 0 else 14):
            h.append(spare.pop(0))
        out.append([tile_text(t) for t in h])
    return {"hands": out, "indicator": indicator, "middle": [tile_text(t) for t in top + spare]}


def match(hands, middle_top, moves):
    g = OkeyGame.new(4, {"start_points": 1}, deal=deal(hands, "K3", middle_top))
    for m in moves:
        g.push(m)
    assert g.is_over
    return g


def codes(t):
    return [r.code for r in t.reasons]


def test_the_distance_to_win_counts_the_tiles_to_change():
    rules, okey = OkeyRules(), _code("K4")
    rack = lambda text: [_code(t) for t in T(text)]   # noqa: E731
    assert distance(rack(WIN), okey, rules) == 0
    assert distance(rack(WIN.replace("O5", "K9")), okey, rules) == 1        # K9 for O5 (or any 14th)
    assert distance(rack(WIN.replace("R3", "K9")), okey, rules) == 1        # R3 back
    assert distance(rack(WIN.replace("R3", "K9").replace("O8", "K12")), okey, rules) == 2
    assert distance(rack(WIN.replace("R3", "K4").replace("O8", "K12")), okey, rules) == 1   # the okey is wild


def test_a_win_not_declared_and_a_win_by_taking_missed_are_misses():
    g = match([WIN + " B9", SEAT1 + " O6"], "K7 O13 R9 K11",
              ["discard B9",                  # 1: finish B9 won
               "draw", "discard K7",          # 2: taking B9 made B6-B9, finish O6
               "draw", "discard O13", "draw", "discard R9",
               "draw", "finish K11"])
    a = analyse(g)
    t = {x.turn: x for x in a.turns}
    assert sorted(t) == [1, 2, 4, 6, 8]
    assert (t[1].mark, codes(t[1])) == ("miss", ["win-not-declared"])
    # the first finishing tile in the game's order: R5 B5 O5 stay a set
    assert t[1].best == "finish K5" and t[1].figures["distance_before"] == 0
    assert (t[2].mark, codes(t[2])) == ("miss", ["win-by-take-missed"])
    assert t[2].best == "take ; finish O6" and t[2].moves == 2
    assert t[8].mark == "best" and t[8].figures["distance_to_win"] == 0
    assert a.series_kind == "distance_to_win"
    assert a.series[0] == ((1, 0), (8, 0)) and a.series[1] == ((2, 1),)
    s0, s1 = a.summary()[:2]
    assert (s0["misses"], s1["misses"]) == (1, 1)


def test_the_okey_thrown_away_and_a_worse_discard_are_inaccuracies():
    g = match(["R1 R2 R3 K5 R5 O7 O8 O9 B10 B11 B12 B13 K9 K12 K4", SEAT1 + " B9"], "O3",
              ["discard K4",                  # the okey: K5 R5 okey made a set
               "draw", "finish O3"])
    a = analyse(g)
    t = {x.turn: x for x in a.turns}
    assert (t[1].mark, codes(t[1])) == ("inaccuracy", ["okey-discarded", "discard-worse"])
    # K5 (R1 R2 R3 okey R5 is a run) and K9 (K9 okey okey K12) both leave 1
    assert t[1].best == "discard K5"
    assert (t[1].figures["distance_before"], t[1].figures["distance_to_win"],
            t[1].figures["best_distance"]) == (1, 2, 1)
    assert (t[1].placed, t[1].possible) == (0, 0)
    assert t[2].mark == "best" and t[2].played == "draw ; finish O3"
    again = analyse(g.record())
    assert again == a and GameAnalysis.from_dict(json.loads(a.to_json())) == a
