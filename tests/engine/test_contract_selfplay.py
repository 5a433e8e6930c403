"""Seeded AI self-play of contract rummy, both profiles, with invariants
checked on every move: every card accounted for, every meld on the table
legal, hidden hands hidden, and the written record replays to the same
result."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import deck_counter, parse_cards
from engine.contract import ContractGame, InternationalGame, replay_record
from engine.contract.ai import play_game
from engine.contract.melds import meld_from_dict

GAMES = 1000


class Checker:
    """Invariants of a game in play, called after every pushed move."""

    def __init__(self, game: ContractGame):
        self.pack = deck_counter(game.rules.decks_for(game.n), game.rules.jokers_per_deck)
        self.size = sum(self.pack.values())
        self.moves = 0
        self.hands_seen = 0

    def everything(self, game: ContractGame) -> Counter:
        c = Counter(game.stock)
        c.update(game.discards)
        for h in game.hands:
            c.update(h)
        for m in game.table:
            c.update(m.cards)
        return c

    def __call__(self, game: ContractGame, move) -> None:
        self.moves += 1
        total = (len(game.stock) + len(game.discards) + sum(map(len, game.hands))
                 + sum(len(m.cards) for m in game.table))
        assert total == self.size, f"{total} cards in play, the pack has {self.size}"
        assert len(game.dead) == len(game.discards)
        a = move.action
        if len(game.results) != self.hands_seen:
            # a hand just ended: its final table must be legal, the new deal whole
            self.hands_seen = len(game.results)
            res = game.results[-1]
            assert res["winner"] is None or res["points"][res["winner"]] == 0
            for d in res["table"]:
                game._r.check_meld(meld_from_dict(d, game._r))
            if not game.over:
                assert dict.__eq__(self.everything(game), self.pack)
                self.hidden(game)
            return
        if a == "discard":     # the end of a turn: the whole pack, card by card
            assert dict.__eq__(self.everything(game), self.pack)
        elif a == "down":
            for m in game.table:
                if m.owner == move.seat:
                    game._r.check_meld(m, going_down=True)
        elif a in ("lay", "swap"):
            game._r.check_meld(game.table[move.target])
            if a == "swap":
                game._r.check_meld(game.table[move.wild_target])

    @staticmethod
    def hidden(game: ContractGame) -> None:
        for seat in range(game.n):
            v = game.view(seat)
            assert "stock" not in v and "hands" not in v
            assert len(v["my_hand"]) == len(game.hands[seat])
            assert v["hand_counts"] == [len(h) for h in game.hands]


def run(cls, players, seed):
    game = cls.new(players, seed=seed)
    check = Checker(game)
    play_game(game, on_move=check, max_turns=5000)
    assert game.is_over and len(game.results) == 7
    assert game.scores() == [sum(r["points"][s] for r in game.results) for s in range(players)]
    again = replay_record(game.record())
    assert again.scores() == game.scores()
    assert again.results == game.results
    assert again.move_stack == game.move_stack
    return game, check.moves


@pytest.mark.slow
@pytest.mark.parametrize("cls,counts", [(ContractGame, (3, 4, 5, 6)),
                                        (InternationalGame, (2, 3, 4, 5))])
def test_thousand_seeded_self_play_games(cls, counts):
    outs = Counter()
    buys = 0
    for i in range(GAMES):
        players = counts[i % len(counts)]
        game, _ = run(cls, players, f"selfplay-{cls.variant}-{i}")
        for r in game.results:
            outs["blocked" if r["winner"] is None else "out"] += 1
        buys += sum(1 for m in game.move_stack if m.endswith(" buy"))
    # the AI goes out in (nearly) every hand and buys now and then
    assert outs["out"] >= 0.95 * 7 * GAMES
    assert buys > GAMES


def test_self_play_is_deterministic():
    a, _ = run(InternationalGame, 3, "same-seed")
    b, _ = run(InternationalGame, 3, "same-seed")
    assert a.move_stack == b.move_stack and a.scores() == b.scores()


def test_the_checker_catches_a_lost_card_and_a_bad_meld():
    from engine.contract import Move
    from engine.errors import IllegalMoveError

    game = ContractGame.new(3, seed="checker")
    check = Checker(game)
    game.push(game.parse_move("draw"))
    check(game, Move("draw", 0))
    game.stock.pop()                                   # a card goes missing
    with pytest.raises(AssertionError):
        check(game, Move("draw", 0))
    game = InternationalGame.new(2, seed="checker")
    bad = game._r.build([int(c) for c in parse_cards("9C 9D 9S")], 0)
    bad.cards.append(parse_cards("8H")[0])             # an 8 slipped into a set of nines
    with pytest.raises(IllegalMoveError):
        game._r.check_meld(bad)
