"""The ``"random"`` contract rummy level: legal moves chosen at random.

The bottom of the ladder, and the opponent a self-play test of the rules
needs: it follows every rule (each move it makes is one the game accepts)
and plays the game's shape — it goes down when the contract is in hand,
since a seat that never goes down is no player at all — but it chooses
everything else by chance: draw or take the discard, buy now and then, lay
off a card that fits or keep it, discard any card the rules allow (wild
cards included). Seeded, it is deterministic: the games app seeds it from
the game, the seat and the version, so the same task makes the same move.

Like every engine AI it reads only what its seat may see: its own hand and
the public state.
"""

from __future__ import annotations

import random

from ..game import ContractGame
from ..moves import Move
from ..rules import CONTRACTS
from .player import ContractPlayer, accepts, discard_first, find_contract

BUY_CHANCE = 0.1     # asks to buy a discard it may buy
TAKE_CHANCE = 0.5    # takes the discard rather than drawing
LAY_CHANCE = 0.5     # lays off a card that fits


class RandomContractPlayer:
    """Random legal play, one move at a time: ``choose(game, seat)`` (the
    interface of :class:`~engine.contract.ai.seat.ContractSeatPlayer`)."""

    name = "random"

    def __init__(self, seed: int | str | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: ContractGame, seat: int | None = None) -> Move | None:
        """The move ``seat`` makes now (``None``: the seat on turn), or
        ``None`` when a seat off turn does not buy. Does not change ``game``.

        :raises ValueError: the game is over, or no such seat.
        """
        if game.is_over:
            raise ValueError("the game is over")
        if seat is None:
            seat = game.active
        if not (isinstance(seat, int) and 0 <= seat < game.n):
            raise ValueError(f"no seat {seat!r} at a table of {game.n}")
        rng = self.rng
        if seat != game.active:
            return Move("buy", seat) if game.can_buy(seat) and rng.random() < BUY_CHANCE else None
        if game.phase == "draw":
            return self._draw(game, seat)
        move = self._play(game, seat, self.rng.random() < LAY_CHANCE)
        if move is None:
            move = self._discard(game, seat)
        if move is None:      # one card left, which plays: it must go out
            move = self._play(game, seat, True)
        if move is None:
            raise RuntimeError(f"seat {seat} has no legal move")
        return move

    def _draw(self, game: ContractGame, seat: int) -> Move:
        rng = self.rng
        takeable = (bool(game.discards) and not game.dead[-1]
                    and not (game.upcard and game.rules.first_upcard_buy_only))
        if game.requests_pending_consent():
            return Move("refuse" if takeable and rng.random() < TAKE_CHANCE else "allow", seat)
        if game.can_buy(seat) and rng.random() < BUY_CHANCE:
            return Move("buy", seat)          # seed 004: on one's own turn
        if takeable and rng.random() < TAKE_CHANCE:
            return Move("take", seat)
        return Move("draw", seat)

    def _play(self, game: ContractGame, seat: int, lay_off: bool) -> Move | None:
        """Go down when the contract is in hand; once down and ``lay_off``,
        lay off a card that fits; ``None`` to discard."""
        hand = game.hands[seat]
        R = game._r
        if not game.down[seat]:
            if not ContractPlayer(seat).within_reach(game, hand):
                return None
            sets, runs = CONTRACTS[game.hand_no]
            melds = find_contract(hand, sets, runs, game)
            if melds is None:
                return None
            candidates = [Move("down", seat, melds=tuple(tuple(m) for m in melds))]
        else:
            candidates = []
            for c in sorted(set(hand)):
                for i, m in enumerate(game.table):
                    for end in R.ends_for(c, m):
                        candidates.append(Move("lay", seat, card=c, target=i,
                                               end=end if m.kind == "run" else ""))
            if not candidates or not lay_off:
                return None
            self.rng.shuffle(candidates)
        for move in candidates:
            if move.action == "lay" and ContractPlayer._legal(game, move):
                return move
            if move.action == "down" and accepts(game, move):
                return move
        return None

    def _discard(self, game: ContractGame, seat: int) -> Move | None:
        """A card the rules let it discard, at random (or the buy seed
        004's second exception asks for first); ``None`` if none."""
        cards = sorted(set(game.hands[seat]))
        self.rng.shuffle(cards)
        return discard_first(game, seat, cards)
