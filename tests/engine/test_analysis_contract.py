"""Post-game analysis of contract rummy (engine/contract/analysis.py):
seeded games played by the computer players, with known mistakes put in
(a turn that does not go down, does not go out, does not lay off), each
found and marked; discards that fed the next player and buys checked
against the game; determinism and the JSON round trip."""

from __future__ import annotations

import json

import pytest

from engine.analysis import GameAnalysis
from engine.contract import ContractGame
from engine.contract.ai import ContractPlayer
from engine.contract.moves import Move
from engine.contract.analysis import analyse
from engine.errors import IllegalMoveError


def _goes_out(game, me) -> bool:
    trial = type(game).from_snapshot(game.snapshot())
    hand_no = trial.hand_no
    while (mv := me.play_moves(trial)) is not None:
        try:
            trial.push(mv)
        except IllegalMoveError:
            return False
        if trial.hand_no != hand_no or trial.over:
            return True
    return False


def mistake(kind: str):
    """When a turn could go down (``"down"``), go out (``"out"``) or lay
    off without going out (``"lay"``), the first time: play nothing."""
    def wants(game, seat, me) -> bool:
        first = me.play_moves(game)
        if first is None:
            return False
        out = _goes_out(game, me)
        if kind == "out":
            return out
        if kind == "down":
            return first.action == "down" and not out
        return first.action == "lay" and game.down[seat] and not out
    return wants


def a_player_to_throw(game, seat, me):
    """Down, not going out, holding a card that plays on the table and one
    that does not: the card that plays."""
    if not game.down[seat] or _goes_out(game, me):
        return False
    hand, plays = game.hands[seat], game._r.plays
    players = [c for c in hand if plays(c, game.table)]
    return players[0] if players and len(players) < len(hand) else False


def play(seed: str, skip_when, players: int = 4):
    """A game played by the computer players (as ``engine.contract.ai.
    play_turn`` drives them), except that at the first turn where
    ``skip_when(game, seat, player)`` holds the player plays nothing and
    discards (the card it returns, or the player's choice for ``True``);
    returns the game and that turn's number in the record."""
    game = ContractGame.new(players, seed=seed)
    ai = [ContractPlayer(s) for s in range(players)]
    skipped = None
    while not game.over:
        hand_no, active = game.hand_no, game.active
        if game.phase == "draw" and game.window:
            for k in range(1, game.n):
                s = (active + k) % game.n
                if ai[s].wants_buy(game):
                    game.push(Move("buy", s))
                    if game.rules.buy_consent or game.rules.buy_priority == "first-asked":
                        break
        me = ai[active]
        start = len(game.move_stack) + 1
        game.push(me.draw_move(game))
        if game.over or game.hand_no != hand_no:
            continue
        if game.phase == "draw":
            game.push(me.draw_move(game))
            if game.over or game.hand_no != hand_no:
                continue
        chosen = skip_when(game, active, me) if skipped is None else False
        if chosen is not False:
            skipped = (start, active)
            if chosen is not True:             # a card to throw
                game.push(Move("discard", active, card=chosen))
                continue
        else:
            while (mv := me.play_moves(game)) is not None:
                try:
                    game.push(mv)
                except IllegalMoveError:
                    break
                if game.over or game.hand_no != hand_no:
                    break
            if game.over or game.hand_no != hand_no:
                continue
        while True:
            mv = me.discard_move(game)
            game.push(mv)
            if mv.action == "discard":
                break
    assert skipped is not None
    return game, skipped


def turn_at(a: GameAnalysis, number: int, seat: int):
    (t,) = [t for t in a.turns if t.seat == seat and t.turn <= number < t.turn + t.moves]
    return t


@pytest.mark.parametrize("kind, mark, code", [
    ("down", "miss", "could-go-down"),
    ("out", "miss", "could-go-out"),
    ("lay", "inaccuracy", "fewer-cards"),
])
def test_a_turn_that_played_nothing_is_marked(kind, mark, code):
    game, (number, seat) = play("analysis-1", mistake(kind))
    a = analyse(game)
    t = turn_at(a, number, seat)
    assert t.mark == mark and code in [r.code for r in t.reasons], t
    assert t.placed == 0 and t.possible > 0 and t.best
    if kind == "down":
        assert t.best.startswith(f"{seat} down ")
    # the computer players' own turns are the best they found
    others = [x for x in a.turns if x is not t]
    assert not any(r.code in ("could-go-down", "could-go-out", "fewer-cards")
                   for x in others for r in x.reasons)


def test_fed_next_player_and_buys_agree_with_the_game():
    game, _ = play("analysis-1", mistake("lay"))
    a = analyse(game)
    moves = game.move_stack
    assert any(r.code == "buy-cost" for t in a.turns for r in t.reasons)
    fed = [t for t in a.turns if any(r.code == "fed-next-player" for r in t.reasons)]
    assert fed
    for t in fed:
        card = moves[t.turn + t.moves - 2].split()[-1]         # the turn's discard
        nxt = min((x for x in a.turns if x.turn >= t.turn + t.moves and x.seat == (t.seat + 1) % 4),
                  key=lambda x: x.turn)
        assert nxt.played.split(" ; ")[0] in (f"{nxt.seat} take", f"{nxt.seat} refuse")
        assert f"took the discard {card}" in " ".join(r.text for r in t.reasons)
    buys = [t for t in a.turns if t.played.split()[1] == "buy"]
    assert buys
    for t in buys:
        hand = game.results[t.figures["hand"] - 1]
        left = hand["cards"][t.seat]
        bought = t.figures["bought"]
        if not bought:                 # a request another seat's came before
            assert t.mark == "best" and t.figures["cost"] == 0
            continue
        assert len(bought) == 1 + game.rules.buy_extra
        kept = [c for c in bought if c in left]
        assert (t.mark == "inaccuracy") == (len(kept) == len(bought) and
                                           all(left.count(c) >= bought.count(c) for c in bought))


def test_points_in_hand_series_deterministic_and_json_round_trip():
    game, _ = play("analysis-1", mistake("down"))
    a = analyse(game)
    assert a.series_kind == "points_in_hand" and len(a.series) == 4
    turns = [t for t in a.turns if t.played.split()[1] != "buy"]
    assert [p for s in a.series for p in s] and sum(len(s) for s in a.series) == len(turns)
    for t in turns:
        assert (t.turn, t.figures["points_in_hand"]) in a.series[t.seat]
    again = analyse(game.record())
    assert again == a and again.to_json() == a.to_json()
    assert GameAnalysis.from_dict(json.loads(a.to_json())) == a


def test_a_player_thrown_where_the_rules_allow_it():
    game, (number, seat) = play("analysis-1", a_player_to_throw)
    t = turn_at(analyse(game), number, seat)
    codes = [r.code for r in t.reasons]
    assert "player-discarded" in codes and "fewer-cards" in codes and t.mark == "inaccuracy"
    card = t.played.split()[-1]
    assert f"discarded {card}" in " ".join(r.text for r in t.reasons)


def test_a_turn_going_out_with_everything_it_could_is_best():
    game, (number, seat) = play("analysis-1", mistake("down"))
    a = analyse(game)
    outs = [t for t in a.turns if t.played.split()[1] != "buy" and t.figures["cards_left"] == 0
            and t.turn != number]
    assert len(outs) >= 6                         # the hands' winners
    for t in outs:
        assert t.placed == t.possible > 0
        assert not any(r.mark == "miss" or r.code == "fewer-cards" for r in t.reasons)
    assert any(t.mark == "best" for t in outs)
