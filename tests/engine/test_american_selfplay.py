"""1,000 seeded games of each variant, American and International
Rummikub, between the computer players (random, greedy and strong mixed,
two to four seats), with invariants checked after every move: all 106
tiles accounted for (racks, pool, discard piles, table, the trump), every
meld on the table valid, the view of the seat on turn its own rack only,
American's scores zero-sum, and each game's record replayed to the same
state (every tenth game, and each one that ended in a Closed or Foot win)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.american.ai import LEVELS
from engine.american.deal import TILES
from engine.american.game import AmericanGame, InternationalGame
from engine.melds import meld_kind
from engine.records import replay_text
from engine.tiles import format_tile

GAMES = 1000
CHUNKS = 5
MIX = [["greedy", "random"], ["strong", "greedy", "random"], ["random", "strong", "greedy", "strong"],
       ["strong", "strong"], ["expert", "greedy", "strong"]]


def check(g) -> None:
    assert g.tile_count() == Counter(TILES)
    mr = g.rules.meld_rules
    assert all(meld_kind(m, mr) for _, m in g.table)
    if g.is_over:
        return
    s = g.to_move
    v = g.view(s)
    assert v["my_rack"] == [format_tile(t) for t in sorted(g.racks[s])]
    assert "racks" not in v and "pool" not in v


@pytest.mark.parametrize("cls", [AmericanGame, InternationalGame], ids=["american", "international"])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_self_play_invariants_and_replay(cls, chunk):
    kinds: Counter = Counter()
    for k in range(GAMES // CHUNKS):
        n = chunk * (GAMES // CHUNKS) + k
        levels = MIX[n % len(MIX)]
        seed = f"{cls.variant}-selfplay-{n}"
        g = cls.new(len(levels), seed=seed, first=n % len(levels))
        players = [LEVELS[lv](f"{seed}:{i}") for i, lv in enumerate(levels)]
        moves = 0
        while not g.is_over:
            g.push(players[g.to_move].choose(g))
            moves += 1
            assert moves < 5_000
            check(g)
        kinds[g.win["kind"]] += 1
        if cls is AmericanGame:
            assert sum(g.scores()) == 0
        if n % 10 == 0 or g.win["kind"] in ("closed", "foot"):
            again = replay_text(g.record())
            assert again.snapshot() == g.snapshot()
    print(f"{cls.variant} chunk {chunk}: {dict(kinds)}")
    if cls is AmericanGame:
        assert kinds["melded all"] and kinds["trump"]
    else:
        assert kinds["open"] and kinds["closed"]
