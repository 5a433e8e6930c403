"""The contract rummy ladder: ``random`` < ``basic`` < ``strong`` <
``expert`` (``standard`` the old name of ``strong``); every level plays
whole games with the others, ``basic`` never buys, ``expert`` buys
whatever brings its contract nearer, goes down with every further meld
in hand and does not feed the next player."""

from __future__ import annotations

import pytest

from engine.ai import level_aliases, levels_for, resolve_level
from engine.contract import ContractGame
from engine.contract.ai import LEVELS, ContractPlayer, ExpertPolicy, play_seats
from engine.contract.ai.levels import _promise


def test_the_ladder_and_the_old_name():
    assert list(levels_for("contract")) == ["random", "basic", "strong", "expert"]
    assert level_aliases("contract") == {"standard": "strong"}
    assert resolve_level("contract", "standard") == "strong"
    assert resolve_level("contract", "expert") == "expert"


@pytest.mark.parametrize("levels", [["random", "basic", "expert"], ["strong", "expert", "basic", "random", "expert"]])
def test_every_level_plays_whole_games_against_the_others(levels):
    game = ContractGame.new(len(levels), seed="ladder-" + "-".join(levels))
    players = [LEVELS[lv](f"s{i}") for i, lv in enumerate(levels)]
    bought = set()

    def note(g, move):
        if move.action == "buy":
            bought.add(levels[move.seat])

    play_seats(game, players, on_move=note)
    assert game.is_over and len(game.results) == 7
    assert "basic" not in bought


def test_the_expert_buys_wherever_strong_does_and_more():
    """Over seeded games: ``expert`` makes every buy ``strong`` would make
    (a wild card it has room for, a card near the contract) and more
    (whatever brings its contract nearer)."""
    more = 0
    for k in range(3):
        game = ContractGame.new(3, seed=f"buys-{k}")
        players = [LEVELS["strong"](f"p{i}") for i in range(3)]

        def check(g, move):
            nonlocal more
            for s in g.pending_actors():
                if s == g.active or not g.can_buy(s):
                    continue
                strong, expert = ContractPlayer(s).wants_buy(g), ExpertPolicy(s).wants_buy(g)
                assert expert or not strong
                more += expert and not strong

        play_seats(game, players, on_move=check)
    assert more >= 1


def test_the_expert_does_not_feed_the_next_player_among_equal_discards():
    """Over a seeded game of expert seats: whenever an expert discards a card
    that feeds the next player, every card it could have thrown instead is
    worth more to its own hand (adds more to the contract, or as much with
    more promise) or is a wild card it keeps."""
    game = ContractGame.new(3, seed="feeds")
    players = [LEVELS["expert"](f"p{i}") for i in range(3)]
    fed = checked = 0

    def before(g):
        nonlocal fed, checked
        s = g.active
        if g.phase != "play" or g.down[s]:
            return
        policy = ExpertPolicy(s)
        feeds = policy._feeds_next(g)
        if not feeds:
            return
        move = policy.discard_move(g)
        if move.action != "discard":
            return
        checked += 1
        if move.card in feeds:
            fed += 1
            marg = policy._marginals(g, g.hands[s])[1]
            promise = _promise(g, g.hands[s], *policy._need(g))
            R = g._r

            def worth(c):
                return (marg.get(c, 0), promise(c))

            for c in set(g.hands[s]) - feeds:
                assert worth(c) > worth(move.card) or R.is_wild(c)

    for _ in range(20000):
        if game.is_over:
            break
        active = game.active
        move = None
        for s in game.pending_actors():
            if s != active:
                move = players[s].choose(game, s)
                if move is not None:
                    break
        if move is None:
            before(game)
            move = players[active].choose(game, active)
        game.push(move)
    assert game.is_over and checked > 10


def test_a_table_that_only_takes_and_throws_wild_cards_round_and_round_still_ends():
    """Seed ``tune-contract-3p-51``, ``basic`` - ``expert`` - ``basic``: in
    its sixth hand the three seats took each other's discarded wild card and
    threw another, round after round, and never drew, so the stock never ran
    out and the hand never ended. A wild card is now taken only while there
    is room for it after the discard, and a table that has gone round four
    times without a draw makes the seat on turn draw."""
    levels = ["basic", "expert", "basic"]
    seed = "tune-contract-3p-51"
    game = ContractGame.new(3, seed=seed)
    players = [LEVELS[lv](f"{seed}/{s}") for s, lv in enumerate(levels)]
    play_seats(game, players, max_moves=20_000)
    assert game.is_over


def test_a_stalled_table_makes_the_seat_draw():
    game = ContractGame.new(3, seed="stall")
    player = ContractPlayer(game.active)
    assert not player._stalled(game)
    game.move_stack = [f"{i % 3} take" if i % 2 == 0 else f"{i % 3} discard 2C" for i in range(36)]
    assert player._stalled(game)
    assert player.draw_move(game).action == "draw"


def test_the_expert_goes_down_with_every_further_meld_in_hand():
    """Over seeded games of expert seats: a go-down never leaves three
    natural cards of one rank in a hand of five cards or more (a set that
    could have gone down with it: once down, cards in hand only lay off),
    and some go-downs put down more melds than the contract."""
    from engine.contract.rules import CONTRACTS
    extra = downs = 0
    for k in range(12):
        game = ContractGame.new(3, seed=f"extra-melds-{k}")
        players = [LEVELS["expert"](f"p{i}") for i in range(3)]

        def check(g, move):
            nonlocal extra, downs
            if move.action != "down" or g.hand_no != hand_of[0]:
                return
            downs += 1
            extra += len(move.melds) > sum(CONTRACTS[g.hand_no])
            rest = g.hands[move.seat]
            if len(rest) >= 5:
                nat = [c % 13 for c in rest if not g._r.is_wild(c)]
                assert max((nat.count(r) for r in set(nat)), default=0) < 3, (move, rest)

        hand_of = [0]

        def note(g, move):
            check(g, move)
            hand_of[0] = g.hand_no

        play_seats(game, players, on_move=note)
    assert downs >= 20 and extra >= 1
