"""Post-game analysis of contract rummy: each turn of each hand (the draw
or take, the plays, the discard) and each buy, judged with every hand
known.

At the moment a player has drawn, the analysis asks what the turn could
have done: a contract the hand makes (:func:`.ai.player.find_contract`),
and the computer player's plays (go down, lay off, swap wild cards) run on
a copy of the game until none is left, which says whether the player could
have gone out and how many cards could have left the hand. Every better
play is pushed on a copy before the turn is marked against it. Reasons
(``docs/analysis.md``):

- ``could-go-out`` (miss): the hand could have been emptied this turn;
- ``could-go-down`` (miss): the contract was in the hand, it was not laid;
- ``fewer-cards`` (inaccuracy): fewer cards played than could have been;
- ``player-discarded`` (inaccuracy): the discard played on a meld on the
  table (a "player") and the rules let it be thrown, while the hand held
  a card that did not play;
- ``fed-next-player`` (inaccuracy): the next player took that discard and
  went down or out with it in the same turn;
- ``buy-cost`` (inaccuracy, on the buy): every card a buy brought was
  still in the hand when the hand ended: it cost their points and did
  nothing; the cost of every buy is in its figures.
"""

from __future__ import annotations

from collections import Counter

from ..analysis import (GameAnalysis, SeriesBuilder, engine_version, inaccuracy, judged,
                        load_game, miss, need_over, parse_checked, push_checked)
from ..cards import TEXT, Card
from ..errors import IllegalMoveError
from .ai.player import ContractPlayer, find_contract
from .moves import Move
from .rules import CONTRACTS

_PLAYS = ("down", "lay", "swap")


def _copy(game):
    return type(game).from_snapshot(game.snapshot())


def _could(game, seat: int):
    """What the turn could do from here (``seat`` on turn, after drawing):
    ``(cards playable, moves, goes out, contract melds or None)``."""
    hand_no, hand = game.hand_no, list(game.hands[seat])
    down = None
    if not game.down[seat]:
        melds = find_contract(hand, *CONTRACTS[hand_no], game)
        if melds is not None:
            mv = Move("down", seat, melds=tuple(tuple(m) for m in melds))
            trial = _copy(game)
            try:
                trial.push(mv)
                down = mv
            except IllegalMoveError:
                pass
    trial = _copy(game)
    ai, moves = ContractPlayer(seat), []
    while True:
        mv = ai.play_moves(trial)
        if mv is None:
            break
        try:
            trial.push(mv)
        except IllegalMoveError:
            break
        moves.append(mv)
        if trial.over or trial.hand_no != hand_no:
            out = trial.results[-1]["winner"] == seat
            return len(hand), moves, out, down
    played = len(hand) - len(trial.hands[seat])
    if down is not None and not any(m.action == "down" for m in moves):
        played = max(played, sum(len(m) for m in down.melds))
    return played, moves, False, down


class _Item:
    """One turn (or one buy) while its moves are replayed."""

    def __init__(self, turn: int, seat: int, hand_no: int, buy: bool = False):
        self.turn, self.seat, self.hand_no, self.buy = turn, seat, hand_no, buy
        self.played: list[str] = []
        self.could = None
        self.down_before = False
        self.made = 0
        self.reasons: list = []
        self.best: str | None = None
        self.figures: dict = {}
        self.got: Counter = Counter()       # a buy: the cards it brought
        self.out = False


def _judge_turn(it: _Item) -> None:
    played, moves, out, down = it.could or (0, [], False, None)
    actions = [p.split()[1] for p in it.played]
    if out and not it.out:
        plays = " ; ".join(m.body() for m in moves)
        it.reasons.append(miss("could-go-out", "could have gone out this turn: " + plays, moves=plays))
        it.best = " ; ".join(str(m) for m in moves)
    elif down is not None and "down" not in actions:
        it.reasons.append(miss("could-go-down", f"held the contract and did not go down "
                                                f"({down.body()})", move=down.body()))
        it.best = str(down)
    elif it.made < played and not it.out:
        plays = " ; ".join(m.body() for m in moves)
        words = f"{it.made} card" if it.made == 1 else f"{it.made} cards"
        it.reasons.append(inaccuracy("fewer-cards", f"played {words} where {played} could go: " + plays,
                                     played_cards=it.made, best=played, moves=plays))
        it.best = " ; ".join(str(m) for m in moves)
    it.figures["possible"] = max(played, it.made)


def _hand_points(game, seat: int) -> int:
    return sum(game.rules.card_points(c) for c in game.hands[seat])


def analyse(source) -> GameAnalysis:
    """The analysis of a finished contract rummy game (a record as text, a
    :class:`engine.records.GameRecord`, or a finished game).

    :raises AnalysisError: the game is not over or does not replay.
    """
    game, moves = load_game(source)
    items: list[_Item] = []
    series = SeriesBuilder(game.n)
    cur: _Item | None = None
    pending: dict[int, _Item] = {}        # buyer -> its buy not yet given cards
    last_discard: tuple[_Item, int] | None = None
    feeder = None    # (the discarder's turn, the card, copies held before) taken this turn
    for turn, text in moves:
        move = parse_checked(game, text, turn)
        actor = move.seat if move.seat is not None else game.active
        hand_no = game.hand_no
        buys, hands = list(game.buys), [Counter(h) for h in game.hands]
        if move.action == "buy" and actor != game.active:
            target = _Item(turn, actor, hand_no, buy=True)
            items.append(target)
            pending[actor] = target
        elif move.action == "undo":
            target = next((i for i in reversed(items) if i.seat == actor), None)
        else:
            if cur is None or cur.seat != actor:
                cur = _Item(turn, actor, hand_no)
                cur.down_before = game.down[actor]
                items.append(cur)
                feeder = None
                if move.action in ("take", "refuse") and last_discard is not None \
                        and last_discard[0].hand_no == hand_no:
                    feeder = (*last_discard, hands[actor][last_discard[1]])
            target = cur
            if game.phase == "play" and cur.could is None and actor == game.active:
                cur.could = _could(game, actor)
            if move.action == "discard":
                hand = game.hands[actor]
                plays = game._r.plays
                if game.table and plays(move.card, game.table) and \
                        not all(plays(c, game.table) for c in hand):
                    cur.reasons.append(inaccuracy("player-discarded", f"discarded {TEXT[move.card]}, "
                                                  f"which played on a meld on the table",
                                                  card=TEXT[move.card]))
        size = len(game.hands[actor])
        push_checked(game, move, turn)
        ended = game.over or game.hand_no != hand_no
        for s in range(game.n):     # buys given their cards by this move
            if s in pending and not ended and game.buys[s] > buys[s]:
                pending.pop(s).got = Counter(game.hands[s]) - hands[s]
        if move.action in _PLAYS and cur is not None:
            cur.made += size - (0 if ended else len(game.hands[actor]))
        if target is not None:
            target.played.append(str(move))
        if ended:
            _end_hand(game, items, hand_no)
            pending.clear()
        if cur is not None and (ended or game.active != cur.seat):
            cur.out = ended and game.results[-1]["winner"] == cur.seat
            used = feeder is not None and (cur.out or (
                not ended and game.hands[cur.seat].count(feeder[1]) <= feeder[2]))
            if used and ("down" in [p.split()[1] for p in cur.played] or cur.out):
                it, card, _ = feeder
                it.reasons.append(inaccuracy("fed-next-player", f"seat {cur.seat} took the "
                                             f"discard {TEXT[card]} and went "
                                             f"{'out' if cur.out else 'down'} with it",
                                             seat=cur.seat, card=TEXT[card],
                                             went="out" if cur.out else "down"))
            last_discard = (cur, move.card) if move.action == "discard" and not ended else None
            pts = game.results[-1]["points"][cur.seat] if ended else _hand_points(game, cur.seat)
            cur.figures.update(hand=hand_no + 1, points_in_hand=pts,
                               cards_left=0 if cur.out else len(game.hands[cur.seat]) if not ended
                               else len(game.results[-1]["cards"][cur.seat]))
            series.add(cur.seat, cur.turn, pts)
            cur = None
    need_over(game)
    turns = []
    for it in items:
        if not it.buy:
            _judge_turn(it)
        possible = it.figures.pop("possible", it.made)
        turns.append(judged(it.turn, it.seat, " ; ".join(it.played), it.best, it.reasons,
                            placed=it.made, possible=possible, moves=max(1, len(it.played)),
                            figures=it.figures))
    return GameAnalysis(game.family, game.variant, game.n, tuple(turns), "points_in_hand",
                        series.freeze(), engine_version(), None)


def _end_hand(game, items: list[_Item], hand_no: int) -> None:
    """The cost of each buy of the hand that just ended: the points of the
    cards it brought still held at the end."""
    result = game.results[-1]
    for it in items:
        if not it.buy or it.hand_no != hand_no:
            continue
        left = Counter(int(Card.parse(c)) for c in result["cards"][it.seat])
        kept = it.got & left
        cost = sum(game.rules.card_points(c) * k for c, k in kept.items())
        it.figures.update(hand=hand_no + 1, bought=[TEXT[c] for c in sorted(it.got.elements())],
                          cost=cost)
        if it.got and kept == it.got:
            bought = " ".join(TEXT[c] for c in sorted(it.got.elements()))
            it.reasons.append(inaccuracy("buy-cost", f"the buy brought {bought}; "
                                         f"all were still in hand when the hand ended, "
                                         f"costing {cost} points", cards=bought, points=cost))


__all__ = ["analyse"]
