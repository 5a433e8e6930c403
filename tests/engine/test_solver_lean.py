"""The solve's fixed costs trimmed (``core.LEAN``, ``bound.LEAN``): the
same position oriented, the same inputs read, the same layouts, as the
paths they replace."""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError
from engine.melds import GROUP_JOKER, RUN_JOKER, canonical
from engine.solver import bound, compiled, core, solve
from engine.solver.division import read_tiles
from engine.tiles import TILES

from .solver_builds import required


def test_oriented_is_the_composition_it_replaces():
    rng = random.Random(7)
    mirrored = 0
    for _ in range(2000):
        table = [rng.choice((0, 0, 1, 2)) for _ in range(52)]
        rack = [rng.choice((0, 0, 0, 1, 2)) for _ in range(52)]
        jt = rng.randint(0, 2)
        weights = None if rng.random() < 0.5 else [rng.randint(0, 999) for _ in range(53)]
        got = core.oriented(table, rack, jt, weights)
        assert got == core.oriented_by_steps(table, rack, jt, weights)
        mirrored += got[4]
    assert 200 < mirrored < 1800  # both ways taken


def test_read_tiles_codes_as_before():
    codes = [0, 12, 13, 51, 52, 52, 7]
    assert read_tiles(codes, "rack") == codes
    assert read_tiles([TILES[c] for c in codes], "rack") == codes
    assert all(type(c) is int for c in read_tiles([TILES[c] for c in codes], "rack"))
    assert read_tiles("R1 J", "rack") == read_tiles([int(TILES[c]) for c in
                                                    read_tiles("R1 J", "rack")], "rack")
    for bad in ([53], [-1], [True], [1.0]):
        with pytest.raises(EngineError):
            read_tiles(bad, "rack")


def test_copies_checked_as_before():
    with pytest.raises(EngineError, match=f"3 copies of {TILES[0]}"):
        solve([0, 0], [0])
    with pytest.raises(EngineError, match="3 copies of J"):
        solve([52, 52], [52])
    assert solve([], [0, 0, 0], tileset="xp").tiles_placed == 0  # three copies: xp


def _random_point(rng, fewest, joker_rate):
    """An integral point of the bound's programme laying out ``fewest`` to
    6 shapes once or twice (some slots filled by jokers, at ``joker_rate``),
    and the table it lays out and its jokers."""
    x = [0] * bound.NV
    for m in rng.sample(range(bound.NS), rng.randint(fewest, 6)):
        x[m] = rng.randint(1, 2)
    table = [0] * 52
    for m in range(bound.NS):
        for t in bound.SHAPES[m]:
            table[t] += x[m]
    for t in range(52):
        if table[t] and rng.random() < joker_rate:
            table[t] -= 1
            x[bound.NS + 52 + t] += 1
    return x, table, sum(x[bound.NS + 52:bound.NS + 104])


@pytest.mark.parametrize("lean", [0, 1])
def test_layouts_the_same_either_way(lean, monkeypatch):
    rng = random.Random(11)
    cases = []
    for _ in range(300):
        x, table, jt = _random_point(rng, 0, 0.05)
        if rng.random() < 0.3:
            table[rng.randrange(52)] += 1  # not this point's layout
        counts = [rng.choice((0, 0, 0, 1, -1)) for _ in range(bound.NS)]
        cases.append((x, table, jt, counts))
    got = []
    for x, table, jt, counts in cases:
        monkeypatch.setattr(bound, "LEAN", lean)
        a = bound.integral_layout(x, table, [0] * 52, jt, 0)
        b = bound.shapes_laid(counts, table, jt)
        monkeypatch.setattr(bound, "LEAN", 1 - lean)
        assert a == bound.integral_layout(x, table, [0] * 52, jt, 0)
        assert b == bound.shapes_laid(counts, table, jt)
        got.append(a is not None)
    assert any(got) and not all(got)


def test_a_laid_plans_melds_are_canonical_as_before(monkeypatch):
    """The relaxation's layout, laid in the original position, each meld
    put in canonical order as laid (a group's sorted, a run's reversed in
    a reversed position): what :func:`engine.melds.canonical` gives, and
    the rack tiles placed mapped back; in C as in Python."""
    required(compiled._simplex(), "the bound's simplex in C")  # (C and Python compared)
    rng = random.Random(5)
    checked = jokers = 0
    for _ in range(400):
        x, table, jt = _random_point(rng, 1, 0.15)
        melds = bound.integral_layout(x, table, [0] * 52, jt, 0)
        if not melds:
            continue
        order = rng.sample(range(4), 4)
        mirrored = rng.random() < 0.5
        played = [rng.randrange(3) for _ in range(52)]
        got, used = core.LaidPlan(0, jt, melds, played).lay_out(order, mirrored)
        # in C (the simplex's lay_back) and in Python alike
        monkeypatch.setattr(core, "LAY_BACK", 0)
        assert core.LaidPlan(0, jt, melds, played).lay_out(order, mirrored) == (got, used)
        monkeypatch.setattr(core, "LAY_BACK", 1)
        assert sum(used) == sum(played) and all(
            used[order[t // 13] * 13 + (12 - t % 13 if mirrored else t % 13)] == played[t]
            for t in range(52))

        def back(s):
            if s >= GROUP_JOKER:
                n = s - GROUP_JOKER
                return GROUP_JOKER + (12 - n if mirrored else n)
            run_joker = s >= RUN_JOKER
            t = s - RUN_JOKER if run_joker else s
            t = order[t // 13] * 13 + (12 - t % 13 if mirrored else t % 13)
            return RUN_JOKER + t if run_joker else t

        assert got == [canonical([back(s) for s in m]) for m in melds]
        checked += 1
        jokers += any(s >= 52 for m in melds for s in m)
    assert checked > 200 and jokers > 50
