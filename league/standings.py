"""Standings: rank players from game results. A pure algorithm.

Nothing here touches the database; :mod:`league.manager` turns rows into
:class:`GameResult` values and calls :func:`compute_standings`.

Ranking follows seed 001 ("the player who has won the most games ... In the
case of a tie, the player with the highest score is the winner"): games won,
then points, then the tie-breaks a tournament chooses, in its order. Each
criterion is a small metric class (``key``, ``name``, ``abbr``,
``ascending``) in :data:`METRICS`; a tournament stores its precedence as a
list of keys. Players still level after every criterion share a rank and are
shown as ties (``"3="``).

Players with no game (a no-show, a late arrival not yet seated) are not
ranked: they come after the ranked rows with ``rank`` ``None`` (shown ``–``),
so a player who has not played is never placed above one who has.

A tournament may rank first by a rate that is fair across table sizes
(:data:`RANKING_BASES`): games won per game played (``win_rate``), points
per game (``avg``) or the table score (``table_score``: per game, the share
of the table's other players a player outscored, a tie counting half,
averaged over the games played, as a percentage), its tie-breaks following.

Some metrics look only at the player (points, fewest penalty points); others
look at the group of players still tied (head-to-head), and are computed
within that group only, as the tie is being broken (``None`` for a player
who was not tied when that metric's turn came).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Mapping, Sequence

DEFAULT_PRECEDENCE = ("wins", "points", "h2h", "penalty")

#: what a tournament ranks by first: the metric key, and its tie-breaks
#: follow (``wins``: the tie-breaks as set, games won first by default)
RANKING_BASES = ("wins", "win_rate", "avg", "table_score")


def ranked_precedence(basis: str, tiebreaks: Sequence[str]) -> list[str]:
    """The precedence for a ranking basis: ``wins`` keeps the tie-breaks as
    they are; another basis comes first, the tie-breaks after it (without
    itself).

    :raises StandingsError: an unknown basis.
    """
    if basis not in RANKING_BASES:
        raise StandingsError(f"unknown ranking basis {basis!r} (known: {', '.join(RANKING_BASES)})")
    keys = list(tiebreaks) or list(DEFAULT_PRECEDENCE)
    if basis == "wins":
        return keys
    return [basis] + [k for k in keys if k != basis]


class StandingsError(ValueError):
    """Bad input to the standings: an unknown metric key, a result whose
    scores do not add up. The message names it."""


@dataclass(frozen=True)
class GameResult:
    """One finished game.

    :param game: an id of the game (any hashable).
    :param round: the round number it belongs to (1, 2, ...).
    :param scores: player id -> score of that game (zero-sum in Rummikub).
    :param winners: who won; by default the players with the top score.
    :param order: a sort key placing games in time order (for ratings).
    """

    game: Hashable
    round: int
    scores: Mapping[Hashable, int]
    winners: frozenset = field(default=None)  # type: ignore[assignment]
    order: tuple = ()

    def __post_init__(self):
        if not self.scores:
            raise StandingsError(f"game {self.game!r} has no scores")
        if self.winners is None:
            top = max(self.scores.values())
            object.__setattr__(self, "winners", frozenset(
                p for p, s in self.scores.items() if s == top))
        else:
            object.__setattr__(self, "winners", frozenset(self.winners))
            unknown = self.winners - set(self.scores)
            if unknown:
                raise StandingsError(
                    f"game {self.game!r}: winner(s) {sorted(map(str, unknown))} "
                    "have no score")


@dataclass
class PlayerRecord:
    """What the metrics read about one player (built by :func:`tally`)."""

    player: Hashable
    played: int = 0
    wins: int = 0
    points: int = 0
    penalty: int = 0            # points lost: sum of negative game scores
    best: int | None = None     # best single-game score
    table_share: float = 0.0    # sum over games of the share of the table outscored
    table_games: int = 0        # games with at least one other player (for the table score)
    games: list = field(default_factory=list)   # GameResults played
    by_round: dict = field(default_factory=lambda: defaultdict(int))


@dataclass
class Standing:
    """One row of a standings table."""

    player: Hashable
    rank: int | None
    tied: bool
    metrics: dict
    record: PlayerRecord

    @property
    def ranked(self) -> bool:
        """Whether the player is ranked (has played a game)."""
        return self.rank is not None

    @property
    def rank_label(self) -> str:
        """``"3"`` or, for a shared rank, ``"3="``; ``"–"`` unranked."""
        if self.rank is None:
            return "–"
        return f"{self.rank}=" if self.tied else str(self.rank)


# --- metrics ------------------------------------------------------------------

class Metric:
    """A ranking criterion. Higher is better unless ``ascending``.

    ``group_dependent`` metrics are computed among the players still tied;
    the others once per player.
    """

    key: str = ""
    name: str = ""
    abbr: str = ""
    ascending: bool = False
    group_dependent: bool = False

    def value(self, record: PlayerRecord, everyone: Mapping) -> float:
        """This metric for one player; ``everyone`` maps each player to their
        record. :raises NotImplementedError: on a group-dependent metric
        (use :meth:`values_in_group`)."""
        raise NotImplementedError

    def values_in_group(self, records: Sequence[PlayerRecord]) -> dict:
        """This metric for each of the tied ``records`` (player -> value)."""
        raise NotImplementedError


METRICS: dict[str, Metric] = {}


def register(cls):
    """Class decorator adding a metric to :data:`METRICS` by its key."""
    METRICS[cls.key] = cls()
    return cls


@register
class Wins(Metric):
    key, name, abbr = "wins", "Games won", "W"

    def value(self, record, everyone):
        return record.wins


@register
class Points(Metric):
    key, name, abbr = "points", "Points", "Pts"

    def value(self, record, everyone):
        return record.points


@register
class FewestPenalty(Metric):
    """Points lost on racks: the sum of a player's negative game scores."""

    key, name, abbr, ascending = "penalty", "Fewest penalty points", "Pen", True

    def value(self, record, everyone):
        return record.penalty


@register
class BestGame(Metric):
    key, name, abbr = "best", "Best single game", "Best"

    def value(self, record, everyone):
        return record.best if record.best is not None else 0


@register
class AveragePoints(Metric):
    """Points per game played (fair to late arrivals and withdrawals)."""

    key, name, abbr = "avg", "Points per game", "Avg"

    def value(self, record, everyone):
        return round(record.points / record.played, 3) if record.played else 0


@register
class WinRate(Metric):
    """Games won per game played: fair when tables of 4 play four games a
    round and tables of 3 play three."""

    key, name, abbr = "win_rate", "Games won per game played", "W/G"

    def value(self, record, everyone):
        return round(record.wins / record.played, 3) if record.played else 0


@register
class TableScore(Metric):
    """The table score: in each game, the share of the table's other players
    a player outscored (a tie counts half), averaged over the games played,
    as a percentage: 100 beat everyone every time, 50 is the average at a
    table of any size."""

    key, name, abbr = "table_score", "Table score", "TS%"

    def value(self, record, everyone):
        if not record.table_games:
            return 0
        return round(100 * record.table_share / record.table_games, 1)


@register
class HeadToHead(Metric):
    """Among the players still tied: in the games where two or more of them
    met, how many of the others each one outscored (each pair per game)."""

    key, name, abbr = "h2h", "Head-to-head", "H2H"
    group_dependent = True

    def values_in_group(self, records):
        group = {r.player for r in records}
        out = {p: 0 for p in group}
        seen = set()
        for r in records:
            for g in r.games:
                if g.game in seen:
                    continue
                seen.add(g.game)
                here = [p for p in g.scores if p in group]
                for a in here:
                    out[a] += sum(1 for b in here
                                  if b != a and g.scores[a] > g.scores[b])
        return out


@register
class OpponentWins(Metric):
    """Strength of the field met: the games won by everyone a player sat
    with, once per game shared (as Buchholz is in chess)."""

    key, name, abbr = "opp_wins", "Opponents' wins", "OppW"

    def value(self, record, everyone):
        return sum(everyone[p].wins
                   for g in record.games for p in g.scores if p != record.player)


def check_precedence(keys: Iterable[str]) -> list[str]:
    """Validate a precedence list.

    :raises StandingsError: an unknown key, or a key listed twice.
    """
    keys = list(keys)
    unknown = [k for k in keys if k not in METRICS]
    if unknown:
        raise StandingsError(
            f"unknown tie-break(s) {', '.join(unknown)} "
            f"(known: {', '.join(sorted(METRICS))})")
    if len(set(keys)) != len(keys):
        raise StandingsError(f"tie-break listed twice in {keys}")
    if not keys:
        raise StandingsError("the precedence needs at least one metric")
    return keys


# --- computing ------------------------------------------------------------------

def tally(results: Iterable[GameResult], players: Iterable[Hashable] = ()
          ) -> dict[Hashable, PlayerRecord]:
    """One :class:`PlayerRecord` per player from the results (players with
    no game yet, listed in ``players``, get an empty record)."""
    records: dict[Hashable, PlayerRecord] = {p: PlayerRecord(p) for p in players}
    for g in results:
        for p, score in g.scores.items():
            rec = records.get(p)
            if rec is None:
                rec = records[p] = PlayerRecord(p)
            rec.played += 1
            rec.points += score
            rec.by_round[g.round] += score
            if score < 0:
                rec.penalty -= score
            if rec.best is None or score > rec.best:
                rec.best = score
            if p in g.winners:
                rec.wins += 1
            rec.games.append(g)
            others = len(g.scores) - 1
            if others:
                beaten = sum(1 for q, t in g.scores.items() if q != p and score > t)
                level = sum(1 for q, t in g.scores.items() if q != p and score == t)
                rec.table_share += (beaten + level / 2) / others
                rec.table_games += 1
    return records


def compute_standings(results: Iterable[GameResult], *,
                      precedence: Sequence[str] = DEFAULT_PRECEDENCE,
                      players: Iterable[Hashable] = (),
                      rounds: Iterable[int] | None = None) -> list[Standing]:
    """Rank players.

    :param precedence: metric keys in order (see :data:`METRICS`).
    :param players: players to list even without a game yet (unranked,
        after the ranked rows, with ``rank`` ``None``).
    :param rounds: only count games of these rounds (``None``: all; use a
        single round for per-round standings, ``range(1, k + 1)`` for the
        cumulative standings after round ``k``).
    :returns: rows best first; equal rows share a rank and are ``tied``;
        players without a game last, unranked.
    :raises StandingsError: an unknown metric key.
    """
    keys = check_precedence(precedence)
    if rounds is not None:
        wanted = set(rounds)
        results = [g for g in results if g.round in wanted]
    records = tally(results, players)
    metrics = [METRICS[k] for k in keys]
    values: dict[Hashable, dict] = {p: {} for p in records}
    for m in metrics:
        if not m.group_dependent:
            for p, r in records.items():
                values[p][m.key] = m.value(r, records)

    def sort_key(metric, vals):
        return (lambda p: vals[p]) if metric.ascending else (lambda p: -vals[p])

    # Break ties level by level; ``groups`` is a list of lists of players
    # still tied, in rank order.
    unplayed = sorted((p for p, r in records.items() if not r.played), key=str)
    groups: list[list] = [sorted((p for p, r in records.items() if r.played), key=str)]
    if not groups[0]:
        groups = []
    for m in metrics:
        next_groups: list[list] = []
        for group in groups:
            if len(group) == 1:
                if m.group_dependent:
                    values[group[0]][m.key] = None  # no tie to break
                next_groups.append(group)
                continue
            if m.group_dependent:
                vals = m.values_in_group([records[p] for p in group])
                for p, v in vals.items():
                    values[p][m.key] = v
            else:
                vals = {p: values[p][m.key] for p in group}
            ordered = sorted(group, key=sort_key(m, vals))
            run = [ordered[0]]
            for p in ordered[1:]:
                if vals[p] == vals[run[-1]]:
                    run.append(p)
                else:
                    next_groups.append(run)
                    run = [p]
            next_groups.append(run)
        groups = next_groups

    rows: list[Standing] = []
    position = 1
    for group in groups:
        tied = len(group) > 1
        for p in group:
            rows.append(Standing(player=p, rank=position, tied=tied,
                                 metrics=values[p], record=records[p]))
        position += len(group)
    for p in unplayed:
        for m in metrics:
            if m.group_dependent:
                values[p][m.key] = None
        rows.append(Standing(player=p, rank=None, tied=False, metrics=values[p], record=records[p]))
    return rows


def round_totals(results: Iterable[GameResult]) -> dict[int, dict]:
    """Round number -> {player: points in that round}."""
    out: dict[int, dict] = defaultdict(lambda: defaultdict(int))
    for g in results:
        for p, s in g.scores.items():
            out[g.round][p] += s
    return {r: dict(v) for r, v in sorted(out.items())}


def places_by_round(results: Sequence[GameResult], *,
                    precedence: Sequence[str] = DEFAULT_PRECEDENCE
                    ) -> dict[int, dict]:
    """Round number -> {player: cumulative rank after that round} (for the
    chart of places over rounds)."""
    results = list(results)
    rounds = sorted({g.round for g in results})
    out = {}
    for k in rounds:
        rows = compute_standings(results, precedence=precedence,
                                 rounds=[r for r in rounds if r <= k])
        out[k] = {row.player: row.rank for row in rows}
    return out
