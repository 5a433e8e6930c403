"""The solver's API and ``python -m engine solve``: invariants (hypothesis),
worked examples, initial-meld mode, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from engine.errors import NotationError
from engine.melds import meld_kind, meld_value
from engine.solver import SolverError, could_open, could_play_more, divide, solve
from engine.solver.positions import random_position
from engine.tiles import JOKER, STANDARD, XP, counts_of, parse_tiles

ROOT = Path(__file__).resolve().parents[2]


def _physical(melds):
    return sorted(s if s < 52 else JOKER for m in melds for s in m)


def _codes(tiles):
    return [int(t) for t in tiles]


# --------------------------------------------------------------- invariants
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**9), size=st.integers(0, 90),
       rack_size=st.integers(0, 24), xp=st.booleans())
def test_answer_invariants(seed, size, rack_size, xp):
    """Play drawn from the rack; the witness is valid and uses exactly table
    + play; nothing more can be added afterwards (else a bigger play would
    exist); a smaller rack never places more."""
    ts = XP if xp else STANDARD
    table, rack = random_position(seed, ts, size, rack_size)
    sol = solve(table, rack, tileset=ts)
    play = _codes(sol.play)
    rc = counts_of(rack)
    assert all(k <= rc[t] for t, k in enumerate(counts_of(play)))
    assert all(meld_kind(m) for m in sol.melds)
    assert _physical(sol.melds) == sorted(table + play)
    rest = list(rack)
    for t in play:
        rest.remove(t)
    again = solve(table + play, rest, tileset=ts)
    assert again.tiles_placed == 0
    if rack:
        fewer = solve(table, rack[1:], tileset=ts)
        assert fewer.tiles_placed <= sol.tiles_placed


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**9), rack_size=st.integers(0, 24))
def test_initial_meld_invariants(seed, rack_size):
    """Before the initial meld the play forms melds of its own worth 30 or
    more, and the table is left as it was."""
    table, rack = random_position(seed, STANDARD, 30, rack_size)
    sol = solve(table, rack, initial_meld_done=False)
    play = _codes(sol.play)
    if not play:
        assert sol.value_placed == 0
        return
    k = 0
    while _physical(sol.melds[len(sol.melds) - k:]) != sorted(play):
        k += 1
        assert k <= len(sol.melds)
    new = sol.melds[len(sol.melds) - k:]
    assert sum(meld_value(m) for m in new) >= 30
    assert _physical(sol.melds[:len(sol.melds) - k]) == sorted(table)


# --------------------------------------------------------------- examples
def test_worked_examples():
    s = solve("R1 R2 R3", "R4 K4 B9 O9")
    assert (s.tiles_placed, s.value_placed, [str(t) for t in s.play]) == (1, 4, ["R4"])
    s = solve("R1 R2 R3", "R4 K4 B4 O9")
    assert (s.tiles_placed, s.value_placed) == (3, 12)
    # a joker on the rack joins anywhere there is room: worth 30
    s = solve("R1 R2 R3", "J")
    assert (s.tiles_placed, s.value_placed) == (1, 30)
    # a full group takes no joker, and splitting it leaves two tiles
    assert solve("K5 R5 B5 O5", "J").tiles_placed == 0
    # rearranging: a run split by a duplicate tile (seed 001, splitting a run)
    s = solve("R4 R5 R6 R7 R8", "R6")
    assert s.tiles_placed == 1
    assert sorted(len(m) for m in s.melds) == [3, 3]
    # most tiles first, then most value
    s = solve("", "R1 R2 R3 K11 R11 B11")
    assert s.tiles_placed == 6 and s.value_placed == 39
    # a table joker must stay placed; the answer may move it
    s = solve("R5 J R7", "R6")
    assert s.tiles_placed == 1 and all(meld_kind(m) for m in s.melds)


def test_initial_meld_examples():
    # joker standing for R12: 10 + 11 + 12 = 33
    s = solve([], "R10 R11 J", initial_meld_done=False)
    assert s.tiles_placed == 3
    # R8 R9 J: worth 27 at best (J as R10)
    s = solve([], "R8 R9 J K1", initial_meld_done=False)
    assert s.tiles_placed == 0 and s.play == []
    # with a threshold of 50 the 33 is not enough
    assert solve([], "R10 R11 J", initial_meld_done=False,
                 rules={"initial_meld": 50}).tiles_placed == 0
    # the table is not used before the initial meld
    assert solve("R11 R12 R13", "R10 K10 B10", initial_meld_done=False).tiles_placed == 3
    assert solve("R11 R12 R13", "R10", initial_meld_done=False).tiles_placed == 0
    assert could_open("K10 R10 B10") is not None
    assert could_open("K9 R9 B9") is None


def test_disputes_api():
    assert could_play_more("R1 R2 R3", "R4 R5", played=1) is not None
    assert could_play_more("R1 R2 R3", "R4 R5", played=2) is None
    melds = divide("R1 R2 R3 K7 B7 O7 J")
    assert melds is not None and all(meld_kind(m) for m in melds)
    assert divide("R1 R2") is None
    assert divide([]) == []
    assert divide("R1 R1 R1", tileset="xp") is None
    assert divide("R1 R1 R1 R2 R2 R2 R3 R3 R3", tileset="xp") is not None


@pytest.mark.parametrize("ts", [STANDARD, XP])
def test_most_of_a_set_from_an_empty_table(ts):
    """Laying out a whole divisible set but a few tiles (a "rack" of 80-150
    tiles, no table): every tile placed, in valid melds. The small-table
    shortcut (one unbudgeted pass) is kept to rack-sized inputs; here the
    depth-first check answers at once."""
    table, _ = random_position("most-of-a-set", ts, 200, 0)
    assert len(table) > 80
    sol = solve([], table, tileset=ts)
    assert sol.tiles_placed == len(table)
    assert all(meld_kind(m) for m in sol.melds)
    assert _physical(sol.melds) == sorted(table)


def test_bad_input_raises():
    with pytest.raises(NotationError, match="X7"):
        solve("X7", "")
    with pytest.raises(NotationError, match="3 copies of R1"):
        solve("R1 R1", "R1")
    with pytest.raises(NotationError, match="tile set"):
        solve("", "R1", tileset="huge")
    with pytest.raises(SolverError, match="cannot be divided"):
        solve("R1 R2", "R3")
    with pytest.raises(SolverError, match="cannot be divided"):
        solve("R1 R2", "R10 R11 R12", initial_meld_done=False)


def test_remembered_table_check_answers_like_a_fresh_one():
    """The divisibility of the last tables is remembered: a table that does
    not divide is refused every time, whatever the rack, and one that does
    is solved against each rack as a fresh process would."""
    for rack in ("R3", "R3 R4", "K1 K2 K3"):
        with pytest.raises(SolverError, match="cannot be divided"):
            solve("R1 R2 B7", rack)
    table = "R1 R2 R3 B5 K5 O5 J K9 K10"
    assert solve(table, "R4").tiles_placed == 1
    assert solve(table, "K8 K11").tiles_placed == 2
    assert solve(table, "O1").tiles_placed == 0
    with pytest.raises(SolverError, match="cannot be divided"):
        solve("R1 R2 R3 B5 K5 O5 K9 K10", "K8 K11")  # the same without its joker


# --------------------------------------------------------------- the CLI
def _cli(lines: list[str], *args) -> tuple[int, list]:
    proc = subprocess.run([sys.executable, "-m", "engine", "solve", *args],
                          input="\n".join(lines) + "\n", capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    return proc.returncode, [json.loads(x) for x in proc.stdout.splitlines()]


def test_cli_contract():
    lines = [
        json.dumps({"table": ["R1", "R2", "R3"], "rack": ["R4", "K9", "J"],
                    "initial_meld_done": True}),
        "this is not json",
        json.dumps({"table": ["X7"], "rack": []}),
        json.dumps({"table": ["R1", "R1", "R1"], "rack": [], "initial_meld_done": True}),
        json.dumps({"table": ["R1", "R2", "R3"] * 3, "rack": ["R4", "R4", "R4", "K4"],
                    "initial_meld_done": True, "tileset": "xp"}),
        json.dumps({"table": ["R1", "R2"], "rack": ["R3"], "initial_meld_done": True}),
        json.dumps({"table": [], "rack": ["R10", "R11", "J"], "initial_meld_done": False}),
        json.dumps({"table": [], "rack": ["R10", "R11", "J"], "initial_meld_done": False,
                    "rules": {"initial_meld": 50}}),
        json.dumps({"table": [], "rack": [], "rules": {"no_such_rule": 1}}),
        json.dumps({"table": "R1 R2 R3", "rack": []}),
        json.dumps({"table": [], "rack": [], "initial_meld_done": "yes"}),
        json.dumps({"table": [], "rack": [], "tileset": "huge"}),
        json.dumps({"table": [], "rack": [], "colour": "red"}),
        json.dumps([1, 2, 3]),
    ]
    rc, out = _cli(lines)
    assert rc == 0
    assert len(out) == len(lines)
    assert out[0] == {"tiles_placed": 2, "value_placed": 34, "play": ["R4", "J"],
                      "melds": [["R1", "R2", "R3", "R4", "J"]]}
    assert "bad JSON" in out[1]["error"]
    assert "X7" in out[2]["error"]
    assert "3 copies of R1" in out[3]["error"]
    assert out[4]["tiles_placed"] == 3
    assert "cannot be divided" in out[5]["error"]
    assert out[6]["tiles_placed"] == 3 and out[6]["value_placed"] == 51
    assert out[7]["tiles_placed"] == 0 and out[7]["melds"] == []
    assert "no_such_rule" in out[8]["error"]
    assert "list of tile" in out[9]["error"]
    assert "initial_meld_done" in out[10]["error"]
    assert "huge" in out[11]["error"]
    assert "colour" in out[12]["error"]
    assert "object" in out[13]["error"]
    for i, o in enumerate(out):
        if "error" in o:
            assert o["error"].startswith(f"line {i + 1}:")


def test_cli_melds_write_runs_ascending_with_jokers_in_place():
    line = json.dumps({"table": ["R5", "J", "R7", "K9", "B9", "O9"], "rack": ["R8"],
                       "initial_meld_done": True})
    rc, (out,) = _cli([line])
    assert rc == 0 and out["tiles_placed"] == 1
    melds = out["melds"]
    assert sorted(t for m in melds for t in m) == sorted(["R5", "J", "R7", "K9", "B9", "O9", "R8"])
    for m in melds:
        reals = [t for t in m if t != "J"]
        if len({t[0] for t in reals}) == 1 and len({t[1:] for t in reals}) == len(reals):
            # a run: each tile one above the one before, a joker in its place
            nums = [int(t[1:]) if t != "J" else None for t in m]
            first = next(i for i, n in enumerate(nums) if n is not None)
            start = nums[first] - first
            assert all(n is None or n == start + i for i, n in enumerate(nums))
