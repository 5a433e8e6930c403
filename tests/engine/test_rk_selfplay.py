"""1,000 seeded self-play games between random legal players, over every
preset and both tile sets, with the invariants checked after every turn, and
each game's written record replayed to the same final state."""

import pytest

from engine.rummikub.ai.random_player import RandomPlayer
from engine.records import read_record, record_from_game, replay, write_record
from engine.errors import IllegalMoveError
from engine.rummikub import PRESETS, Move, SabraGame, SabraXPGame
from engine.tiles import JOKER

GAMES = 1000


def _accounted(game) -> list[int]:
    counts = [0] * 53
    for rack in game.racks:
        for code, n in enumerate(rack):
            counts[code] += n
    for meld, k in game.table.items():
        for s in meld:
            counts[s if s < 52 else JOKER] += k
    for t in game.pool[game.pool_pos:]:
        counts[t] += 1
    return counts


def _check_invariants(game, full):
    assert _accounted(game) == full
    assert game.pool_count == len(game.pool) - game.pool_pos
    assert [sum(r) for r in game.racks] == game.rack_sizes
    from engine.melds import meld_kind
    assert all(meld_kind(m) for m in game.table)


@pytest.mark.slow
def test_thousand_seeded_self_play_games():
    presets = list(PRESETS.values())
    ends = {"rack-empty": 0, "pool-empty": 0}
    kinds = {}
    for i in range(GAMES):
        cls = SabraXPGame if i % 6 == 5 else SabraGame
        players = 2 + i % (cls.max_players - 1)
        rules = presets[i % len(presets)]
        game = cls.new(players, rules, seed=f"selfplay-{i}", first=i % players)
        full = cls.tileset.counts()
        player = RandomPlayer(i)
        _check_invariants(game, full)
        while not game.is_over:
            move = player.choose(game)
            seat = game.to_move
            if game.turn % 41 == 7 and game.rack_sizes[seat]:
                # a failed manipulation: the 3-tile penalty instead
                tile = game.rack(seat)[0]
                with pytest.raises(IllegalMoveError) as err:
                    game.push(f"play {tile} -> [{tile}]" if tile != JOKER else "play J -> [J(R1)]")
                assert err.value.rule == "table-not-valid"
                move = err.value.penalty
            elif game.turn % 53 == 11 and rules.turn_time_limit:
                move = Move("timeout")
            game.push(move)
            kinds[move.kind] = kinds.get(move.kind, 0) + 1
            _check_invariants(game, full)
            assert game.turn < 2000
        scores = game.scores()
        assert sum(scores) == 0 and len(scores) == players
        assert all(s <= 0 for k, s in enumerate(scores) if k not in game.winners)
        ends[game.end_reason] += 1
        text = write_record(record_from_game(game, [f"P{k}" for k in range(players)]))
        again = replay(read_record(text))
        assert again.snapshot() == game.snapshot()
    # the random players exercise both endings, plays and draws
    assert ends["rack-empty"] > 0 and ends["pool-empty"] > 0
    for kind in ("play", "draw", "pass", "penalty", "timeout"):
        assert kinds.get(kind, 0) > 0, kind
