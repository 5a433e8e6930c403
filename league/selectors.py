"""Reads of the league: results as values, standings, histories, leaderboards.

Results come from the :class:`~league.models.Result` projection (the live
view) or, with ``from_events=True``, straight from the result events (the
rebuild); both give the same :class:`~league.standings.GameResult` values, and
so the same standings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .models import (Club, League, Player, Result, ResultEvent, Round, Seat,
                     TableGame, Tournament)
from .ratings import Rating, compute_ratings
from .standings import (GameResult, Standing, compute_standings,
                        places_by_round)


def _seat_players(game_filter: dict) -> dict[int, dict[int, int | None]]:
    """table id -> {position: player id or None (AI)}."""
    out: dict[int, dict[int, int | None]] = defaultdict(dict)
    for table_id, pos, player in (Seat.objects.filter(**game_filter)
                                  .values_list("table_id", "position", "entry__player_id")):
        out[table_id][pos] = player
    return out


def _game_results(rows, seats) -> list[GameResult]:
    """Rows of (game id, table id, round number, tournament id, event id,
    scores, winners) -> GameResults over human players only (AI seats are
    not ranked)."""
    out = []
    for game_id, table_id, rnd, tournament_id, event_id, scores, winners in rows:
        at = seats[table_id]
        human = {at[i]: s for i, s in enumerate(scores) if at.get(i) is not None}
        if not human:
            continue
        won = frozenset(at[i] for i in winners if at.get(i) is not None)
        out.append(GameResult(game=game_id, round=rnd, scores=human, winners=won,
                              order=(tournament_id, rnd, game_id)))
    return out


def tournament_results(tournament: Tournament, *, from_events: bool = False
                       ) -> list[GameResult]:
    """Every confirmed game result of the tournament.

    :param from_events: fold the result events instead of reading the
        projection (the last event of each game is the one in force).
    """
    seats = _seat_players({"table__round__tournament": tournament})
    if not from_events:
        rows = (Result.objects.filter(status=Result.Status.CONFIRMED,
                                      game__table__round__tournament=tournament)
                .values_list("game_id", "game__table_id", "game__table__round__number",
                             "game__table__round__tournament_id", "event_id",
                             "scores", "winners"))
        return _game_results(rows, seats)
    latest: dict[int, tuple] = {}
    for ev in (ResultEvent.objects.filter(game__table__round__tournament=tournament)
               .order_by("game_id", "version")
               .values_list("game_id", "game__table_id", "game__table__round__number",
                            "game__table__round__tournament_id", "id", "payload")):
        game_id, table_id, rnd, tid, event_id, payload = ev
        latest[game_id] = (game_id, table_id, rnd, tid, event_id,
                           payload["scores"], payload["winners"])
    return _game_results(sorted(latest.values()), seats)


def tournament_standings(tournament: Tournament, *, rounds=None,
                         from_events: bool = False) -> list[Standing]:
    """Standings of the tournament's entries (players ids as ``player``).

    :param rounds: an iterable of round numbers (``None``: all).
    :raises StandingsError: the tournament's precedence names an unknown metric.
    """
    players = tournament.entries.values_list("player_id", flat=True)
    return compute_standings(tournament_results(tournament, from_events=from_events),
                             precedence=tournament.precedence, players=players,
                             rounds=rounds)


def tournament_places(tournament: Tournament) -> dict[int, dict]:
    """Round number -> {player id: cumulative place after that round}."""
    return places_by_round(tournament_results(tournament),
                           precedence=tournament.precedence)


def all_results() -> list[GameResult]:
    """Every confirmed result of every tournament, oldest first."""
    seats = _seat_players({})
    rows = (Result.objects.filter(status=Result.Status.CONFIRMED)
            .values_list("game_id", "game__table_id", "game__table__round__number",
                         "game__table__round__tournament_id", "event_id",
                         "scores", "winners"))
    return sorted(_game_results(rows, seats), key=lambda g: g.order)


def player_ratings() -> dict[int, Rating]:
    """Player id -> openskill rating over every game of every event (games
    with fewer than two human players are left out).

    Cached under the newest result event's id and the number of results, so
    a new or corrected result (a new event) recomputes it, a page view does
    not."""
    from django.core.cache import cache
    from django.db.models import Count, Max

    stamp = Result.objects.aggregate(n=Count("id"), last=Max("event_id"),
                                     at=Max("event__recorded_at"))
    at = stamp["at"].timestamp() if stamp["at"] else 0
    key = f"league:ratings:{stamp['n']}:{stamp['last']}:{at}"
    ratings = cache.get(key)
    if ratings is None:
        ratings = compute_ratings(g for g in all_results() if len(g.scores) >= 2)
        cache.set(key, ratings, 3600)
    return ratings


def league_table(league: League) -> list[Standing]:
    """Standings over all the league's tournaments (games won, then points,
    then the default tie-breaks), rounds numbered per tournament."""
    results = []
    for t in league.tournaments.all():
        results += tournament_results(t)
    return compute_standings(results)


def players_by_id(ids) -> dict[int, Player]:
    return {p.pk: p for p in Player.objects.filter(pk__in=list(ids)).select_related("club")}


@dataclass
class HistoryRow:
    tournament: Tournament
    round: int
    table: int
    game: int
    score: int
    won: bool


def player_history(player: Player) -> list[HistoryRow]:
    """Every game the player has a confirmed result in, oldest first."""
    out = []
    seats = {(s.table_id): s.position for s in Seat.objects.filter(entry__player=player)}
    results = (Result.objects.filter(status=Result.Status.CONFIRMED,
                                     game__table_id__in=list(seats))
               .select_related("game__table__round__tournament")
               .order_by("game__table__round__tournament_id",
                         "game__table__round__number", "game__number"))
    for r in results:
        pos = seats[r.game.table_id]
        out.append(HistoryRow(tournament=r.game.table.round.tournament,
                              round=r.game.table.round.number,
                              table=r.game.table.number, game=r.game.number,
                              score=r.scores[pos], won=pos in r.winners))
    return out


def club_leaderboard(club: Club) -> list[Standing]:
    """Standings of the club's players over every tournament they played."""
    members = set(club.players.values_list("pk", flat=True))
    results = []
    for g in all_results():
        mine = {p: s for p, s in g.scores.items() if p in members}
        if mine:
            results.append(GameResult(game=g.game, round=1, scores=mine,
                                      winners=g.winners & set(mine), order=g.order))
    return compute_standings(results, players=members)


def round_tables(rnd: Round) -> list[dict]:
    """For display: each table with its seats and its games' results."""
    tables = []
    for table in rnd.tables.prefetch_related("seats__entry__player", "games__results"):
        seats = list(table.seats.all())
        games = []
        for game in table.games.all():
            confirmed = [r for r in game.results.all() if r.status == Result.Status.CONFIRMED]
            games.append({"game": game, "result": confirmed[0] if confirmed else None})
        totals = [0] * len(seats)
        for g in games:
            if g["result"]:
                for i, s in enumerate(g["result"].scores):
                    totals[i] += s
        tables.append({"table": table, "seats": seats, "games": games, "totals": totals})
    return tables


def game_has_result(game: TableGame) -> bool:
    return game.results.filter(status=Result.Status.CONFIRMED).exists()
