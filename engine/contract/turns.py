"""What each move of a turn does to a contract rummy game: drawing, taking
and buying the discard (with its requests, consent and priority), undoing a
discard, discarding (the "players" rule), going down, laying off and
swapping a wild card.

:class:`Turns` is a mixin of :class:`~engine.contract.game.ContractGame`,
which holds the state and whose :meth:`push` checks the seat and calls the
handler named after the action (``_draw``, ``_buy``, ``_down`` ...). Each
handler checks the rules and changes the state, or raises
:class:`IllegalMoveError` naming the rule, with the state unchanged.
"""

from __future__ import annotations

from typing import Any

from ..base import Outcome
from ..cards import JOKER_CODE, TEXT
from ..errors import IllegalMoveError
from .melds import Meld, lay
from .moves import Move
from .rules import CONTRACTS, contract_text


class Turns:
    """The move handlers of :class:`~engine.contract.game.ContractGame`
    (a mixin: the state it reads and writes is set up there)."""

    # --- drawing, taking and buying the discard -----------------------------------
    def _need_phase(self, phase: str, what: str) -> None:
        if self.phase != phase:
            if phase == "draw":
                raise IllegalMoveError(f"cannot {what}: already drew this turn", "already-drew")
            raise IllegalMoveError(f"cannot {what} before drawing", "draw-first")

    def _close_windows(self) -> None:
        self.window = False
        self.requests = []
        self.undo_info = None

    def _give(self, seat: int, extra: int) -> list[int]:
        """Top discard plus ``extra`` stock cards to ``seat``."""
        got = [self.discards.pop()]
        self.dead.pop()
        for _ in range(extra):
            c = self._pop_stock()
            if c is None:
                break
            got.append(c)
        self.hands[seat].extend(got)
        self.picked[seat].append(got[0])
        self.buys[seat] += 1
        return got

    def _draw(self) -> Outcome:
        self._need_phase("draw", "draw")
        if self.requests_pending_consent():
            raise IllegalMoveError(
                f"seat {self.requests[0]} asked to buy the discard: allow or refuse first",
                "answer-buy-request")
        detail: dict[str, Any] = {}
        if self.requests:
            # next in turn after the seat that put the card there (the
            # discarder, or the dealer who turned the first upcard), that
            # seat itself last: it cannot buy back a discard of its own, but
            # the dealer may buy the upcard, after everyone else
            ref = self.window_ref
            buyer = min(self.requests, key=lambda s: (s - ref - 1) % self.n)
            got = self._give(buyer, self.rules.buy_extra)
            detail["bought"] = {"seat": buyer, "cards": [TEXT[c] for c in got]}
        self._close_windows()
        self.upcard = False
        c = self._pop_stock()
        if c is None:
            return self._end_hand(None)
        self.hands[self.active].append(c)
        self.phase = "play"
        self.took = False
        detail["card"] = TEXT[c]
        return Outcome("drew", self.active, detail)

    def _take(self) -> Outcome:
        self._need_phase("draw", "take the discard")
        if not self.discards:
            raise IllegalMoveError("the discard pile is empty", "no-discard")
        if self.dead[-1]:
            raise IllegalMoveError("that discard is dead: nobody may take or buy it", "dead-discard")
        if self.upcard and self.rules.first_upcard_buy_only:
            raise IllegalMoveError("the hand's first upcard can only be bought", "upcard-buy-only")
        refused = self.requests[0] if self.requests_pending_consent() else None
        c = self.discards.pop()
        self.dead.pop()
        self.hands[self.active].append(c)
        self.picked[self.active].append(c)
        self._close_windows()
        self.upcard = False
        self.phase = "play"
        self.took = True
        self._open_beneath()
        detail = {"card": TEXT[c]}
        if refused is not None:
            detail["refused"] = refused
        return Outcome("took", self.active, detail)

    def _open_beneath(self) -> None:
        if self.rules.buy_beneath and not self.beneath_used and self._top_buyable():
            self.beneath = True
            self.beneath_used = True

    def _refuse(self) -> Outcome:
        if not self.requests_pending_consent() or self.phase != "draw":
            raise IllegalMoveError("no buy request to refuse", "no-buy-request")
        out = self._take()
        return Outcome("refused", self.active, out.detail)

    def _allow(self) -> Outcome:
        if not self.requests_pending_consent() or self.phase != "draw":
            raise IllegalMoveError("no buy request to allow", "no-buy-request")
        buyer = self.requests[0]
        got = self._give(buyer, self.rules.buy_extra)
        self._close_windows()
        self.upcard = False
        return Outcome("bought", buyer, {"cards": [TEXT[c] for c in got],
                                         "allowed_by": self.active})

    def _must_buy_exception(self) -> bool:
        """Seed 004 exception 2: every card in hand is a "player"."""
        if not self.rules.players_rule or self.phase != "play" or not self.table:
            return False
        plays = self._r.plays
        return all(plays(c, self.table) for c in self.hands[self.active])

    def _buy(self, actor: int) -> Outcome:
        if not 0 <= actor < self.n:
            raise IllegalMoveError(f"no seat {actor}", "no-such-seat")
        rules = self.rules
        if not self.discards:
            raise IllegalMoveError("the discard pile is empty", "no-discard")
        if self.dead[-1]:
            raise IllegalMoveError("that discard is dead: nobody may take or buy it", "dead-discard")
        if self.buys[actor] >= rules.buy_limit:
            raise IllegalMoveError(f"seat {actor} has bought {rules.buy_limit} times this hand",
                                   "buy-limit")
        if actor == self.active:
            if self.phase == "draw":
                if not rules.own_turn_buy:
                    raise IllegalMoveError("no buying on one's own turn: draw or take the discard",
                                           "own-turn-buy")
                got = self._give(actor, rules.own_turn_extra)
                self._close_windows()
                self.upcard = False
                self.phase = "play"
                self.took = True
                return Outcome("bought", actor, {"cards": [TEXT[c] for c in got], "own_turn": True})
            if not self._must_buy_exception():
                raise IllegalMoveError("already drew this turn; a player may buy after drawing "
                                       "only when every card in hand is a player", "buy-window-closed")
            self.beneath = False
            got = self._give(actor, rules.buy_extra)
            return Outcome("bought", actor, {"cards": [TEXT[c] for c in got], "forced": True})
        if self.beneath:
            self.beneath = False
            got = self._give(actor, rules.buy_extra)
            return Outcome("bought", actor, {"cards": [TEXT[c] for c in got], "beneath": True})
        if not self.window or self.phase != "draw":
            raise IllegalMoveError("the buy window is closed (the player on turn has drawn)",
                                   "buy-window-closed")
        if actor == self.window_discarder:
            raise IllegalMoveError("a player cannot buy back his own discard", "own-discard")
        if actor in self.requests:
            raise IllegalMoveError(f"seat {actor} already asked to buy this card", "buy-already-asked")
        if rules.buy_consent:
            if self.requests:
                raise IllegalMoveError(f"seat {self.requests[0]} asked first", "buy-already-asked")
            self.requests = [actor]
            return Outcome("buy-requested", actor, {})
        if rules.buy_priority == "next-in-turn":
            self.requests.append(actor)
            return Outcome("buy-requested", actor, {})
        got = self._give(actor, rules.buy_extra)
        self._close_windows()
        self.upcard = False
        return Outcome("bought", actor, {"cards": [TEXT[c] for c in got]})

    def _undo(self, actor: int) -> Outcome:
        if not self.rules.undo_discard:
            raise IllegalMoveError("these rules have no undo", "no-undo")
        u = self.undo_info
        if u is None:
            raise IllegalMoveError("nothing to undo (the next player has drawn)", "no-undo")
        if u["seat"] != actor:
            raise IllegalMoveError(f"only seat {u['seat']} may undo its discard", "no-undo")
        c = self.discards.pop()
        self.dead.pop()
        self.hands[actor].append(c)
        self.active = actor
        self.phase = "play"
        self.took = u["took"]
        self.beneath = False
        self.beneath_used = u["beneath_used"]
        self.window = False
        self.requests = []
        self.undo_info = None
        self.turn -= 1
        return Outcome("undone", actor, {"card": TEXT[c]})

    # --- discarding ----------------------------------------------------------------
    def check_discard(self, card: int) -> bool:
        """Whether the player on turn may discard ``card`` now; returns
        whether it would be dead (seed 004's exceptions to the "players"
        rule: nobody may take or buy it).

        :raises IllegalMoveError: the discard is not allowed (``.rule``).
        """
        self._need_phase("play", "discard")
        c = card
        hand = self.hands[self.active]
        if c not in hand:
            raise IllegalMoveError(f"{TEXT[c]} is not in seat {self.active}'s hand", "not-in-hand")
        if len(hand) < 2:
            raise IllegalMoveError("a player may not discard his last card: go out by playing it",
                                   "last-card-discard")
        dead = False
        if self.rules.players_rule and self._r.plays(c, self.table):
            if c != JOKER_CODE and hand.count(c) >= 2 and self._r.plays_on_run(c, self.table):
                dead = True          # exception 1: a pair, one plays on a run
            elif self._must_buy_exception():
                if self._top_buyable() and self.buys[self.active] < self.rules.buy_limit:
                    raise IllegalMoveError(
                        "every card in hand is a player: buy the top discard first",
                        "players-rule-buy-first")
                dead = True          # exception 2, no buy left
            else:
                raise IllegalMoveError(
                    f"{TEXT[c]} plays on a meld on the table (a \"player\"): it may not be "
                    f"discarded", "players-rule")
        return dead

    def _discard(self, move: Move) -> Outcome:
        c = move.card
        dead = self.check_discard(c)
        hand = self.hands[self.active]
        self.beneath = False
        hand.remove(c)
        self.discards.append(c)
        self.dead.append(dead)
        seat = self.active
        self.undo_info = ({"seat": seat, "took": self.took, "beneath_used": self.beneath_used}
                          if self.rules.undo_discard else None)
        self.active = (seat + 1) % self.n
        self.phase = "draw"
        self.took = False
        self.window = not dead
        self.window_ref = seat
        self.window_discarder = seat
        self.upcard = False
        self.requests = []
        self.beneath_used = False
        self.turn += 1
        return Outcome("discarded", seat, {"card": TEXT[c], "dead": dead})

    # --- going down, laying off, swapping a wild ------------------------------------
    def _check_left(self, left: int, last: int | None, table: list[Meld]) -> None:
        """Going-out rules for a hand left with ``left`` cards after a play."""
        if left >= 2:
            return
        if self.took and self.rules.no_out_after_take:
            raise IllegalMoveError("no going out on a turn the discard was taken (keep two "
                                   "cards: one to discard)", "no-out-after-take")
        if left == 1 and not self._r.plays(last, table):
            raise IllegalMoveError(
                f"that would leave {TEXT[last]} alone in hand: it cannot be discarded "
                f"(the last card) nor played", "last-card-stranded")

    def _take_from_hand(self, cards) -> list[int]:
        hand = list(self.hands[self.active])
        for c in cards:
            try:
                hand.remove(c)
            except ValueError:
                raise IllegalMoveError(
                    f"seat {self.active} does not hold {TEXT[c]} (enough times)",
                    "not-in-hand") from None
        return hand

    def _down(self, move: Move) -> Outcome:
        self._need_phase("play", "go down")
        seat = self.active
        if self.down[seat]:
            raise IllegalMoveError("already down this hand: lay off instead", "already-down")
        hand = self._take_from_hand([c for m in move.melds for c in m])
        melds = [self._r.build(list(m), seat) for m in move.melds]
        sets = sum(1 for m in melds if m.kind == "set")
        runs = len(melds) - sets
        need_s, need_r = CONTRACTS[self.hand_no]
        want = contract_text(self.hand_no)
        if sets < need_s or runs < need_r:
            raise IllegalMoveError(f"hand {self.hand_no + 1} asks for {want}; these melds are "
                                   f"{sets} set(s) and {runs} run(s)", "contract-not-met")
        if self.rules.exact_melds and (sets, runs) != (need_s, need_r):
            raise IllegalMoveError(f"no more melds than the contract ({want})", "too-many-melds")
        if self.rules.run_suits_distinct:
            suits = [m.suit for m in melds if m.kind == "run"]
            if len(set(suits)) != len(suits):
                raise IllegalMoveError("each run of the contract must be in its own suit",
                                       "run-suits")
        table = self.table + melds
        self._check_left(len(hand), hand[0] if hand else None, table)
        self.beneath = False
        self.hands[seat] = hand
        self.table = table
        self.down[seat] = True
        if not hand:
            return self._end_hand(seat)
        return Outcome("went-down", seat, {"melds": [m.text() for m in melds]})

    def _meld(self, index: int | None) -> Meld:
        if index is None or not 0 <= index < len(self.table):
            raise IllegalMoveError(f"no meld {None if index is None else index + 1} on the "
                                   f"table ({len(self.table)} melds)", "no-such-meld")
        return self.table[index]

    def _end_for(self, card: int, m: Meld, end: str, index: int) -> str:
        ends = self._r.ends_for(card, m)
        if not ends:
            raise IllegalMoveError(f"{TEXT[card]} does not fit meld {index + 1} ({m.text()})",
                                   "does-not-fit")
        if end:
            if m.kind == "set":
                raise IllegalMoveError("a set has no ends: leave out + / -", "does-not-fit")
            if end not in ends:
                raise IllegalMoveError(f"{TEXT[card]} does not fit the {end} end of meld "
                                       f"{index + 1}", "does-not-fit")
            return end
        if len(ends) > 1:
            raise IllegalMoveError(f"{TEXT[card]} fits both ends of meld {index + 1}: "
                                   f"say which ({index + 1}+ or {index + 1}-)", "which-end")
        return ends[0]

    def _need_down(self, what: str) -> None:
        self._need_phase("play", what)
        if not self.down[self.active]:
            raise IllegalMoveError("go down with the contract before laying off", "not-down")

    def _commit(self, hand: list[int], table: list[Meld]) -> Outcome | None:
        """Store the active seat's hand and the table after a lay-off or a
        swap (once what is left is allowed); the hand's end when the hand is
        empty, else ``None`` for the caller's own outcome."""
        self._check_left(len(hand), hand[0] if hand else None, table)
        self.beneath = False
        self.hands[self.active] = hand
        self.table = table
        return self._end_hand(self.active) if not hand else None

    def _lay(self, move: Move) -> Outcome:
        self._need_down("lay off")
        c = move.card
        hand = self._take_from_hand([c])
        m = self._meld(move.target)
        end = self._end_for(c, m, move.end, move.target)
        new = m.copy()
        lay(new, c, end, self._r.is_wild(c))
        table = list(self.table)
        table[move.target] = new
        return self._commit(hand, table) or Outcome("laid-off", self.active,
                                                    {"card": TEXT[c], "meld": move.target + 1})

    def _swap(self, move: Move) -> Outcome:
        self._need_down("swap a wild card")
        c = move.card
        hand = self._take_from_hand([c])
        m = self._meld(move.target)
        slot = self._r.swap_slot(c, m)
        if slot is None:
            raise IllegalMoveError(f"{TEXT[c]} replaces no wild card of meld {move.target + 1} "
                                   f"({m.text()}); wild cards in sets are buried", "no-wild-to-replace")
        if move.wild_target == move.target:
            raise IllegalMoveError("the freed wild card must go to another meld", "wild-same-meld")
        t = self._meld(move.wild_target)
        new = m.copy()
        w = new.cards[slot]
        new.cards[slot] = c
        new.wilds -= 1
        end = self._end_for(w, t, move.end, move.wild_target)
        new_t = t.copy()
        lay(new_t, w, end, True)
        table = list(self.table)
        table[move.target] = new
        table[move.wild_target] = new_t
        return self._commit(hand, table) or Outcome("swapped", self.active, {"card": TEXT[c], "wild": TEXT[w],
                                                "meld": move.target + 1,
                                                "to": move.wild_target + 1})
