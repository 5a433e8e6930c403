"""1,000 seeded Okey games between the computer players, with invariants
checked after every move: all 106 tiles accounted for (racks, middle,
discard piles, the indicator, the winner's last tile), each rack its right
size, the view of every seat its own rack only, and the match's record
replayed to the same state as the play.

Each game here is one deal: a match with ``start_points`` 1 ends after its
first game with a winner (the Compare Stone can end it too), or goes on
after an empty middle; the games are counted one deal at a time. Most seats
play ``random`` (cheap, long games that run the middle empty); one game in
ten seats ``greedy`` and ``strong`` players, which finish."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.okey import TILES, OkeyGame
from engine.okey.ai import LEVELS
from engine.okey.game import sort_key
from engine.okey.hand import tile_text
from engine.records import replay_text

GAMES = 1000
CHUNKS = 10


def check(g: OkeyGame) -> None:
    assert g.tile_count() == Counter(TILES)
    if g.is_over:
        return
    for s, rack in enumerate(g.racks):
        want = 15 if s == g.to_move and g.phase == "discard" else 14
        assert len(rack) == want, (s, g.phase, len(rack))
    s = g.to_move
    v = g.view(s)
    assert v["my_rack"] == [tile_text(t) for t in sorted(g.racks[s], key=sort_key)]
    assert sum(v["rack_counts"]) + v["middle_count"] + sum(map(len, v["piles"])) + 1 == 106


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_self_play_invariants_and_replay(chunk):
    played = won = empty = shown = 0
    match = 0
    while played < GAMES // CHUNKS:
        seed = f"okey-selfplay-{chunk}-{match}"
        levels = ["greedy", "expert", "strong", "random"] if match % 10 == 0 else ["random"] * 4
        g = OkeyGame.new(4, {"start_points": 1, "seven_pairs": match % 2 == 1}, seed=seed,
                         first=match % 4)
        players = [LEVELS[lv](f"{seed}:{i}") for i, lv in enumerate(levels)]
        moves = 0
        while not g.is_over and played + len(g.results) < GAMES // CHUNKS:
            g.push(players[g.to_move].choose(g))
            moves += 1
            assert moves < 20_000
            check(g)
        played += len(g.results)
        won += sum(r["winner"] is not None for r in g.results)
        empty += sum(r["winner"] is None for r in g.results)
        shown += sum(r["shown"] is not None for r in g.results)
        again = replay_text(g.record(), check_result=g.is_over)
        assert again.snapshot() == g.snapshot()
        match += 1
    assert played == GAMES // CHUNKS
    print(f"chunk {chunk}: {played} games in {match} matches, {won} won, {empty} middle empty, "
          f"{shown} Compare Stones")
    assert won and empty
