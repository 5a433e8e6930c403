"""A determinized look-ahead for contract rummy's top level.

:func:`sample_worlds` deals the cards a seat cannot see (the pack less its
hand, the table and the discard pile) into the other hands and the stock,
consistently with what it sees: each other hand keeps its size and holds
the discards that player took (public) while they are unseen, and the
stock keeps its size. The random source is seeded by the level's seed and
the public position only, so scrambling the hidden cards changes nothing.

:func:`rollout` plays one sampled world to the end of the hand with fast
policies in every seat (no move history, no next hand) and returns each
seat's points; :func:`best_of` compares candidate moves on the same worlds
(common random numbers) by the mean of the seat's hand points less the
others' average.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable, Sequence

from ...base import Outcome
from ...cards import deck_counter
from ...errors import IllegalMoveError
from ..game import ContractGame
from ..moves import Move

MAX_TURNS = 90    # turns a rollout plays before it scores the hands as they are

_SIM_CLASSES: dict[type, type] = {}


def _sim_class(cls: type) -> type:
    """A subclass of ``cls`` whose hand end records the points and stops
    (no next hand is dealt, no results are written)."""
    sim = _SIM_CLASSES.get(cls)
    if sim is None:
        def _end_hand(self, winner):
            self.sim_points = [sum(self.rules.card_points(c) for c in h) for h in self.hands]
            self.over = True
            return Outcome("hand-over", winner, {}, True)

        sim = type(f"Sim{cls.__name__}", (cls,), {"_end_hand": _end_hand, "__module__": __name__})
        _SIM_CLASSES[cls] = sim
    return sim


def clone(game: ContractGame) -> ContractGame:
    """A copy of ``game`` to play the rest of the hand on: lists copied,
    melds shared (the engine replaces a meld it changes), the move history
    cut to what the stall check reads."""
    g = object.__new__(_sim_class(type(game)))
    d = dict(game.__dict__)
    for name in ("stock", "discards", "dead", "table", "down", "buys", "requests", "totals"):
        d[name] = list(d[name])
    d["hands"] = [list(h) for h in game.hands]
    d["picked"] = [list(p) for p in game.picked]
    d["move_stack"] = game.move_stack[-60:]
    d["results"] = []
    d["sim_points"] = None
    g.__dict__.update(d)
    return g


def unseen(game: ContractGame, seat: int) -> Counter:
    """The cards ``seat`` cannot see: the pack less its hand, the table and
    the discard pile."""
    rules = game.rules
    left = deck_counter(rules.decks_for(game.n), rules.jokers_per_deck)
    left.subtract(game.hands[seat])
    for m in game.table:
        left.subtract(m.cards)
    left.subtract(game.discards)
    return +left


def public_rng(game: ContractGame, seat: int, seed: str, tag: str = "") -> random.Random:
    """A random source fixed by the seed and the public position."""
    return random.Random(f"{seed}|{tag}|{game.hand_no}|{len(game.move_stack)}|{game.turn}|{seat}|"
                         f"{game.active}|{game.phase}|{len(game.stock)}")


def sample_worlds(game: ContractGame, seat: int, count: int, rng: random.Random) -> list[ContractGame]:
    """``count`` copies of ``game`` with the cards ``seat`` cannot see dealt
    anew (other hands' sizes and the stock's size kept; each other hand
    first gets the discards its player took while they are unseen)."""
    pool = unseen(game, seat)
    others = [s for s in range(game.n) if s != seat]
    known: dict[int, list[int]] = {}
    for s in others:
        got: list[int] = []
        size = len(game.hands[s])
        for c in reversed(game.picked[s]):
            if len(got) < size and pool[c] > 0:
                pool[c] -= 1
                got.append(c)
        known[s] = got
    cards = sorted(pool.elements())
    worlds = []
    for _ in range(count):
        deck = list(cards)
        rng.shuffle(deck)
        g = clone(game)
        i = 0
        for s in others:
            k = len(game.hands[s]) - len(known[s])
            g.hands[s] = known[s] + deck[i:i + k]
            i += k
        g.stock = deck[i:i + len(game.stock)]
        g.seed = f"sim-{rng.random()}"
        worlds.append(g)
    return worlds


def _finish_turn(g: ContractGame, me) -> None:
    """Plays then the discard of the seat on turn, after its draw."""
    hand_no = g.hand_no
    while True:
        mv = me.play_moves(g)
        if mv is None:
            break
        try:
            g.push(mv)
        except IllegalMoveError:
            break
        if g.over or g.hand_no != hand_no:
            return
    while not g.over:
        mv = me.discard_move(g)
        g.push(mv)
        if mv.action == "discard":
            return


def rollout(g: ContractGame, players: Sequence, max_turns: int = MAX_TURNS) -> list[int]:
    """Play ``g`` (a :func:`clone`) to the end of the hand with ``players``
    (policies, one a seat) from a turn's start, or from the middle of one
    (phase ``play``); each seat's points (cards left in hand)."""
    from .player import play_turn
    if not g.over and g.phase == "play":
        _finish_turn(g, players[g.active])
    for _ in range(max_turns):
        if g.over:
            break
        play_turn(g, players)
    if g.sim_points is not None:
        return g.sim_points
    return [sum(g.rules.card_points(c) for c in h) for h in g.hands]


def best_of(game: ContractGame, seat: int, candidates: list[Move | None], worlds: list[ContractGame],
            make_players: Callable[[ContractGame], Sequence],
            after: Callable[[ContractGame, Move, Sequence], None] | None = None) -> tuple[int, list[float]]:
    """The index of the candidate with the best mean of ``seat``'s points
    less the others' average (fewer is better) over ``worlds``, and every
    candidate's mean. ``after(g, move, players)`` readies a world before
    the move is pushed (``None``: nothing is pushed). A candidate the rules refuse in a world scores as
    the worst."""
    n = game.n
    means = []
    for mv in candidates:
        total = 0.0
        for w in worlds:
            g = clone(w)
            players = make_players(g)
            if after is not None:
                after(g, mv, players)
            if mv is not None:
                try:
                    g.push(mv)
                except IllegalMoveError:
                    total += 1e6
                    continue
            pts = rollout(g, players)
            others = (sum(pts) - pts[seat]) / (n - 1)
            total += pts[seat] - others
        means.append(total / len(worlds))
    best = min(range(len(candidates)), key=lambda i: (means[i], i))
    return best, means


class _NoBuyOnce:
    """Wraps a policy so that it does not buy on turn ``turn`` (the branch
    of a buy decision that passes)."""

    def __init__(self, policy, turn: int):
        self.policy = policy
        self.turn = turn

    def __getattr__(self, name):
        return getattr(self.policy, name)

    def wants_buy(self, game: ContractGame) -> bool:
        return game.turn != self.turn and self.policy.wants_buy(game)
