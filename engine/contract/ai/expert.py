"""Contract rummy's ``expert``: the heuristics of :class:`ExpertPolicy`
checked by a determinized look-ahead (:mod:`.search`) where a decision
matters.

At each such decision it lists a few candidate moves, deals the cards it
cannot see into the other hands and the stock (:func:`.search.sample_worlds`,
consistent with what its seat sees), plays the rest of the hand out in
each world for each candidate (the same worlds for every candidate: common
random numbers) with fast policies (itself :class:`ExpertPolicy`, the
others :class:`~.player.ContractPlayer`), and keeps the candidate with the
best mean of its hand points less the others' average:

- the discard: the :data:`DISCARD_CANDIDATES` cards :class:`ExpertPolicy`
  would throw first;
- taking the top discard or drawing (and refusing or allowing a buy);
- buying or not (seat off turn);
- going down now or holding back a turn.
"""

from __future__ import annotations

from ..game import ContractGame
from ..moves import Move
from .levels import ExpertPolicy
from .player import ContractPlayer
from .seat import ContractSeatPlayer
from ...errors import IllegalMoveError
from .search import _NoBuyOnce, best_of, public_rng, sample_worlds

WORLDS = 8                # sampled deals per decision
DISCARD_CANDIDATES = 3    # discards compared


class SearchExpertPolicy(ExpertPolicy):
    """``expert``: :class:`ExpertPolicy` with a look-ahead on the decisions
    that matter (see the module)."""

    seed: str = ""
    worlds: int = WORLDS
    opponent: type = ContractPlayer
    search_discard = False
    search_draw = False
    search_buy = False
    search_hold = False

    def _players(self, game: ContractGame):
        out = []
        for s in range(game.n):
            p = _SimExpert(s) if s == self.seat else self.opponent(s)
            out.append(p)
        return out

    def _worlds(self, game: ContractGame, tag: str):
        return sample_worlds(game, self.seat, self.worlds, public_rng(game, self.seat, self.seed, tag))

    def _choose(self, game: ContractGame, candidates: list[Move], tag: str, after=None) -> int:
        if len(candidates) < 2:
            return 0
        best, _ = best_of(game, self.seat, candidates, self._worlds(game, tag), self._players, after)
        return best

    # --- discard ---------------------------------------------------------------
    def discard_move(self, game: ContractGame) -> Move:
        """The best of the first :data:`DISCARD_CANDIDATES` legal discards
        of :meth:`ExpertPolicy._discard_order` (a forced buy stays)."""
        first = super().discard_move(game)
        if first.action != "discard" or not self.search_discard:
            return first
        cands = [first]
        for c in self._discard_order(game):
            if len(cands) >= DISCARD_CANDIDATES:
                break
            if c == first.card or c == self.taken:
                continue
            try:
                game.check_discard(c)
            except IllegalMoveError:
                continue
            cands.append(Move("discard", self.seat, card=c))
        return cands[self._choose(game, cands, "discard")]

    # --- take or draw ------------------------------------------------------------
    def draw_move(self, game: ContractGame) -> Move:
        """Take the top discard or draw (refuse or allow a buy request),
        whichever plays out better."""
        first = super().draw_move(game)
        can_take = (game.discards and not game.dead[-1]
                    and not (game.upcard and game.rules.first_upcard_buy_only)
                    and not self._stalled(game))
        if not can_take or first.action == "buy" or not self.search_draw:
            return first
        if game.requests_pending_consent():
            cands = [Move("refuse", self.seat), Move("allow", self.seat)]
        else:
            cands = [Move("take", self.seat), Move("draw", self.seat)]
        if first.action != cands[0].action:
            cands.reverse()
        card, seat = game.discards[-1], self.seat

        def after(g, mv, players):
            players[seat].taken = card if mv.action in ("take", "refuse") else None

        choice = cands[self._choose(game, cands, "draw", after)]
        self.taken = card if choice.action in ("take", "refuse") else None
        return choice

    # --- buy -------------------------------------------------------------------------
    def wants_buy(self, game: ContractGame) -> bool:
        """Buy when buying plays out better than passing."""
        if self._buy_offer(game) is None:
            return False
        first = super().wants_buy(game)
        if not self.search_buy:
            return first
        seat, turn = self.seat, game.turn

        def after(g, mv, players):
            if mv is None:               # the pass: this card is not bought
                players[seat] = _NoBuyOnce(players[seat], turn)

        cands = [Move("buy", seat), None] if first else [None, Move("buy", seat)]
        best = self._choose(game, cands, "buy", after)
        return cands[best] is not None

    # --- go down or hold ------------------------------------------------------------
    def play_moves(self, game: ContractGame) -> Move | None:
        """A go-down is weighed against holding back this turn (discarding
        instead)."""
        mv = super().play_moves(game)
        if mv is None or mv.action != "down" or not self.search_hold:
            return mv
        seat = self.seat

        def after(g, m, players):
            if m is None:                # hold: discard now, go down later
                players[seat].hold_turn = g.turn

        best = self._choose(game, [mv, None], "hold", after)
        return mv if best == 0 else None


class _SimExpert(ExpertPolicy):
    """:class:`ExpertPolicy` inside a rollout: it may be told to hold back
    from going down on one turn (the branch of that decision that holds)."""

    hold_turn = -1

    def play_moves(self, game: ContractGame) -> Move | None:
        mv = super().play_moves(game)
        if mv is not None and mv.action == "down" and game.turn == self.hold_turn:
            return None
        return mv


class ExpertSeatPlayer(ContractSeatPlayer):
    """The ``expert`` level as a seat of a server."""

    policy = SearchExpertPolicy
