"""The "expert" level for Rummikub (Sabra, XP): a determinized search over
the hidden tiles.

Each turn it lists a few candidate plays, the holding back ones included:

- after the initial meld: the strong level's play (the largest play, edge
  numbers first, :class:`.strong.StrongPlayer` without its look-ahead);
  drawing instead (keeping the whole play, to go out in one turn later);
  the largest play that keeps the jokers; the play less one tile or meld held
  back for the next turn;
- before it: the largest opening, drawing instead, the opening without
  jokers, and the opening less one meld kept for next turn.

Then it deals the tiles it cannot see (the set less the table and its rack)
several times at random into the other racks (their counts are public)
and the pool (its size is public): one determinization of the hidden state
each time. On each deal every candidate is played, the others play on for
``horizon`` rounds (each laying the solver's largest play, or its largest
opening, or drawing), and this seat's own next largest play ends it; the
same deals meet every candidate (common random numbers), so the
differences between candidates are not the luck of the deal. A rollout
scores going out (+30), an opponent going out (-30), else the tiles this
seat could not place against the smallest opponent rack, then rack sizes.
The candidate with the best mean wins; ties go to the first listed (the
strong play).

Why a determinized search and not information-set Monte-Carlo tree search:
a Rummikub turn has one decision that matters (how much of the solver's
play to lay, or to draw), the solver answers the rest exactly, and a move
must take under a second on a shared core; a handful of candidates scored
on a few dozen determinizations fits that budget, where a tree over
opponents' replies would get too few visits per node to beat the rollout
average. The known weakness of determinization (strategy fusion: assuming
the opponents' tiles are known in each deal) hardly matters here because
the candidates differ in this seat's own move, and the rollout players
play the same solver policy whatever they hold.

``samples`` (at most :data:`SAMPLES` determinizations) and ``budget`` (at
most :data:`BUDGET` solver calls a move, which lowers the samples at a
table of more seats or with more candidates, never below
:data:`MIN_SAMPLES`) trade time for strength; both count work, not
seconds, so the same position always gets the same move, however busy the
machine. Only the
seat's own view is used; the random source is seeded by the visible
position and the player's seed, so the same position gets the same move.
A play that empties the rack is always made; with the pool empty it plays
the strong move.
"""

from __future__ import annotations

from ...solver import solve
from ...tiles import JOKER
from ..game import SabraGame
from ..moves import Move
from .greedy import opening_move
from .lookahead import WIN, _take, position_rng, rollout_turn, unseen_tiles
from .solver_play import best_legal_play, meld_tiles, no_play, rack_only_move, seat_view
from .strong import StrongPlayer

SAMPLES = 10        # determinizations of the hidden tiles a move, at most
BUDGET = 120        # solver calls a move, at most (fewer samples when more seats or candidates)
MIN_SAMPLES = 4
HORIZON = 1         # rounds every seat plays on after the candidate
RACK_WEIGHT = 0.3


def _junk(table: list[int], rack: list[int], opened: bool, ts, rules) -> int:
    if not rack:
        return 0
    if not opened:
        return len(rack) - solve([], rack, initial_meld_done=False, rules=rules, tileset=ts).tiles_placed
    return len(rack) - solve(table, rack, tileset=ts).tiles_placed


def rollout(play: list[int], seat: int, order: list[int], table: list[int], racks: dict,
            pool: list[int], opened: list[bool], ts, rules, horizon: int) -> float:
    """Lay ``play`` (empty: draw) for ``seat`` on one determinization, let
    the others play ``horizon`` rounds (every seat laying its largest play or
    drawing), then lay this seat's largest play; the score for ``seat``:
    going out, an opponent going out, else the tiles this seat could not
    place against the smallest opponent rack (what is left on a rack after
    its largest play cannot be placed), then rack sizes."""
    table = list(table)
    pool = list(pool)
    racks = {s: list(r) for s, r in racks.items()}
    opened = list(opened)
    if play:
        table += play
        _take(racks[seat], play)
        opened[seat] = True
        if not racks[seat]:
            return WIN
    elif pool:
        racks[seat].append(pool.pop())
    turns = (order * horizon)[:-1]      # the others, then this seat's own last turn below
    for s in turns:
        if rollout_turn(table, racks, opened, s, pool, ts, rules) == "out":
            return WIN if s == seat else -WIN
    junk_me = _junk(table, racks[seat], opened[seat], ts, rules)
    if junk_me == 0:
        return WIN / 2
    size_them = min(len(racks[s]) for s in racks if s != seat)
    return (size_them - junk_me) + RACK_WEIGHT * (size_them - len(racks[seat]))


class ExpertPlayer:
    """Determinized search over the hidden tiles (see the module docstring).
    ``choose(game)`` returns a move for ``game.to_move``; ``samples`` and
    ``horizon`` trade time for strength."""

    name = "expert"

    def __init__(self, seed=None, *, samples: int = SAMPLES, budget: int = BUDGET,
                 horizon: int = HORIZON):
        self.seed = seed
        self.samples = samples
        self.budget = budget
        self.horizon = horizon
        self._strong = StrongPlayer(seed, lookahead=False)

    # --- candidates ----------------------------------------------------------------
    def _candidates(self, game: SabraGame, view: dict, seat: int) -> list[Move]:
        rack = view["rack"]
        ts, rules = view["tileset"], view["rules"]
        out: list[Move] = []
        if not view["initial_done"][seat]:
            first = opening_move(game, view, rack)
            if first is None:
                return []
            out.append(first)
            plain = [t for t in rack if t != JOKER]
            if len(plain) < len(rack):
                sol = solve([], plain, initial_meld_done=False, rules=rules.meld_rules, tileset=ts)
                if sol.tiles_placed:
                    move = rack_only_move(game, view, list(sol.melds))
                    if move is not None:
                        out.append(move)
            reserve = StrongPlayer._reserve_opening(list(first.added), rules.initial_meld)
            if len(reserve) < len(first.added):
                move = rack_only_move(game, view, reserve)
                if move is not None:
                    out.append(move)
            return out
        main = self._strong.choose(game)
        if main.kind != "play":
            return []
        out.append(main)
        if len(main.tiles) == len(rack):
            return out
        table = [t for m in view["table"] for t in meld_tiles(m)]
        play = list(main.tiles)
        plain = [t for t in rack if t != JOKER]
        subsets = []
        if len(plain) < len(rack):
            sol = solve(table, plain, tileset=ts)
            if sol.tiles_placed:
                subsets.append([int(t) for t in sol.play])
        subsets.append(StrongPlayer._hold_back(table, rack, play, ts))
        seen = {tuple(sorted(play))}
        for sub in subsets:
            key = tuple(sorted(sub))
            if not sub or key in seen:
                continue
            seen.add(key)
            move = best_legal_play(game, view, sub)
            if move is not None:
                out.append(move)
        return out

    # --- the search ------------------------------------------------------------------
    def scores(self, game: SabraGame) -> list[tuple[Move, float]]:
        """Every candidate with its mean rollout score (drawing last)."""
        seat = game.to_move
        view = seat_view(game, seat)
        cands = self._candidates(game, view, seat)
        if view["pool_count"]:
            cands.append(no_play(view))
        if len(cands) < 2:
            return [(m, 0.0) for m in cands]
        table = [t for m in view["table"] for t in meld_tiles(m)]
        view = dict(view, table_tiles=table)
        order, s = [], seat
        for _ in range(len(view["rack_counts"])):
            s = game.next_seat(s)
            order.append(s)
        unseen = unseen_tiles(view)
        rng = position_rng(("expert", self.seed), view, seat)
        totals = [0.0] * len(cands)
        per_rollout = len(order) * self.horizon
        samples = max(MIN_SAMPLES, min(self.samples, self.budget // (len(cands) * per_rollout)))
        ts, rules = view["tileset"], view["rules"].meld_rules
        for _ in range(samples):
            rng.shuffle(unseen)
            deck = list(unseen)
            racks = {o: [deck.pop() for _ in range(view["rack_counts"][o])] for o in order if o != seat}
            racks[seat] = list(view["rack"])
            pool = deck[-view["pool_count"]:] if view["pool_count"] else []
            for i, move in enumerate(cands):
                play = list(move.tiles) if move.kind == "play" else []
                totals[i] += rollout(play, seat, order, table, racks, pool, view["initial_done"],
                                     ts, rules, self.horizon)
        return [(m, t / samples) for m, t in zip(cands, totals)]

    def choose(self, game: SabraGame) -> Move:
        """:raises ValueError: the game is over."""
        if game.is_over:
            raise ValueError("the game is over")
        scored = self.scores(game)
        if not scored:
            return no_play(seat_view(game, game.to_move))
        best = scored[0]
        for cand in scored[1:]:
            if cand[1] > best[1] + 1e-9:
                best = cand
        return best[0]
