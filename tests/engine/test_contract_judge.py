"""Judging a claimed going-out in contract rummy (engine/contract/judge.py
``judge_going_out``): every hand the AI goes out of is judged a winning one,
with the melds it laid and the contract; hand-built claims that break a rule
are judged not valid with the first rule broken, the same rule the engine
gives when the move is pushed; a tampered table is caught meld by meld; a
move that does not go out is refused."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.contract import (ContractGame, InternationalGame, claims_going_out,
                             contract_text, judge_going_out)
from engine.contract.ai import play_game
from engine.errors import IllegalMoveError
from engine.registry import find_variant


def C(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def position(cls=ContractGame, players=3, hand=1, hands=(), table=(), active=0, phase="play",
             down=(), took=False):
    """Seat ``active`` to move in hand ``hand`` with ``hands`` (text per
    seat) and ``table`` as (owner, cards) pairs."""
    g = cls.new(players, seed="judge-test")
    g.hand_no = hand - 1
    hs = [C(h) for h in hands]
    while len(hs) < players:
        hs.append(C("3D 4D 9S TS KD"))
    g.hands = hs
    g.table = [g._r.build(C(m), owner) for owner, m in table]
    g.active, g.phase, g.took = active, phase, took
    g.down = [i in down for i in range(players)]
    g.upcard = False
    g.window = phase == "draw"
    return g


def engine_rule(game, text):
    """The rule the engine itself gives when ``text`` is pushed (on a copy)."""
    trial = type(game).from_snapshot(game.snapshot())
    try:
        trial.push(text)
    except IllegalMoveError as exc:
        return exc.rule
    return "ok"


@pytest.mark.parametrize("variant, seed", [("contract", "judge-a"), ("contract", "judge-b"),
                                           ("international", "judge-a"), ("international", "judge-c")])
def test_every_hand_the_ai_goes_out_of_is_a_winning_hand(variant, seed):
    played = find_variant(variant).new(3, seed=seed)
    play_game(played)
    game = find_variant(variant).new(3, seed=seed)
    judged = []
    for text in played.move_stack:
        hand_no, seat = game.hand_no, game.active
        claim = claims_going_out(game, text)
        if claim:
            snap = game.snapshot()
            verdict = judge_going_out(game, text)
            assert game.snapshot() == snap, "the judge changed the state"
            judged.append(verdict)
            assert verdict["valid"] and verdict["rule"] is None, verdict
            assert verdict["seat"] == seat and verdict["hand"] == hand_no + 1
            assert verdict["contract"] == contract_text(hand_no)
            assert verdict["melds"] and all(m["kind"] in ("set", "run") for m in verdict["melds"])
            assert all(m["kind"] in ("set", "run") for m in verdict["table"])
        game.push(text)
        ended = game.hand_no != hand_no or game.is_over
        # a claim is exactly a move that ended the hand with its player out
        assert claim == (ended and game.results[hand_no]["winner"] == seat)
    winners = [r["winner"] for r in played.results if r["winner"] is not None]
    assert len(judged) == len(winners) > 0


def test_going_out_while_going_down_gives_each_meld_and_its_kind():
    g = position(InternationalGame, hand=2, hands=["7H 7D 7S 5C 6C 7C 8C"])
    verdict = judge_going_out(g, "down 7H 7D 7S / 5C 6C 7C 8C")
    assert verdict["valid"] and verdict["action"] == "down"
    assert verdict["contract"] == "one set and one run"
    assert verdict["contract_melds"] == {"sets": 1, "runs": 1}
    assert [(m["kind"], m["cards"]) for m in verdict["melds"]] == [
        ("set", ["7H", "7D", "7S"]), ("run", ["5C", "6C", "7C", "8C"])]
    assert verdict["melds"][1]["suit"] == "C" and verdict["melds"][1]["start"] == 5
    assert g.hands[0], "the position is untouched"


@pytest.mark.parametrize("cls, kw, move, rule", [
    # a meld that is neither a set nor a run
    (ContractGame, dict(hands=["7C 7D 7H 8S 9S TS"]), "down 7C 7D 7H / 8S 9S TS", "meld-invalid"),
    # more wild cards than natural ones (twos wild in seed 002)
    (ContractGame, dict(hands=["7C 7D 7H 9S JK 2C"]), "down 7C 7D 7H / 9S JK 2C", "wild-ratio"),
    # hand 3 asks for two runs, not two sets
    (ContractGame, dict(hand=3, hands=["7C 7D 7H 9S 9C 9D"]), "down 7C 7D 7H / 9S 9C 9D",
     "contract-not-met"),
    # international: no more melds than the contract
    (InternationalGame, dict(hands=["7C 7D 7H 9S 9C 9D KS KC KD"]),
     "down 7C 7D 7H / 9S 9C 9D / KS KC KD", "too-many-melds"),
    # seed 002: the runs of a contract in different suits
    (ContractGame, dict(hand=3, hands=["3C 4C 5C 6C 9C TC JC QC"]), "down 3C 4C 5C 6C / 9C TC JC QC",
     "run-suits"),
    # seed 002: no going out on a turn the discard was taken
    (ContractGame, dict(hands=["9H"], table=[(1, "9C 9D 9D")], down=(0,), took=True),
     "lay 9H 1", "no-out-after-take"),
    (ContractGame, dict(hands=["7C 7D 7H 9S 9C 9D"], took=True), "down 7C 7D 7H / 9S 9C 9D",
     "no-out-after-take"),
    # the last card is played, never discarded (both profiles)
    (ContractGame, dict(hands=["9H"], table=[(1, "9C 9D 9S")], down=(0,)), "discard 9H",
     "last-card-discard"),
    (InternationalGame, dict(hands=["9H"], table=[(1, "9C 9D 9S")], down=(0,)), "discard 9H",
     "last-card-discard"),
    # laying off the last card without having gone down
    (ContractGame, dict(hands=["9H"], table=[(1, "9C 9D 9S")]), "lay 9H 1", "not-down"),
    # a card that does not fit the meld
    (ContractGame, dict(hands=["8H"], table=[(1, "9C 9D 9S")], down=(0,)), "lay 8H 1", "does-not-fit"),
    # before drawing, and out of turn
    (ContractGame, dict(hands=["7C 7D 7H 9S 9C 9D"], phase="draw"), "down 7C 7D 7H / 9S 9C 9D",
     "draw-first"),
    (ContractGame, dict(hands=["3D 4D 9S", "7C 7D 7H 9S 9C 9D"]), "1 down 7C 7D 7H / 9S 9C 9D",
     "not-your-turn"),
    # cards the player does not hold
    (ContractGame, dict(hands=["7C 7D 7H 9S 9C 9D"]), "down 7C 7D 7H / 9S 9C 9H", "not-in-hand"),
])
def test_a_claim_that_breaks_a_rule_is_not_a_winning_hand(cls, kw, move, rule):
    g = position(cls, **kw)
    assert claims_going_out(g, move)
    snap = g.snapshot()
    verdict = judge_going_out(g, move)
    assert g.snapshot() == snap
    assert not verdict["valid"] and verdict["rule"] == rule and verdict["reason"]
    assert verdict["rule"] == engine_rule(g, move), "the judge and the engine agree"
    assert verdict["table"] == []


def test_the_same_claims_are_winning_hands_where_the_profile_allows_them():
    took = position(InternationalGame, hands=["7C 7D 7H 9S 9C 9D"], took=True)
    assert judge_going_out(took, "down 7C 7D 7H / 9S 9C 9D")["valid"]
    extra = position(ContractGame, hands=["7C 7D 7H 9S 9C 9D KS KC KD"])
    verdict = judge_going_out(extra, "down 7C 7D 7H / 9S 9C 9D / KS KC KD")
    assert verdict["valid"] and [m["kind"] for m in verdict["melds"]] == ["set"] * 3


def test_an_invalid_claimed_meld_is_named_with_its_problem():
    g = position(ContractGame, hands=["7C 7D 7H 8S 9S TS"])
    verdict = judge_going_out(g, "down 7C 7D 7H / 8S 9S TS")
    first, second = verdict["melds"]
    assert first["kind"] == "set" and first["rank"] == 7
    assert second["kind"] is None and second["rule"] == "meld-invalid" and "8S 9S TS" in second["problem"]


def test_a_tampered_table_is_caught_meld_by_meld():
    """A table the rules could not have left (a set more wild than natural,
    seed 002 keeps the ratio at all times): laying off the last card on
    another meld is accepted by push, but the hand it ends is no winner."""
    g = position(ContractGame, hands=["9H"], table=[(0, "9C 9D 9S"), (1, "5C 5D 5H")], down=(0,))
    g.table[1].cards[1:] = C("JK 2C 2D")        # 5C JK 2C 2D: one natural, three wild
    g.table[1].wilds = 3
    assert engine_rule(g, "lay 9H 1") == "ok"
    verdict = judge_going_out(g, "lay 9H 1")
    assert not verdict["valid"] and verdict["rule"] == "wild-ratio"
    assert verdict["reason"].startswith("meld 2 (5C JK 2C 2D)")
    assert verdict["melds"][0]["laid"] == "9H" and verdict["melds"][0]["kind"] == "set"


@pytest.mark.parametrize("kw, move, message", [
    (dict(hands=["9H KS QS"], table=[(1, "9C 9D 9S")], down=(0,)), "lay 9H 1", "leave seat 0 with 2 card"),
    (dict(hands=["9H KS"]), "discard KS", "leave seat 0 with 1 card"),
    (dict(hands=["9H KS"], phase="draw"), "draw", "plays no card"),
])
def test_a_move_that_does_not_go_out_is_refused(kw, move, message):
    g = position(ContractGame, **kw)
    assert not claims_going_out(g, move)
    with pytest.raises(ValueError, match=message):
        judge_going_out(g, move)
