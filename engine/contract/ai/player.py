"""A contract rummy player, and a self-play driver.

The player sees what its seat may see: its own hand, the table, the top
discard, counts and buys (the public state of :class:`ContractGame`); it
never reads another hand or the stock.

Policy, in order of the turn:

- **Draw**: take the top discard when it is wild (while the hand has room
  for one more after the discard: fewer wild cards than natural ones with
  it), when it makes a pair
  into a set or fills a run it is building, or (once down) when it lays
  off; otherwise draw from the stock. Not a card the "players" rule would
  make it throw straight back (every other card in hand a player), unless
  the card completes the contract. On seed 004's first upcard it buys on
  its own turn only for a wild card. A table gone round four times
  without a draw from the stock (each taking a discard and throwing
  another) makes it draw.
- **Buy** (not on turn): before going down, buy a wild card it has room
  for, or a card that makes a third of a rank (set contracts) or joins two
  run cards (run contracts), while it has buys left and holds fewer than 16
  cards.
- **Go down** as soon as the contract is in hand (fewest wild cards used).
- **Lay off** every card that fits, replacing wild cards in runs where it can.
- **Discard** the card it needs least, among those it may discard: never
  the discard it took this turn (unless the rules allow no other card), no
  wild card while the hand can use it (wild cards beyond its natural cards
  go first, since no meld can take them all), avoid cards that would play on
  the table ("players", which help others) and cards of the ranks (or next
  in suit to the cards) that players not yet down took from the discard
  pile, and among equals the one worth the most points.

:func:`play_game` drives any number of these players through a whole game.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Callable

from ...errors import IllegalMoveError
from ..game import ContractGame
from ..melds import lay
from ..moves import Move
from ..rules import CONTRACTS


STALL_ROUNDS = 4   # rounds of the table without a draw from the stock: draw


def _pos(card: int, aces_low: bool) -> tuple[int, ...]:
    r = card % 13 + 2
    if r == 14:
        return (1, 14) if aces_low else (14,)
    return (r,)


def find_contract(hand: list[int], sets: int, runs: int, game: ContractGame) -> list[list[int]] | None:
    """Melds making the contract (``sets`` sets, ``runs`` runs) from
    ``hand``, using as few wild cards as it finds, or ``None``. Runs are
    listed lowest card first, as :meth:`ContractGame.push` wants them."""
    R = game._r
    wild = R.is_wild
    wilds = [c for c in hand if wild(c)]
    nat = [c for c in hand if not wild(c)]
    W = len(wilds)
    rank_count = Counter(c % 13 for c in nat)
    # quick reject for sets: each needs a rank with 2+ naturals
    if sets and sum(1 for v in rank_count.values() if v >= 2) < sets:
        return None
    distinct = game.rules.run_suits_distinct
    aces_low = R.aces_low
    low = R.low

    def run_candidates(cards: list[int], used_suits: tuple[int, ...], w_left: int):
        by_suit: dict[int, dict[int, int]] = {}
        for c in cards:
            s = c // 13
            if distinct and s in used_suits:
                continue
            d = by_suit.setdefault(s, {})
            for p in _pos(c, aces_low):
                d.setdefault(p, c)
        out = []
        for s, d in by_suit.items():
            if len(d) < 2:
                continue
            ps = sorted(d)
            for i, a in enumerate(ps):
                for b in ps[i + 1:]:
                    length = b - a + 1
                    k = sum(1 for p in ps if a <= p <= b)
                    # an ace may count at both 1 and 14 only once
                    if aces_low and a == 1 and b == 14:
                        continue
                    lo, hi = a, b
                    if length < 4:
                        extra = 4 - length
                        # pad with wild cards, above first, then below
                        hi = min(14, b + extra)
                        lo = a - (extra - (hi - b))
                        if lo < low:
                            continue
                        length = 4
                    need = length - k
                    if need > k or need > w_left:
                        continue
                    out.append((need, -k, s, lo, hi, d))
        out.sort(key=lambda t: (t[0], t[1]))
        return out[:10]

    def make_run(s, lo, hi, d, wl):
        meld, used, wi = [], [], 0
        for p in range(lo, hi + 1):
            c = d.get(p)
            if c is not None:
                meld.append(c)
                used.append(c)
            else:
                meld.append(wl[wi])
                wi += 1
        return meld, used, wi

    def solve_sets(cards: list[int], w_left: list[int], k: int):
        if k == 0:
            return []
        counts = Counter(c % 13 for c in cards)
        ranks = sorted((r for r, v in counts.items() if v >= 2), key=lambda r: -counts[r])
        if len(ranks) < k:
            return None
        chosen = ranks[:k]
        need = sum(max(0, 3 - counts[r]) for r in chosen)
        if need > len(w_left):
            return None
        melds, wi = [], 0
        for r in chosen:
            m = [c for c in cards if c % 13 == r]
            while len(m) < 3:
                m.append(w_left[wi])
                wi += 1
            melds.append(m)
        return melds

    def search(cards: list[int], w_left: list[int], k_runs: int, used_suits: tuple[int, ...]):
        if k_runs == 0:
            return solve_sets(cards, w_left, sets)
        for need, _, s, lo, hi, d in run_candidates(cards, used_suits, len(w_left)):
            meld, used, wi = make_run(s, lo, hi, d, w_left)
            rest = list(cards)
            for c in used:
                rest.remove(c)
            sub = search(rest, w_left[wi:], k_runs - 1, used_suits + (s,))
            if sub is not None:
                return [meld] + sub
        return None

    return search(nat, wilds, runs, ())


def accepts(game: ContractGame, move: Move) -> bool:
    """Whether the rules accept ``move`` now: it is pushed on a scratch copy
    of ``game`` (``game`` is unchanged). The copy leaves out what a move
    never reads — the move history, the finished hands' results (copied
    shallowly: a hand's end appends to them), a typed-in deal (shared) — so
    a trial costs the same on the first turn and the thousandth."""
    memo: dict[int, object] = {id(game.move_stack): [], id(game.results): list(game.results)}
    if game.deal is not None:
        memo[id(game.deal)] = game.deal
    try:
        copy.deepcopy(game, memo).push(move)
    except IllegalMoveError:
        return False
    return True


_WINDOW_TABLES: dict[int, Callable[[int], int]] = {}


def _window_table(low: int) -> Callable[[int], int]:
    """A function from a suit's position mask to the most positions any four
    consecutive positions from ``low`` up hold (0-4), cached per mask."""
    fn = _WINDOW_TABLES.get(low)
    if fn is None:
        cache: dict[int, int] = {}

        def fn(mask: int) -> int:
            v = cache.get(mask)
            if v is None:
                v = max((((mask >> a) & 15).bit_count() for a in range(low, 12)), default=0)
                cache[mask] = v
            return v

        _WINDOW_TABLES[low] = fn
    return fn


class ContractPlayer:
    """The contract rummy AI for one seat."""

    def __init__(self, seat: int):
        self.seat = seat
        self.taken: int | None = None   # the discard taken this turn

    # --- evaluation -----------------------------------------------------------
    def _need(self, game: ContractGame) -> tuple[int, int]:
        return CONTRACTS[game.hand_no]

    @staticmethod
    def _profile(game: ContractGame, hand: list[int]):
        """Counts of ranks, per-suit position counts (flat, 16 a suit), the
        per-suit position bit masks and the number of wild cards."""
        R = game._r
        ranks = [0] * 13
        pos = [0] * 64
        masks = [0, 0, 0, 0]
        wilds = 0
        aces_low = R.aces_low
        for c in hand:
            if R.is_wild(c):
                wilds += 1
                continue
            ranks[c % 13] += 1
            s, p = c // 13, c % 13 + 2
            pos[s * 16 + p] += 1
            masks[s] |= 1 << p
            if p == 14 and aces_low:
                pos[s * 16 + 1] += 1
                masks[s] |= 2
        return ranks, pos, masks, wilds

    def _value(self, game: ContractGame, ranks, masks, sets: int, runs: int) -> int:
        v = 0
        if sets:
            top = sorted(ranks, reverse=True)[:sets]   # capping keeps the order
            v += sum(top) - sum(c - 3 for c in top if c > 3)
        if runs:
            scores = sorted(map(_window_table(game._r.low), masks), reverse=True)
            v += sum(scores[:runs])
        return v

    def _marginals(self, game: ContractGame, hand: list[int]) -> tuple[int, dict[int, int]]:
        """The hand's value and, for each natural card code, what the value
        loses without one copy of it."""
        sets, runs = self._need(game)
        ranks, pos, masks, _ = self._profile(game, hand)
        base = self._value(game, ranks, masks, sets, runs)
        aces_low = game._r.aces_low
        out: dict[int, int] = {}
        for c in set(hand):
            if game._r.is_wild(c):
                continue
            r, s, p = c % 13, c // 13, c % 13 + 2
            ranks[r] -= 1
            saved = masks[s]
            if pos[s * 16 + p] == 1:
                masks[s] &= ~(1 << p)
                if p == 14 and aces_low:
                    masks[s] &= ~2
            out[c] = base - self._value(game, ranks, masks, sets, runs)
            ranks[r] += 1
            masks[s] = saved
        return base, out

    @staticmethod
    def _wild_room(game: ContractGame, hand: list[int]) -> bool:
        """Whether ``hand`` can use one more wild card: a meld needs at
        least as many natural cards as wild ones, so wild cards beyond the
        hand's naturals can never all go down."""
        wild = game._r.is_wild
        wilds = sum(1 for c in hand if wild(c))
        return wilds < len(hand) - wilds

    def _gain(self, game: ContractGame, card: int, hand: list[int]) -> int:
        """What ``card`` adds to the hand's value (a wild card: 5 while the
        hand has room for it, else nothing)."""
        if game._r.is_wild(card):
            # room for it even after the discard: else a wild card goes
            # straight out again (taking one to throw another is no gain)
            return 5 if self._wild_room(game, hand + [card]) else 0
        sets, runs = self._need(game)
        ranks, _, masks, _ = self._profile(game, hand)
        before = self._value(game, ranks, masks, sets, runs)
        ranks[card % 13] += 1
        p = card % 13 + 2
        masks[card // 13] |= 1 << p
        if p == 14 and game._r.aces_low:
            masks[card // 13] |= 2
        return self._value(game, ranks, masks, sets, runs) - before

    def _target(self, game: ContractGame) -> int:
        sets, runs = self._need(game)
        return 3 * sets + 4 * runs

    def within_reach(self, game: ContractGame, hand: list[int]) -> bool:
        """Whether ``hand`` may hold the contract (a quick count: cards
        toward its sets and runs plus wild cards reach its size); only then
        is :func:`find_contract` worth its search."""
        sets, runs = self._need(game)
        ranks, _, masks, wilds = self._profile(game, hand)
        return self._value(game, ranks, masks, sets, runs) + wilds >= self._target(game)

    # --- decisions ----------------------------------------------------------------
    def _buy_offer(self, game: ContractGame):
        """``(hand, card)`` when this seat may buy the top discard and its
        hand has room for the two cards a buy brings; else ``None``."""
        if not game.can_buy(self.seat) or game.down[self.seat]:
            return None
        hand = game.hands[self.seat]
        return None if len(hand) >= 16 else (hand, game.discards[-1])

    def wants_buy(self, game: ContractGame) -> bool:
        """Whether to buy the top discard now (seat not on turn)."""
        offer = self._buy_offer(game)
        if offer is None:
            return False
        hand, card = offer
        if game._r.is_wild(card):
            return self._wild_room(game, hand + [card])
        gain = self._gain(game, card, hand)
        if gain < 1:
            return False
        ranks, _, masks, wilds = self._profile(game, hand)
        sets, runs = self._need(game)
        have = self._value(game, ranks, masks, sets, runs) + wilds + gain
        return have >= self._target(game) - 1

    def wants_take(self, game: ContractGame) -> bool:
        """Whether to take the top discard as the turn's draw: once down,
        a card it lays off; before, a card that brings the contract
        nearer, unless the rules would make it throw that card straight
        back (every other card in hand a "player" it may not discard) and
        the card does not complete the contract."""
        hand = game.hands[self.seat]
        card = game.discards[-1]
        if game.down[self.seat]:
            if game.rules.no_out_after_take and len(hand) <= 2:
                return False
            return game._r.plays(card, game.table)
        if self._gain(game, card, hand) < 1:
            return False
        # another copy of the card is no other discard: throwing it is throwing the card back
        if self._other_discard(game, [c for c in hand if c != card]):
            return True
        sets, runs = self._need(game)
        return find_contract(hand + [card], sets, runs, game) is not None

    @staticmethod
    def _other_discard(game: ContractGame, hand: list[int]) -> bool:
        """Whether ``hand`` holds a card the "players" rule lets it discard
        (always, without that rule): one that plays on no meld on the table,
        or one of two identical cards that plays on a run (seed 004's first
        exception)."""
        if not game.rules.players_rule or not game.table:
            return True
        R, table = game._r, game.table
        return any(not R.plays(c, table)
                   or (not R.is_wild(c) and hand.count(c) >= 2 and R.plays_on_run(c, table))
                   for c in hand)

    @staticmethod
    def _stalled(game: ContractGame) -> bool:
        """Whether the table has gone round :data:`STALL_ROUNDS` times
        without anyone drawing from the stock (each taking the discard and
        throwing another: a round that can go on for ever, since the stock
        never runs out). The moves are public."""
        limit = STALL_ROUNDS * 3 * game.n
        recent = game.move_stack[-limit:]
        return len(recent) == limit and not any(m.split()[1:2] == ["draw"] for m in recent)

    def draw_move(self, game: ContractGame) -> Move:
        """The first move of the turn (draw, take, answer a buy request);
        a stalled table (:meth:`_stalled`) makes it draw."""
        can_take = (game.discards and not game.dead[-1]
                    and not (game.upcard and game.rules.first_upcard_buy_only)
                    and not self._stalled(game))
        if game.requests_pending_consent():
            if can_take and self.wants_take(game):
                self.taken = game.discards[-1]
                return Move("refuse", self.seat)
            return Move("allow", self.seat)
        self.taken = None
        if can_take and self.wants_take(game):
            self.taken = game.discards[-1]
            return Move("take", self.seat)
        if (game.upcard and game.rules.first_upcard_buy_only and game.can_buy(self.seat)
                and game._r.is_wild(game.discards[-1]) and not game.down[self.seat]):
            return Move("buy", self.seat)
        return Move("draw", self.seat)

    def play_moves(self, game: ContractGame) -> Move | None:
        """The next go-down, lay-off or swap, or ``None`` to discard now."""
        seat = self.seat
        hand = game.hands[seat]
        R = game._r
        if not game.down[seat]:
            if not self.within_reach(game, hand):
                return None
            sets, runs = self._need(game)
            melds = find_contract(hand, sets, runs, game)
            if melds is None:
                return None
            return Move("down", seat, melds=tuple(tuple(m) for m in melds))
        if len(hand) == 1 and not R.plays(hand[0], game.table):
            return None
        table = game.table
        # naturals first, wild cards last
        order = sorted(hand, key=lambda c: (R.is_wild(c), -game.rules.card_points(c)))
        for c in order:
            for i, m in enumerate(table):
                ends = R.ends_for(c, m)
                if ends:
                    mv = Move("lay", seat, card=c, target=i, end=ends[0] if m.kind == "run" else "")
                    if self._legal(game, mv):
                        return mv
            if not R.is_wild(c):
                for i, m in enumerate(table):
                    slot = R.swap_slot(c, m)
                    if slot is None:
                        continue
                    w = m.cards[slot]
                    for j, t in enumerate(table):
                        if j == i:
                            continue
                        ends = R.ends_for(w, t)
                        if ends:
                            mv = Move("swap", seat, card=c, target=i, wild_target=j,
                                      end=ends[0] if t.kind == "run" else "")
                            if self._legal(game, mv):
                                return mv
        return None

    @staticmethod
    def _legal(game: ContractGame, move: Move) -> bool:
        """Whether ``move`` passes the going-out checks (a dry run)."""
        hand = game.hands[game.active]
        left = len(hand) - 1
        if left >= 2:
            return True
        if game.took and game.rules.no_out_after_take:
            return False
        if left == 0:
            return True
        rest = list(hand)
        rest.remove(move.card)
        # the table as it would be after the move
        table = list(game.table)
        if move.action == "lay":
            m = table[move.target].copy()
            lay(m, move.card, move.end if m.kind == "run" else "", game._r.is_wild(move.card))
            table[move.target] = m
        else:
            m = table[move.target].copy()
            slot = game._r.swap_slot(move.card, m)
            w = m.cards[slot]
            m.cards[slot] = move.card
            m.wilds -= 1
            t = table[move.wild_target].copy()
            lay(t, w, move.end if t.kind == "run" else "", True)
            table[move.target], table[move.wild_target] = m, t
        return game._r.plays(rest[0], table)

    def _wanted_by_others(self, game: ContractGame) -> tuple[set[int], set[int]]:
        """Ranks and cards the other players not yet down seem to collect,
        from the discards they took (public): ranks for set contracts, the
        neighbours in suit for run contracts."""
        sets, runs = self._need(game)
        ranks: set[int] = set()
        near: set[int] = set()
        for s, picked in enumerate(game.picked):
            if s == self.seat or game.down[s]:
                continue
            for c in picked:
                if game._r.is_wild(c):
                    continue
                if sets:
                    ranks.add(c % 13)
                if runs:
                    base = c - c % 13
                    for d in (-2, -1, 1, 2):
                        if 0 <= c % 13 + d < 13:
                            near.add(base + c % 13 + d)
        return ranks, near

    def discard_move(self, game: ContractGame) -> Move:
        """The discard ending the turn (or the forced buy of seed 004's
        exception 2)."""
        seat = self.seat
        hand = game.hands[seat]
        R = game._r
        rules = game.rules
        scored = []
        down = game.down[seat]
        marg = {} if down else self._marginals(game, hand)[1]
        table = game.table
        wanted = self._wanted_by_others(game)
        # wild cards are kept while the hand can use them (no more wild
        # cards than natural ones); beyond that they go first among equals
        keep_wilds = self._wild_room(game, hand) or down
        for c in set(hand):
            player = bool(table) and R.plays(c, table)
            kept = c == self.taken          # never throw back what was just taken
            helps = (c % 13) in wanted[0] or c in wanted[1]
            scored.append((kept, R.is_wild(c) and keep_wilds, player, marg.get(c, 0), helps,
                           -rules.card_points(c), c))
        scored.sort()
        found = discard_first(game, seat, [c for *_, c in scored])
        if found is None:
            raise RuntimeError(f"seat {seat} has no legal discard")
        return found


def play_turn(game: ContractGame, players: list[ContractPlayer],
              on_move: Callable[[ContractGame, Move], None] | None = None) -> None:
    """Push the moves of one turn: buy requests from the other seats, the
    draw, the plays, and the discard (or the end of the hand)."""

    def push(mv: Move) -> None:
        game.push(mv)
        if on_move is not None:
            on_move(game, mv)

    hand_no = game.hand_no
    active = game.active
    # players not on turn ask to buy, the next in turn first
    if game.phase == "draw" and game.window:
        for k in range(1, game.n):
            s = (active + k) % game.n
            if players[s].wants_buy(game):
                push(Move("buy", s))
                if game.rules.buy_consent or game.rules.buy_priority == "first-asked":
                    break
    me = players[active]
    push(me.draw_move(game))
    if game.over or game.hand_no != hand_no:
        return
    if game.phase == "draw":          # after allowing a buy: draw now
        push(me.draw_move(game))
        if game.over or game.hand_no != hand_no:
            return
    while True:
        mv = me.play_moves(game)
        if mv is None:
            break
        try:
            push(mv)
        except IllegalMoveError:      # e.g. going down would go out too early
            break
        if game.over or game.hand_no != hand_no:
            return
    while True:
        mv = me.discard_move(game)
        push(mv)
        if mv.action == "discard":
            return


def play_game(game: ContractGame, players: list[ContractPlayer] | None = None, *,
              on_move: Callable[[ContractGame, Move], None] | None = None,
              max_turns: int = 20000) -> ContractGame:
    """Play ``game`` to its end with AI players (one per seat by default).

    :raises RuntimeError: the game did not end within ``max_turns`` turns.
    """
    if players is None:
        players = [ContractPlayer(s) for s in range(game.n)]
    for _ in range(max_turns):
        if game.over:
            return game
        play_turn(game, players, on_move)
    raise RuntimeError(f"game not over after {max_turns} turns")


def discard_first(game: ContractGame, seat: int, ordered) -> Move | None:
    """The first card of ``ordered`` the rules let ``seat`` discard, or the
    buy seed 004's second exception asks for first; ``None`` if none."""
    tried = set()
    for c in ordered:
        if c in tried:
            continue
        tried.add(c)
        try:
            game.check_discard(c)
        except IllegalMoveError as exc:
            if exc.rule == "players-rule-buy-first":
                return Move("buy", seat)
            continue
        return Move("discard", seat, card=c)
    return None
