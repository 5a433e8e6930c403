"""The Rummikub AI levels: every move legal over seeded games, hidden
information unused, and the level registry."""

from __future__ import annotations

import pytest

from engine.rummikub.ai.levels import LEVEL_NAMES, choose_move, player
from engine.rummikub.ai.strong import StrongPlayer, edge_weights
from engine.rummikub import SabraGame, SabraXPGame

GAMES = [
    (SabraGame, ["strong", "greedy"], "ai-a"),
    (SabraGame, ["greedy", "random"], "ai-b"),
    (SabraGame, ["random", "strong", "greedy", "strong"], "ai-c"),
    (SabraGame, ["strong", "strong", "greedy"], "ai-d"),
    (SabraXPGame, ["strong", "greedy", "random", "strong", "greedy"], "ai-e"),
    (SabraGame, ["expert", "greedy"], "ai-f"),
    (SabraXPGame, ["expert", "strong", "expert"], "ai-g"),
]


@pytest.mark.parametrize("cls,levels,seed", GAMES)
def test_every_move_is_legal(cls, levels, seed):
    game = cls.new(len(levels), seed=seed)
    turns = 0
    kinds = set()
    while not game.is_over:
        seat = game.to_move
        move = choose_move(game, seat, levels[seat], seed=f"{seed}-{seat}-{turns}")
        assert game.legal(move), (turns, levels[seat], str(move))
        game.push(move)
        kinds.add(move.kind)
        turns += 1
        assert turns < 3000
    assert "play" in kinds
    assert sum(game.scores()) == 0


def test_moves_ignore_hidden_information():
    """Same seat view, different opponent racks: the same move."""
    table = ["[R1 R2 R3]", "[K7 B7 O7]", "[B10 B11 B12 B13]"]
    rack = "R4 R5 K8 K9 J O1 O2 B9"
    for level in ("greedy", "strong"):
        moves = set()
        for other in ("K1 K2 K3 K4", "O10 O11 O12 O13", "R13 R13 B1 B2"):
            game = SabraGame.from_position([rack, other], table)
            moves.add(str(choose_move(game, 0, level)))
        assert len(moves) == 1, (level, moves)


def test_levels_registry_and_errors():
    assert LEVEL_NAMES == ("random", "greedy", "strong", "expert")
    game = SabraGame.new(2, seed="reg")
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_move(game, game.to_move, "grandmaster")
    with pytest.raises(ValueError, match="turn"):
        choose_move(game, 1 - game.to_move, "greedy")
    assert player("strong").name == "strong"


def test_greedy_opens_with_the_largest_opening_and_the_reserve_habit_keeps_a_meld():
    rack = "R10 R11 R12 K1 K2 K3 B5 B6 B7 O13 K13 B13 J R1"
    game = SabraGame.from_position([rack, "K4 K5 K6 K7 K8 K9 O3 O4"], [], initial_meld_done=False)
    greedy = choose_move(game, 0, "greedy")
    reserve = StrongPlayer(reserve_opening=True, keep_jokers=True).choose(game)
    assert greedy.kind == reserve.kind == "play"
    assert len(reserve.tiles) < len(greedy.tiles)
    assert "J" not in str(reserve).split("->")[0]
    assert game.legal(reserve)


def test_strong_lays_edge_numbers_and_keeps_middle_ones():
    """Two plays of two tiles each, exclusive (each needs an end of the same
    run): greedy lays the higher value, strong the 2s, keeping the 5s that
    fit more runs."""
    table = ["[R2 R3 R4 R5]"]
    game = SabraGame.from_position(["B2 O2 B5 O5 K9", "K1 K2 K3 K4 K5 K6 K7 K8"], table)
    greedy = choose_move(game, 0, "greedy")
    strong = choose_move(game, 0, "strong")
    played = lambda m: sorted(str(t) for t in m.tiles)  # noqa: E731
    assert played(greedy) == ["B5", "O5"]
    assert played(strong) == ["B2", "O2"]
    assert game.legal(strong)
    # switched off, the level plays like greedy
    plain = StrongPlayer(lay_edges=False).choose(game)
    assert played(plain) == ["B5", "O5"]


def test_edge_weights_favour_ends():
    w = edge_weights()
    assert len(w) == 53 and w[52] == 0
    assert w[0] == w[12] > w[1] == w[11] > w[6]          # R1, R13 > R2, R12 > R7
    assert all(0 <= x <= 999 for x in w)


@pytest.mark.parametrize("habits", [
    dict(keep_jokers=True, hold_back=True, reserve_opening=True, keep_connected=True),
    dict(spread=True, keep_jokers=True),
])
def test_strong_with_other_habits_moves_legally(habits):
    """The habits that are off by default (measured no better) still give
    legal moves over a seeded game."""
    game = SabraGame.new(3, seed="ai-habits")
    players = [StrongPlayer(**habits), player("greedy"), StrongPlayer(**habits)]
    turns = 0
    while not game.is_over:
        move = players[game.to_move].choose(game)
        assert game.legal(move), (turns, str(move))
        game.push(move)
        turns += 1
        assert turns < 3000
    assert sum(game.scores()) == 0


def test_lookahead_sees_only_the_seat_view_and_sometimes_draws_instead_of_laying():
    """The strong level's sampled look-ahead: the unseen tiles are exactly the
    set less the table and the seat's rack; the same position always gets the
    same answer; and over a seeded game it draws at least once where greedy
    would lay tiles (keeping them on the rack for later)."""
    from engine.rummikub.ai import lookahead
    from engine.rummikub.ai.solver_play import meld_tiles, seat_view

    game = SabraGame.new(2, seed="look-1")
    players = [StrongPlayer("look"), player("greedy")]
    held_back = 0
    while not game.is_over:
        seat = game.to_move
        view = seat_view(game, seat)
        table = [t for m in view["table"] for t in meld_tiles(m)]
        unseen = lookahead.unseen_tiles(dict(view, table_tiles=table))
        assert len(unseen) == view["pool_count"] + sum(
            n for s, n in enumerate(view["rack_counts"]) if s != seat)
        move = players[seat].choose(game)
        if seat == 0 and view["initial_done"][0] and move.kind == "draw":
            greedy_move = player("greedy").choose(game)
            if greedy_move.kind == "play":
                held_back += 1
                assert str(players[0].choose(game)) == str(move)  # deterministic
        game.push(move)
    assert held_back >= 1


def test_lookahead_never_draws_from_an_empty_pool():
    from engine.rummikub.ai import lookahead
    from engine.rummikub.ai.solver_play import meld_tiles, seat_view
    from engine.tiles import parse_tiles

    game = SabraGame.from_position(["R4 K9", "B1 B2"], ["[R1 R2 R3]"])
    view = seat_view(game, 0)
    table = [t for m in view["table"] for t in meld_tiles(m)]
    r4 = [int(t) for t in parse_tiles("R4")]
    view = dict(view, table_tiles=table, pool_count=0)
    assert lookahead.prefer_draw(view, 0, r4, [1, 0]) is False


def test_expert_goes_out_when_it_can():
    game = SabraGame.from_position(["R4 R5 K7", "K1 K2 K3 K4 O9 O11"], ["[R1 R2 R3]", "[B7 O7 R7]"])
    move = choose_move(game, 0, "expert")
    assert move.kind == "play" and sorted(str(t) for t in move.tiles) == ["K7", "R4", "R5"]


def test_expert_weighs_the_strong_play_against_holding_back_and_takes_the_best_mean():
    """Over a seeded game: the expert's candidates are the strong play first,
    then holding-back plays, drawing last; its move is the best-scored one; at
    least once it holds back where greedy lays; the same position gives the
    same move."""
    from engine.rummikub.ai.expert import ExpertPlayer

    game = SabraGame.new(2, seed="expert-1")
    expert, other = ExpertPlayer("e"), player("greedy")
    held = 0
    while not game.is_over:
        if game.to_move == 0:
            scored = expert.scores(game)
            move = expert.choose(game)
            assert str(move) == str(ExpertPlayer("e").choose(game))
            if len(scored) > 1:
                assert scored[-1][0].kind == "draw"
                best = max(x for _, x in scored)
                assert [x for m, x in scored if str(m) == str(move)][0] == best
                strong = StrongPlayer(lookahead=False).choose(game)
                if game.initial_done[0]:
                    assert str(scored[0][0]) == str(strong)
                if move.kind == "draw" or len(move.tiles) < len(strong.tiles):
                    held += 1
        else:
            move = other.choose(game)
        assert game.legal(move)
        game.push(move)
    assert held >= 1


def test_the_expert_samples_option_trades_work_for_strength():
    from engine.rummikub.ai import expert as mod

    calls = []
    real = mod.solve

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    game = SabraGame.from_position(["R4 R5 K7 B9 O1", "K1 K2 K3 K4 O9 O11"], ["[R1 R2 R3]", "[B7 O7 R7]"])
    counts = []
    for samples in (4, 10):
        calls.clear()
        mod.solve, saved = counting, mod.solve
        try:
            mod.ExpertPlayer("s", samples=samples, budget=1000).scores(game)
        finally:
            mod.solve = saved
        counts.append(len(calls))
    assert counts[1] > counts[0] * 2
