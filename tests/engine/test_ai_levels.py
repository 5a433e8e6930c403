"""The Rummikub AI levels: every move legal over seeded games, hidden
information unused, and the level registry."""

from __future__ import annotations

import pytest

from engine.ai.levels import LEVEL_NAMES, choose_move, player
from engine.rummikub import SabraGame, SabraXPGame

GAMES = [
    (SabraGame, ["strong", "greedy"], "ai-a"),
    (SabraGame, ["greedy", "random"], "ai-b"),
    (SabraGame, ["random", "strong", "greedy", "strong"], "ai-c"),
    (SabraGame, ["strong", "strong", "greedy"], "ai-d"),
    (SabraXPGame, ["strong", "greedy", "random", "strong", "greedy"], "ai-e"),
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
    assert LEVEL_NAMES == ("random", "greedy", "strong")
    game = SabraGame.new(2, seed="reg")
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_move(game, game.to_move, "grandmaster")
    with pytest.raises(ValueError, match="turn"):
        choose_move(game, 1 - game.to_move, "greedy")
    assert player("strong").name == "strong"


def test_greedy_opens_with_the_largest_opening_and_strong_keeps_a_reserve():
    rack = "R10 R11 R12 K1 K2 K3 B5 B6 B7 O13 K13 B13 J R1"
    game = SabraGame.from_position([rack, "K4 K5 K6 K7 K8 K9 O3 O4"], [], initial_meld_done=False)
    greedy = choose_move(game, 0, "greedy")
    strong = choose_move(game, 0, "strong")
    assert greedy.kind == strong.kind == "play"
    assert len(strong.tiles) < len(greedy.tiles)
    assert "J" not in str(strong).split("->")[0]
