"""The contract rummy AI: the ``standard`` level never throws the discard it
took straight back (the positions where it did), and self-play with the
``random`` level and ``standard`` seats at three players, where every game
ends (``bench/contract_selfplay.py`` runs ten thousand)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.contract import ContractGame, InternationalGame, replay_record
from engine.contract.ai import (ContractPlayer, ContractSeatPlayer, RandomContractPlayer,
                                play_seats, play_turn)

from .test_contract_rules import C, position
from .test_contract_selfplay import Checker


def seat_turn(game, seat=0):
    """The moves ``ContractSeatPlayer`` makes for ``seat``'s whole turn."""
    player = ContractSeatPlayer()
    moves = []
    while True:
        move = player.choose(game, seat)
        moves.append(move)
        game.push(move)
        if move.action == "discard" or game.active != seat:
            return moves


def all_wild_hand():
    """Seed 002's hand 7 (three runs), seat 0 holding eleven wild cards: no
    run can go down with them (at least half of a meld is natural), so the
    natural ace on the discard pile brings the contract nearer."""
    return position(hand=7, hands=["2H 2H 2S 2S 2S JK JK JK JK JK JK"], discard="9C AH",
                    phase="draw", active=0)


def test_it_never_throws_back_the_discard_it_took_with_a_hand_of_wild_cards():
    game = all_wild_hand()
    moves = seat_turn(game)
    assert [m.action for m in moves] == ["take", "discard"]
    assert moves[-1].card != C("AH")[0]               # it threw the ace back here
    assert game.discards[-1] in C("2H 2S JK")         # a wild card it cannot use goes


def test_the_whole_turn_driver_keeps_the_taken_card_too():
    game = all_wild_hand()
    players = [ContractPlayer(s) for s in range(3)]
    play_turn(game, players)
    assert game.move_stack[0] == "0 take" and game.move_stack[-1] != "0 discard AH"


def test_a_hand_with_no_room_for_wild_cards_neither_takes_nor_buys_one():
    game = position(hand=7, hands=["2H 2S JK JK JK JK 5C 6C 7C"], discard="9C JK",
                    phase="draw", active=0)
    player = ContractPlayer(0)
    assert not player.wants_take(game)                 # six wild cards, three naturals
    game.active = 1
    assert not player.wants_buy(game)
    game = position(hand=7, hands=["2H 5C 6C 7C 9D"], discard="9C JK", phase="draw", active=0)
    assert ContractPlayer(0).wants_take(game)          # one wild card: room for more


def test_it_draws_rather_than_take_a_card_the_players_rule_makes_it_throw_back():
    """Seed 004, hand 3 (two runs): every card in seat 0's hand plays on
    seat 1's runs, so the five of spades, which would join its eight, is the
    only card it could discard after taking it."""
    table = [(1, "5C 6C 7C 8C"), (1, "9S TS JS QS")]
    game = position(InternationalGame, hand=3, hands=["4C 9C 8S KS"], table=table,
                    discard="9H 5S", phase="draw", active=0, down=(1,))
    assert ContractPlayer(0)._gain(game, C("5S")[0], game.hands[0]) >= 1
    moves = seat_turn(game)
    assert [m.action for m in moves] == ["draw", "discard"]
    # nor when the only card it may discard is another copy of the same one
    # (seed bench-contract-selfplay-check-667: three kings but for the eights)
    game = position(InternationalGame, hand=1, hands=["8H 8S 9C KS KS"], table=[(1, "8C 8C 8D"), (1, "9D 9S 9H")],
                    discard="9H KS", phase="draw", active=0, down=(1,))
    moves = seat_turn(game)
    assert moves[0].action == "draw"
    # with a card it may discard the same five is worth taking
    game = position(InternationalGame, hand=3, hands=["4C 9C 8S KS 3H"], table=table,
                    discard="9H 5S", phase="draw", active=0, down=(1,))
    moves = seat_turn(game)
    assert moves[0].action == "take" and moves[-1].card != C("5S")[0]


def test_random_is_seeded_and_plays_every_kind_of_move():
    def moves_with(seed, count=400):
        game = InternationalGame.new(3, seed="random-level")
        players = [RandomContractPlayer(f"{seed}-{s}") for s in range(3)]
        while len(game.move_stack) < count:
            active = game.active
            move = next((m for s in game.pending_actors() if s != active
                         for m in [players[s].choose(game, s)] if m is not None), None)
            game.push(move or players[active].choose(game, active))
        return game.move_stack

    a, b, c = moves_with("x"), moves_with("x"), moves_with("y")
    assert a == b and a != c
    assert {"draw", "take", "discard", "down", "lay", "buy"} <= {m.split()[1] for m in a + c}


def never_down(seed):
    """A random seat that never goes down: the players the old engine could
    not finish a hand against."""
    player = RandomContractPlayer(seed)
    player._play = lambda game, seat, lay_off: None
    return player


MIXES = {
    "standard-random-random": lambda i: [ContractSeatPlayer(), RandomContractPlayer(f"{i}-1"),
                                         RandomContractPlayer(f"{i}-2")],
    "random-random-random": lambda i: [RandomContractPlayer(f"{i}-{s}") for s in range(3)],
    "standard-never-never": lambda i: [ContractSeatPlayer(), never_down(f"{i}-1"), never_down(f"{i}-2")],
    "never-never-never": lambda i: [never_down(f"{i}-{s}") for s in range(3)],
}
GAMES = {"standard-random-random": 3, "random-random-random": 1, "standard-never-never": 2,
         "never-never-never": 1}


def play_checked(cls, mix, i):
    """One 3-player game of ``mix``, every move checked (cards accounted
    for, melds legal, hands hidden); the turns where a standard seat took
    the discard and discarded the same card with no play in between."""
    game = cls.new(3, seed=f"selfplay-{mix}-{i}")
    check = Checker(game)
    thrown_back = []
    taken: dict[int, int] = {}

    def on_move(g, move):
        check(g, move)
        if move.action in ("take", "refuse"):
            taken[move.seat] = g.picked[move.seat][-1]
        elif move.action in ("down", "lay", "swap"):
            taken.pop(move.seat, None)    # another copy of the card may go later
        elif move.action == "discard":
            if mix.startswith("standard") and move.seat == 0 and taken.get(0) == move.card:
                thrown_back.append(len(g.move_stack))
            taken.pop(move.seat, None)

    play_seats(game, MIXES[mix](i), on_move=on_move)
    assert game.is_over and len(game.results) == 7
    again = replay_record(game.record())
    assert again.move_stack == game.move_stack and again.results == game.results
    return game, thrown_back


@pytest.mark.parametrize("cls", [ContractGame, InternationalGame], ids=lambda c: c.variant)
@pytest.mark.parametrize("mix", list(MIXES))
def test_every_three_player_game_ends(cls, mix):
    for i in range(GAMES[mix]):
        game, thrown_back = play_checked(cls, mix, i)
        assert thrown_back == []
        if mix == "never-never-never":   # nobody goes down: the stock rule ends every hand
            assert [r["winner"] for r in game.results] == [None] * 7
            assert all(sum(r["points"]) > 0 for r in game.results)


@pytest.mark.slow
@pytest.mark.parametrize("cls", [ContractGame, InternationalGame], ids=lambda c: c.variant)
def test_three_hundred_games_with_random_seats_all_end(cls):
    for i in range(150):
        mix = "standard-random-random" if i % 3 else "random-random-random"
        _, thrown_back = play_checked(cls, mix, 1000 + i)
        assert thrown_back == []
