"""The contract rummy ladder, weakest first: ``random`` < ``basic`` <
``strong`` < ``expert`` (:data:`engine.contract.ai.LEVELS`; ``standard``,
the name the one level had before, stays an alias of ``strong``).

- ``random`` (:mod:`.random_player`): legal moves at random; it goes down
  when it can.
- ``basic`` (:class:`BasicPolicy`): goes down as soon as it can, lays off
  every card that fits, takes the discard as ``strong`` does, but never
  buys, and discards the card its contract needs least (most points first),
  without a thought for the others: a card that plays on the table or that
  a player collects is thrown like any other.
- ``strong`` (:class:`~.player.ContractPlayer`): the policy described in
  :mod:`.player`: it buys near the contract, keeps its wild cards, does not
  discard cards that play on the table or that players not yet down collect.
- ``expert`` (:class:`ExpertPolicy`): ``strong``,
  but it buys whatever brings its contract nearer, at any time of the hand
  (measured: its buys are what it wins by), goes down with every further
  meld its hand holds (where the rules allow more melds than the contract:
  cards left in melds in hand can never be laid off). Its discard is the
  card its contract needs least, then the one with the least promise (a
  second card of its rank for set contracts, cards of its suit within two
  for run contracts), then not one that feeds the next player (the ranks
  and run neighbours of the cards they took, or, once they are down, any
  card that plays on the table), then not a "player"; ``strong`` keeps
  "players" even at the cost of a card its contract needs.

Each reads only what its seat may see (its hand and the public state: the
table, the discards, what each player took, counts).
"""

from __future__ import annotations

from collections import Counter

from ..game import ContractGame
from ..moves import Move
from .player import ContractPlayer, accepts, discard_first
from .seat import ContractSeatPlayer

KEEP = 0   # cards a go-down with further melds leaves in hand at least (0: it may go out)

def _discard_first(game: ContractGame, seat: int, ordered: list[int]) -> Move:
    """The first of ``ordered`` the rules let ``seat`` discard (or the buy
    seed 004's second exception asks for)."""
    found = discard_first(game, seat, ordered)
    if found is None:
        raise RuntimeError(f"seat {seat} has no legal discard")
    return found


class BasicPolicy(ContractPlayer):
    """``basic``: no buys; the discard its contract needs least."""

    def wants_buy(self, game: ContractGame) -> bool:
        return False

    def draw_move(self, game: ContractGame) -> Move:
        move = super().draw_move(game)
        return Move("draw", self.seat) if move.action == "buy" else move

    def discard_move(self, game: ContractGame) -> Move:
        hand, R, marg, keep_wilds = _discard_view(self, game)
        ordered = sorted(set(hand), key=lambda c: (c == self.taken, R.is_wild(c) and keep_wilds,
                                                   marg.get(c, 0), -game.rules.card_points(c), c))
        return _discard_first(game, self.seat, ordered)


class ExpertPolicy(ContractPlayer):
    """``expert``: buys whatever brings the contract nearer; goes down with
    every meld in hand; discards by what the contract needs, then by
    promise, then not feeding the next player."""

    def wants_buy(self, game: ContractGame) -> bool:
        """Buy whatever brings the contract nearer: a wild card it has room
        for, a natural card that raises its value (``strong`` buys a
        natural card only within a card of the contract). Measured: the
        buys are what ``expert`` wins by (without them it wins no more than
        its fair share against ``basic``), and holding back once the hand
        may end soon (a player down with few cards, a short stock) won
        less."""
        offer = self._buy_offer(game)
        if offer is None:
            return False
        hand, card = offer
        if game._r.is_wild(card):
            return self._wild_room(game, hand + [card])
        return self._gain(game, card, hand) >= 1

    def play_moves(self, game: ContractGame) -> Move | None:
        """As ``strong``, but a go-down takes along every further meld the
        rest of the hand holds (where the rules allow more melds than the
        contract): cards left in melds in hand can never be laid off."""
        mv = super().play_moves(game)
        if mv is None or mv.action != "down" or game.rules.exact_melds:
            return mv
        melds = [list(m) for m in mv.melds]
        rest = list(game.hands[self.seat])
        for m in melds:
            for c in m:
                rest.remove(c)
        extra = _extra_melds(game, rest, melds)
        while extra:
            trial = Move("down", self.seat, melds=tuple(tuple(m) for m in melds + extra))
            if accepts(game, trial):
                return trial
            extra.pop()
        return mv

    def _feeds_next(self, game: ContractGame) -> set[int]:
        """The cards that would feed the next player: once down, any card
        that plays on the table; before, the ranks (set contracts) and run
        neighbours (run contracts) of the cards they took."""
        nxt = (self.seat + 1) % game.n
        R = game._r
        sets, runs = self._need(game)
        out: set[int] = set()
        hand = set(game.hands[self.seat])
        if game.down[nxt]:
            return {c for c in hand if game.table and R.plays(c, game.table)}
        for c in game.picked[nxt]:
            if R.is_wild(c):
                continue
            if sets:
                out.update(h for h in hand if h % 13 == c % 13 and not R.is_wild(h))
            if runs:
                for d in (-1, 0, 1):
                    if 0 <= c % 13 + d < 13:
                        out.add(c + d)
        return out

    def _discard_order(self, game: ContractGame) -> list[int]:
        """Its hand's cards, the one to throw first first: the card its
        contract needs least (:meth:`_marginals`), then the
        one with the least promise (:func:`_promise`), then not one that
        feeds the next player, not a "player", not one the others collect,
        the most points."""
        hand, R, marg, keep_wilds = _discard_view(self, game)
        wanted = self._wanted_by_others(game)
        feeds = self._feeds_next(game)
        table = game.table
        sets, runs = self._need(game)
        promise = (lambda c: 0) if game.down[self.seat] else _promise(game, hand, sets, runs)

        def key(c: int) -> tuple:
            player = bool(table) and R.plays(c, table)
            helps = (c % 13) in wanted[0] or c in wanted[1]
            return (c == self.taken, R.is_wild(c) and keep_wilds, marg.get(c, 0), promise(c),
                    c in feeds, player, helps, -game.rules.card_points(c), c)

        return sorted(set(hand), key=key)

    def discard_move(self, game: ContractGame) -> Move:
        """The first card of :meth:`_discard_order` the rules let it throw."""
        return _discard_first(game, self.seat, self._discard_order(game))


def _discard_view(player: ContractPlayer, game: ContractGame):
    """What every level's discard starts from: the hand, the rules' card
    reader, what each natural card adds to the contract (nothing once
    down) and whether wild cards are kept (the hand has room for them, or
    it is down)."""
    hand = game.hands[player.seat]
    down = game.down[player.seat]
    marg = {} if down else player._marginals(game, hand)[1]
    return hand, game._r, marg, player._wild_room(game, hand) or down


def _extra_melds(game: ContractGame, rest: list[int], contract: list[list[int]]) -> list[list[int]]:
    """Melds of natural cards in ``rest`` beyond the contract's: sets of
    three or more of a rank, runs of four or more in a suit no run of the
    contract uses (when runs of one go-down need their own suits), longest
    first, as many as leave :data:`KEEP` cards in hand or more (the rules
    then judge the go-down: going out with it, or a last card that must
    play on the table)."""
    R = game._r
    nat = [c for c in rest if not R.is_wild(c)]
    out: list[list[int]] = []
    used_suits = {c // 13 for m in contract for c in m
                  if not R.is_wild(c) and len({x % 13 for x in m if not R.is_wild(x)}) > 1}
    ranks = Counter(c % 13 for c in nat)
    for r, k in sorted(ranks.items(), key=lambda t: -t[1]):
        if k >= 3:
            out.append([c for c in nat if c % 13 == r])
    taken = Counter(c for m in out for c in m)
    left = list((Counter(nat) - taken).elements())
    high = 14
    for suit in range(4):
        if game.rules.run_suits_distinct and suit in used_suits:
            continue
        ps = sorted({c % 13 + 2 for c in left if c // 13 == suit})
        run: list[int] = []
        for p in ps + [99]:
            if run and p == run[-1] + 1 and p <= high:
                run.append(p)
                continue
            if len(run) >= 4:
                out.append([suit * 13 + q - 2 for q in run])
                if game.rules.run_suits_distinct:
                    break
            run = [p]
    size = sum(len(m) for m in out)
    while out and len(rest) - size < KEEP:
        size -= len(out.pop())
    return out


def _promise(game: ContractGame, hand: list[int], sets: int, runs: int):
    """A card's promise beyond what it adds to the contract now: for set
    contracts two if another card of its rank is in hand, for run contracts
    one for each card of its suit within two of it. Wild cards: none."""
    R = game._r
    nat = [c for c in hand if not R.is_wild(c)]
    ranks = Counter(c % 13 for c in nat)
    cards = set(nat)

    def promise(c: int) -> int:
        if R.is_wild(c):
            return 0
        rank = c % 13
        p = 2 if sets and ranks[rank] >= 2 else 0
        if runs:
            p += sum(1 for d in (-2, -1, 1, 2) if 0 <= rank + d < 13 and c + d in cards)
        return p

    return promise


class BasicSeatPlayer(ContractSeatPlayer):
    """The ``basic`` level as a seat of a server."""

    policy = BasicPolicy


class StrongSeatPlayer(ContractSeatPlayer):
    """The ``strong`` level (formerly ``standard``) as a seat of a server."""

    policy = ContractPlayer


class ExpertSeatPlayer(ContractSeatPlayer):
    """The ``expert`` level as a seat of a server."""

    policy = ExpertPolicy
