"""Seating: who sits at which table, in which seat. A pure algorithm.

Nothing here touches the database or Django; :mod:`league.manager` loads the
rows, calls :func:`seat_round` and saves what it returns.

A round's seating is decided from:

- the players to seat (hashable ids), in standings order when the method is
  ``"standings"`` (best first);
- the history: earlier rounds' tables, each a list of ids in seat order
  (``None`` for an AI seat);
- a seed, recorded with the round, so the same inputs give the same seating
  on every machine.

The cost of a seating is::

    CONFLICT_WEIGHT * pairs at a table who must not sit together (family, a team)
  + MATE_WEIGHT * sum over pairs at a table of times they already met
  + RANK_WEIGHT * sum over players of ((rank - table's mean rank) / size)^2  (standings)
  + SEAT_WEIGHT * sum over players of times they already had that seat

Tables are formed by a seeded simulated-annealing swap search (two players
at different tables trade places) and then, table by table, seats are given
by an exact minimum-cost assignment (:func:`scipy.optimize.linear_sum_assignment`).
Repeat table-mates weigh far more than rank spread, which weighs more than
repeat seats: a rematch is only accepted when no seating avoids it that the
search can find.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

METHODS = ("random", "standings")
CONFLICT_WEIGHT = 100_000.0
MATE_WEIGHT = 1000.0
RANK_WEIGHT = 10.0
SEAT_WEIGHT = 1.0


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the translation catalogues (``makemessages``
    reads the name) and returns it as it is: this module imports no Django;
    :mod:`league.services` says a :class:`SeatingError` in the reader's
    language (:attr:`SeatingError.message` and :attr:`SeatingError.params`)."""
    return message


class SeatingError(ValueError):
    """The players cannot be seated as asked (too few, bad table size, ...).

    A user can fix it (check players in, allow AI seats, change the table
    size); the message says what is wrong. ``str()`` is the English
    sentence; ``message`` is its text with named places (``%(n)s``) as the
    catalogues hold it, and ``params`` fill them.
    """

    def __init__(self, message: str, **params):
        self.message, self.params = message, params
        super().__init__(message % params if params else message)


@dataclass(frozen=True)
class Seating:
    """The result: ``tables[i][s]`` is the player in seat ``s`` of table
    ``i`` (``None`` for an AI seat); ``cost`` broken down for display."""

    tables: tuple[tuple[Hashable | None, ...], ...]
    repeat_mates: int
    repeat_seats: int
    seed: str
    #: pairs who must not sit together and still share a table (0 unless
    #: no seating keeps them apart: too few tables)
    conflicts: int = 0

    def table_of(self, player) -> int:
        """Index of the table where ``player`` sits.

        :raises KeyError: the player is not seated.
        """
        for index, table in enumerate(self.tables):
            if player in table:
                return index
        raise KeyError(player)


def table_sizes(n_players: int, table_size: int, *, min_size: int = 3,
                allow_ai: bool = False) -> list[tuple[int, int]]:
    """How to split ``n_players`` into tables.

    Returns a list of ``(humans, ai_seats)`` per table, largest first. With
    ``allow_ai`` every table has ``table_size`` seats and the shortfall is
    spread as AI seats (at most one per table where possible); otherwise
    tables hold ``table_size`` or fewer players (for example 4s and 3s),
    never fewer than ``min_size``.

    :raises SeatingError: no split exists (too few players, or sizes that
        cannot be met without AI seats).
    """
    if table_size < 2:
        raise SeatingError(gettext_noop("table size must be at least 2, not %(size)s"), size=table_size)
    if min_size < 2 or min_size > table_size:
        raise SeatingError(f"minimum table size {min_size} must be between 2 "
                           f"and the table size {table_size}")
    if n_players < 1:
        raise SeatingError(gettext_noop("no players to seat: check players in first"))
    n_tables = math.ceil(n_players / table_size)
    if allow_ai:
        short = n_tables * table_size - n_players
        ai = [short // n_tables + (1 if i < short % n_tables else 0)
              for i in range(n_tables)]
        ai.reverse()  # AI seats on the last tables
        out = [(table_size - a, a) for a in ai]
        if any(h < 1 for h, _ in out):
            raise SeatingError(gettext_noop("a table would hold only AI players"))
        return out
    if n_players < min_size:
        raise SeatingError(gettext_noop("%(n)s player(s) cannot fill a table of at least %(low)s; "
                                        "allow AI seats or wait for more players"), n=n_players, low=min_size)
    base, extra = divmod(n_players, n_tables)
    sizes = [base + 1 if i < extra else base for i in range(n_tables)]
    if sizes[-1] < min_size:
        raise SeatingError(gettext_noop("%(n)s players cannot be split into tables of %(low)s to %(high)s "
                                        "players; allow AI seats or change the table size"),
                           n=n_players, low=min_size, high=table_size)
    return [(s, 0) for s in sizes]


def meetings(history: Iterable[Sequence[Sequence[Hashable | None]]]
             ) -> tuple[dict, dict]:
    """Count from earlier rounds how often each pair shared a table and how
    often each player had each seat.

    :returns: ``(pairs, seats)`` where ``pairs[frozenset({a, b})]`` and
        ``seats[(player, seat_index)]`` are counts (AI seats ignored).
    """
    pairs: dict = defaultdict(int)
    seats: dict = defaultdict(int)
    for round_tables in history:
        for table in round_tables:
            people = [p for p in table if p is not None]
            for s, p in enumerate(table):
                if p is not None:
                    seats[(p, s)] += 1
            for i, a in enumerate(people):
                for b in people[i + 1:]:
                    pairs[frozenset((a, b))] += 1
    return pairs, seats


def seat_round(players: Sequence[Hashable], *, table_size: int = 4,
               seed: str, history: Sequence = (), method: str = "random",
               allow_ai: bool = False, min_size: int = 3,
               iterations: int | None = None, conflicts: Iterable[Sequence] = ()) -> Seating:
    """Seat one round.

    :param players: ids to seat; for ``method="standings"`` in standings
        order, best first (the top players share table 1).
    :param seed: recorded with the round; same inputs, same seating.
    :param history: earlier rounds, each a list of tables (ids in seat order).
    :param method: ``"random"`` or ``"standings"``.
    :param allow_ai: fill short tables with AI seats (``None``) instead of
        making smaller tables.
    :param conflicts: pairs of ids who must not sit at one table (family,
        a team); kept apart before anything else, where the tables allow.
    :raises SeatingError: unknown method, duplicate players, or no split of
        the players into tables (see :func:`table_sizes`).
    """
    if method not in METHODS:
        raise SeatingError(f"unknown seating method {method!r} "
                           f"(choose from {', '.join(METHODS)})")
    players = list(players)
    if len(set(players)) != len(players):
        dupes = sorted({str(p) for p in players if players.count(p) > 1})
        raise SeatingError(f"player(s) listed twice: {', '.join(dupes)}")
    if any(p is None for p in players):
        raise SeatingError("None is reserved for AI seats; it cannot be a player")
    layout = table_sizes(len(players), table_size, min_size=min_size,
                         allow_ai=allow_ai)
    rng = random.Random(f"seating:{seed}")
    pairs, seat_counts = meetings(history)
    apart = conflict_pairs(conflicts)

    # Slots: table index for every seat, AI seats included as None players.
    slot_table: list[int] = []
    for t, (humans, ai) in enumerate(layout):
        slot_table += [t] * (humans + ai)
    n_ai = sum(ai for _, ai in layout)
    ai_tokens = [_AI(i) for i in range(n_ai)]
    order = players[:]
    if method == "random":
        rng.shuffle(order)
    # By standings: a player's rank index against the mean rank index of the
    # table's seats in pure rank order (the cost term keeps tables of similar
    # rank, and the top players at table 1).
    ideal: dict = {}
    centre: dict = {}
    if method == "standings":
        human_slots = []
        for t, (humans, _) in enumerate(layout):
            human_slots += [t] * humans
        ideal = {p: float(i) for i, p in enumerate(order)}
        for t in range(len(layout)):
            idx = [i for i, slot in enumerate(human_slots) if slot == t]
            centre[t] = sum(idx) / len(idx)
    # Start from the order: humans first at each table, AI seats at the end.
    assignment = []
    it = iter(order)
    ai_it = iter(ai_tokens)
    for humans, ai in layout:
        assignment += [next(it) for _ in range(humans)]
        assignment += [next(ai_it) for _ in range(ai)]

    tables = _anneal(assignment, slot_table, len(layout), pairs, ideal, centre, rng,
                     iterations, apart)
    seated = tuple(tuple(None if isinstance(p, _AI) else p for p in _assign_seats(members, seat_counts, rng))
                   for members in tables)
    repeat_mates, repeat_seats = _repeats(seated, pairs, seat_counts)
    return Seating(tables=seated, repeat_mates=repeat_mates,
                   repeat_seats=repeat_seats, seed=seed,
                   conflicts=len(seating_conflicts(seated, apart)))


def conflict_pairs(conflicts: Iterable[Sequence]) -> set[frozenset]:
    """The pairs who must not sit together, as a set of 2-sets.

    :raises SeatingError: a "pair" that is not two different players.
    """
    out = set()
    for pair in conflicts:
        pair = frozenset(pair)
        if len(pair) != 2 or None in pair:
            raise SeatingError(f"a seating conflict is two different players, not {sorted(map(str, pair))}")
        out.add(pair)
    return out


def seating_conflicts(tables: Sequence[Sequence[Hashable | None]], conflicts: Iterable[Sequence]
                      ) -> list[tuple[int, frozenset]]:
    """The pairs who must not sit together but share a table, as
    ``(table index, pair)``."""
    apart = conflict_pairs(conflicts)
    found = []
    for t, members in enumerate(tables):
        people = [p for p in members if p is not None]
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                if frozenset((a, b)) in apart:
                    found.append((t, frozenset((a, b))))
    return found


def seating_repeats(tables: Sequence[Sequence[Hashable | None]], history: Sequence = ()) -> tuple[int, int]:
    """What a seating costs against the earlier rounds: ``(repeat_mates,
    repeat_seats)``, the pairs at a table who already met (counted once per
    earlier meeting) and the players in a seat they already had. The desk
    shows it before the organiser swaps two players by hand."""
    pairs, seat_counts = meetings(history)
    return _repeats(tables, pairs, seat_counts)


def _repeats(tables, pairs, seat_counts) -> tuple[int, int]:
    repeat_mates = repeat_seats = 0
    for members in tables:
        people = [p for p in members if p is not None]
        for i, a in enumerate(people):
            for b in people[i + 1:]:
                repeat_mates += pairs.get(frozenset((a, b)), 0)
        for s, p in enumerate(members):
            if p is not None:
                repeat_seats += seat_counts.get((p, s), 0)
    return repeat_mates, repeat_seats


class _AI:
    """A placeholder for an AI seat during the search (distinct, hashable)."""

    __slots__ = ("n",)

    def __init__(self, n: int):
        self.n = n

    def __repr__(self) -> str:
        return f"AI{self.n}"


def _anneal(assignment, slot_table, n_tables, pairs, ideal, centre, rng,
            iterations, apart=frozenset()):
    """Swap search over ``assignment`` (one entry per slot); returns the
    members of each table."""
    n = len(assignment)
    size = max(1, n / max(1, n_tables))
    if n_tables < 2 or n < 2:
        return [assignment[:]]
    tables: list[list] = [[] for _ in range(n_tables)]
    where: dict = {}
    for p, t in zip(assignment, slot_table):
        tables[t].append(p)
        where[p] = t

    def pair_cost(a, b) -> float:
        if isinstance(a, _AI) or isinstance(b, _AI):
            return 0.0
        key = frozenset((a, b))
        c = pairs.get(key, 0)
        return MATE_WEIGHT * c * (c + 1) / 2 + (CONFLICT_WEIGHT if key in apart else 0.0)  # a third meeting costs more

    def rank_cost(p, t) -> float:
        if p not in ideal:
            return 0.0
        return RANK_WEIGHT * ((ideal[p] - centre[t]) / size) ** 2

    def total() -> float:
        cost = 0.0
        for t, members in enumerate(tables):
            for i, a in enumerate(members):
                cost += rank_cost(a, t)
                for b in members[i + 1:]:
                    cost += pair_cost(a, b)
        return cost

    def delta(a, b) -> float:
        ta, tb = where[a], where[b]
        d = rank_cost(a, tb) + rank_cost(b, ta) - rank_cost(a, ta) - rank_cost(b, tb)
        for x in tables[ta]:
            if x is not a:
                d += pair_cost(b, x) - pair_cost(a, x)
        for y in tables[tb]:
            if y is not b:
                d += pair_cost(a, y) - pair_cost(b, y)
        return d

    current = total()
    best = current
    best_tables = [m[:] for m in tables]
    steps = iterations if iterations is not None else max(4000, 400 * n)
    if current == 0:
        return best_tables
    temperature = MATE_WEIGHT
    cooling = (0.01 / temperature) ** (1.0 / steps)
    people = list(where)
    for _ in range(steps):
        a = rng.choice(people)
        b = rng.choice(people)
        if where[a] == where[b]:
            continue
        d = delta(a, b)
        if d <= 0 or rng.random() < math.exp(-d / temperature):
            ta, tb = where[a], where[b]
            tables[ta][tables[ta].index(a)] = b
            tables[tb][tables[tb].index(b)] = a
            where[a], where[b] = tb, ta
            current += d
            if current < best - 1e-9:
                best = current
                best_tables = [m[:] for m in tables]
                if best <= 1e-9:
                    break
        temperature *= cooling
    return best_tables


def _assign_seats(members, seat_counts, rng):
    """Order one table's members to minimise repeat seats (exact)."""
    from scipy.optimize import linear_sum_assignment

    members = members[:]
    rng.shuffle(members)  # ties between equal costs broken by the seed
    size = len(members)
    cost = [[0.0] * size for _ in range(size)]
    for i, p in enumerate(members):
        for s in range(size):
            if not isinstance(p, _AI):
                cost[i][s] = SEAT_WEIGHT * seat_counts.get((p, s), 0)
    rows, cols = linear_sum_assignment(cost)
    ordered: list = [None] * size
    for r, c in zip(rows, cols):
        ordered[c] = members[r]
    return ordered
