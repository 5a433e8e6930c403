"""Reads of the league: results as values, standings, histories, leaderboards.

Results come from the :class:`~league.models.Result` projection (the live
view) or, with ``from_events=True``, straight from the result events (the
rebuild); both give the same :class:`~league.standings.GameResult` values, and
so the same standings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy

from .charts import Series, places_series
from .models import (Club, League, Player, Result, ResultEvent, Round, Seat,
                     TableGame, Tournament)
from .ratings import Rating, compute_ratings
from .standings import (DEFAULT_PRECEDENCE, GameResult, Standing,
                        compute_standings, places_by_round)

def _description(family: str):
    """The family's description (:mod:`engine.family`), ``None`` for a
    family the engine does not know (an old row)."""
    from engine.registry import family_for

    try:
        return family_for(family)
    except ValueError:
        return None


def family_name(family: str) -> str:
    """The family's name for people (its description's ``title``)."""
    described = _description(family)
    return gettext(described.title) if described is not None else family.replace("_", " ").capitalize()


def variant_name(variant) -> str:
    """A variant's name for people, in the reader's language (a game class
    or its key; the key itself for a variant the engine does not know)."""
    from engine.errors import EngineError
    from engine.registry import find_variant

    try:
        cls = variant if isinstance(variant, type) else find_variant(variant)
    except EngineError:
        return str(variant)
    described = _description(cls.family)
    return gettext(described.variant_title(cls.variant)) if described is not None else cls.variant


def ai_level_name(family: str, level: str) -> str:
    """An AI level's name for people, in the reader's language."""
    described = _description(family)
    return gettext(described.ai_level_title(level)) if described is not None else level


def fewer_is_better(family: str) -> bool:
    """Whether the family's own points are better fewer (the league stores
    their negation, and shows them back as points)."""
    described = _description(family)
    return bool(described is not None and described.fewer_is_better)


def default_precedence(family: str) -> list[str]:
    """The tie-breaks a new tournament of ``family`` gets when none are
    chosen (an empty list: the league's default). Contract rummy results
    are stored as minus the game's points, so every metric orders them the
    right way round; its default ranks by games won, then fewest points
    ("penalty"), then head-to-head."""
    described = _description(family)
    return list(described.precedence) if described is not None else []


def family_pages(family: str) -> dict[str, str]:
    """The family's partial templates for the league's pages, by slot."""
    described = _description(family)
    return dict(described.pages) if described is not None else {}


def family_precedence(family: str) -> list[str]:
    """The metric keys a board over many tournaments of ``family`` ranks by:
    the family's default for a new tournament (:func:`default_precedence`),
    else the league's default."""
    return default_precedence(family) or list(DEFAULT_PRECEDENCE)


def _family_key(family: str) -> tuple:
    """The families in their listing order (Rummikub first), then by name."""
    described = _description(family)
    return (described.order if described is not None else 1000, family_name(family))


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


def tournament_results(tournament: Tournament, *, from_events: bool = False,
                       released_only: bool = False) -> list[GameResult]:
    """Every confirmed game result of the tournament.

    :param from_events: fold the result events instead of reading the
        projection (the last event of each game is the one in force).
    :param released_only: only rounds whose results the organiser has
        released (what the public pages show).
    """
    seats = _seat_players({"table__round__tournament": tournament})
    if released_only:
        results = tournament_results(tournament, from_events=from_events)
        shown = set(tournament.round_set.filter(results_released=True).values_list("number", flat=True))
        return [g for g in results if g.round in shown]
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
                         from_events: bool = False, released_only: bool = False) -> list[Standing]:
    """Standings of the tournament's entries (players ids as ``player``).

    :param rounds: an iterable of round numbers (``None``: all).
    :param released_only: only the results the organiser has released.
    :raises StandingsError: the tournament's precedence names an unknown metric.
    """
    players = tournament.entries.values_list("player_id", flat=True)
    return compute_standings(tournament_results(tournament, from_events=from_events,
                                                released_only=released_only),
                             precedence=tournament.precedence, players=players,
                             rounds=rounds)


@dataclass(frozen=True)
class EntryMark:
    """How an entry stands apart in the standings: withdrawn (after round
    ``withdrawn_after``), not checked in (a no-show), or a late arrival
    playing from round ``from_round``."""

    withdrawn_after: int | None
    checked_in: bool
    from_round: int


def tournament_entry_marks(tournament: Tournament) -> dict[int, EntryMark]:
    """Player id -> :class:`EntryMark` for every entry of the tournament."""
    return {pid: EntryMark(w, c, f) for pid, w, c, f in tournament.entries.values_list(
        "player_id", "withdrawn_after", "checked_in", "from_round")}


def tournament_places(tournament: Tournament, released_only: bool = False) -> dict[int, dict]:
    """Round number -> {player id: cumulative place after that round}."""
    return places_by_round(tournament_results(tournament, released_only=released_only),
                           precedence=tournament.precedence)


def all_results(family: str | None = None) -> list[GameResult]:
    """Every confirmed result of every tournament, oldest first (of the
    rounds whose results are released: boards and ratings are public).

    :param family: only the tournaments of this game family.
    """
    seats = _seat_players({})
    rows = Result.objects.filter(status=Result.Status.CONFIRMED, game__table__round__results_released=True)
    if family is not None:
        rows = rows.filter(game__table__round__tournament__family=family)
    rows = (rows
            .values_list("game_id", "game__table_id", "game__table__round__number",
                         "game__table__round__tournament_id", "event_id",
                         "scores", "winners"))
    return sorted(_game_results(rows, seats), key=lambda g: g.order)


def player_ratings(family: str | None = None) -> dict[int, Rating]:
    """Player id -> openskill rating over every game of every event (games
    with fewer than two human players are left out).

    :param family: rate only this game family's games (Rummikub and contract
        rummy scores are not comparable, so the pages rate them apart).

    Cached under the newest result event's id and the number of results, so
    a new or corrected result (a new event) recomputes it, a page view does
    not."""
    from django.core.cache import cache
    from django.db.models import Count, Max

    stamp = Result.objects.aggregate(n=Count("id"), last=Max("event_id"),
                                     at=Max("event__recorded_at"))
    at = stamp["at"].timestamp() if stamp["at"] else 0
    key = f"league:ratings:{family or '*'}:{stamp['n']}:{stamp['last']}:{at}"
    ratings = cache.get(key)
    if ratings is None:
        ratings = compute_ratings(g for g in all_results(family) if len(g.scores) >= 2)
        cache.set(key, ratings, 3600)
    return ratings


def league_table(league: League) -> list[Standing]:
    """Standings over all the league's tournaments (games won, then points,
    then the default tie-breaks), rounds numbered per tournament."""
    results = []
    for t in league.tournaments.all():
        results += tournament_results(t, released_only=True)
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
    """Every game the player has a confirmed result in, oldest first (of
    the rounds whose results are released)."""
    out = []
    seats = {(s.table_id): s.position for s in Seat.objects.filter(entry__player=player)}
    results = (Result.objects.filter(status=Result.Status.CONFIRMED, game__table__round__results_released=True,
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


@dataclass
class FamilySummary:
    """A player's record in one game family. ``points`` is the sum of game
    scores; ``shown_points`` is what people read (contract rummy: the points
    left in hand, a positive number where fewer is better)."""

    family: str
    name: str
    games: int
    wins: int
    points: int
    rating: Rating | None

    @property
    def fewer_is_better(self) -> bool:
        return fewer_is_better(self.family)

    @property
    def shown_points(self) -> int:
        return -self.points if self.fewer_is_better else self.points


def player_summaries(player: Player, history: list[HistoryRow]) -> list[FamilySummary]:
    """The player's games, wins, points and rating per game family (Rummikub
    first), from their :func:`player_history`."""
    by_family: dict[str, list[HistoryRow]] = defaultdict(list)
    for h in history:
        by_family[h.tournament.family].append(h)
    return [FamilySummary(f, family_name(f), len(rows), sum(h.won for h in rows),
                          sum(h.score for h in rows), player_ratings(f).get(player.pk))
            for f, rows in sorted(by_family.items(), key=lambda kv: _family_key(kv[0]))]


def families_played() -> list[str]:
    """The game families with at least one confirmed result, Rummikub first."""
    families = set(Result.objects.filter(status=Result.Status.CONFIRMED)
                   .values_list("game__table__round__tournament__family", flat=True)
                   .distinct())
    return sorted(families, key=_family_key)


@dataclass
class FamilyBoard:
    """A board (standings) over the games of one family.

    ``family`` is the key, ``name`` its display name, ``precedence`` the
    metric keys it is ranked by."""

    family: str
    name: str
    precedence: list[str]
    standings: list[Standing]


def _members_only(results, members) -> list[GameResult]:
    out = []
    for g in results:
        mine = {p: s for p, s in g.scores.items() if p in members}
        if mine:
            out.append(GameResult(game=g.game, round=1, scores=mine,
                                  winners=g.winners & set(mine), order=g.order))
    return out


def club_leaderboard(club: Club, family: str | None = None) -> list[Standing]:
    """Standings of the club's players over every tournament they played.

    :param family: only this game family's games, ranked by its precedence
        (:func:`family_precedence`); ``None`` mixes every family (points of
        different families do not compare: prefer
        :func:`club_leaderboards`).
    """
    members = set(club.players.values_list("pk", flat=True))
    results = _members_only(all_results(family), members)
    if family is None:
        return compute_standings(results, players=members)
    played = {p for g in results for p in g.scores}
    return compute_standings(results, precedence=family_precedence(family), players=played)


def club_leaderboards(club: Club) -> list[FamilyBoard]:
    """One leaderboard per game family the club's players have results in
    (Rummikub first); each lists the members who played that family."""
    members = set(club.players.values_list("pk", flat=True))
    families = (Result.objects.filter(status=Result.Status.CONFIRMED,
                                      game__table__seats__entry__player__in=members)
                .values_list("game__table__round__tournament__family", flat=True)
                .distinct())
    return [FamilyBoard(f, family_name(f), family_precedence(f), club_leaderboard(club, f))
            for f in sorted(set(families), key=_family_key)]


def league_tables(league: League) -> list[FamilyBoard]:
    """The league table, one per game family among its tournaments (a
    league of one family has one table)."""
    by_family: dict[str, list[GameResult]] = defaultdict(list)
    for t in league.tournaments.all():
        by_family[t.family] += tournament_results(t, released_only=True)
    return [FamilyBoard(f, family_name(f), family_precedence(f),
                        compute_standings(by_family[f], precedence=family_precedence(f)))
            for f in sorted(by_family, key=_family_key)]


def club_chart_tournaments(club: Club) -> list[Tournament]:
    """Tournaments the club's players entered that have a confirmed result,
    newest first."""
    with_results = (Result.objects.filter(status=Result.Status.CONFIRMED)
                    .values("game__table__round__tournament"))
    return list(Tournament.objects.filter(entries__player__club=club, pk__in=with_results)
                .distinct().order_by("-date", "-id"))


def default_chart_tournament(tournaments: list[Tournament]) -> Tournament | None:
    """The newest tournament of the first-listed family (Rummikub) in the
    list (newest first), else the newest of any family, else ``None``."""
    from engine.registry import families

    first = families()[0].name
    return next((t for t in tournaments if t.family == first), tournaments[0] if tournaments else None)


def tournament_places_series(tournament: Tournament, players=None, released_only: bool = False) -> list[Series]:
    """The chart's lines: one per player (optionally only ``players``), each
    with the player's cumulative place after every round with results."""
    places = tournament_places(tournament, released_only=released_only)
    ranked = {p for ranks in places.values() for p in ranks}
    names = {pid: p.name for pid, p in players_by_id(ranked).items()}
    return places_series(places, names, players=set(players) if players is not None else None)


def round_tables(rnd: Round) -> list[dict]:
    """For display: each table with its seats and its games' results."""
    tables = []
    for table in rnd.tables.prefetch_related("seats__entry__player", "games__results", "games__stream"):
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


def round_live(tables: list[dict]) -> list[dict]:
    """The games of a round being played now, one per table at most (the
    table's first game whose stream is still in play), for the round page's
    tables in miniature: ``{"table", "number", "game_id", "version"}``."""
    live = []
    for t in tables:
        for g in t["games"]:
            stream = g["game"].stream
            if stream is not None and not stream.is_over:
                live.append({"table": t["table"].number, "number": g["game"].number,
                             "game_id": stream.pk, "version": stream.version})
                break
    return live


#: a table's state on the round desk, in the order the desk wants attention
DESK_STATES = ("disputed", "discrepancy", "waiting", "playing", "entered", "game over", "result in")
#: each state in the reader's language
DESK_STATE_LABELS = {"disputed": pgettext_lazy("table state", "disputed"),
                     "discrepancy": pgettext_lazy("table state", "discrepancy"),
                     "waiting": pgettext_lazy("table state", "waiting"),
                     "playing": pgettext_lazy("table state", "playing"),
                     "entered": pgettext_lazy("table state", "entered"),
                     "game over": pgettext_lazy("table state", "game over"),
                     "result in": pgettext_lazy("table state", "result in")}


def round_desk(rnd: Round) -> list[dict]:
    """The round desk: each table with its players and its state:
    ``disputed`` (a dispute waits on one of its games), ``waiting`` (no game
    begun), ``playing`` (a game in play in the system, or some of the
    table's games recorded and not all), ``game over`` (played
    through, its result not yet recorded), ``result in`` (every game has a
    confirmed result); with the games done of all and links to each game's
    stream and score sheet. ``discrepancy``: two players at the table
    entered different sheets (the organiser accepts one); ``entered``: a
    sheet waits for a second player's confirmation."""
    from games.models import Dispute

    from .models import SheetEntry
    from .sheet_compare import compare_entries

    tables = []
    rows = round_tables(rnd)
    # the round's disputes and open sheet entries, one query each
    streams = [g["game"].stream_id for t in rows for g in t["games"] if g["game"].stream_id]
    disputes_of: dict[int, list] = {}
    for d in (Dispute.objects.filter(game_id__in=streams).order_by("pk") if streams else ()):
        disputes_of.setdefault(d.game_id, []).append(d)
    entries_of: dict[int, list] = {}
    settled_of: dict[int, list] = {}     # the entries that made a result: who, from which phone, when
    for e in (SheetEntry.objects.filter(game__table__round=rnd,
                                        status__in=(SheetEntry.Status.ENTERED, SheetEntry.Status.DISCREPANCY,
                                                    SheetEntry.Status.CONFIRMED, SheetEntry.Status.ACCEPTED))
              .select_related("game").order_by("pk")):
        if e.status in (SheetEntry.Status.ENTERED, SheetEntry.Status.DISCREPANCY):
            entries_of.setdefault(e.game.table_id, []).append(e)
        else:
            settled_of.setdefault(e.game.table_id, []).append(e)
    for table_id, settled in settled_of.items():     # one line per game: who, from which phone, when
        games_of: dict[int, list] = {}
        for e in settled:
            games_of.setdefault(e.game_id, []).append(e)
        settled_of[table_id] = [
            {"game": es[0].game, "entries": es,
             # both players' codes typed on one phone: the desk says so
             "same_phone": len(es) > 1 and all(e.device for e in es) and len({e.device for e in es}) == 1}
            for es in sorted(games_of.values(), key=lambda es: es[0].game.number)]
    for t in rows:
        games = t["games"]
        table_disputes = sorted((d for g in games if g["game"].stream_id
                                 for d in disputes_of.get(g["game"].stream_id, ())), key=lambda d: d.pk)
        number_of = {g["game"].stream_id: g["game"].number for g in games}
        for d in table_disputes:
            d.table_game_number = number_of.get(d.game_id)
        disputed = any(d.status in ("waiting", "running") for d in table_disputes)
        done = sum(1 for g in games if g["result"])
        started = [g["game"].stream for g in games if g["game"].stream_id]
        entries = entries_of.get(t["table"].pk, [])
        clashes = [e for e in entries if e.status == SheetEntry.Status.DISCREPANCY]
        if disputed:
            state = "disputed"
        elif clashes:
            state = "discrepancy"
        elif games and done == len(games):
            state = "result in"
        elif any(s.status == "finished" for s in started) and not any(s.status != "finished" for s in started):
            state = "game over"
        elif started or done:   # a game under way here, or some of the table's games recorded
            state = "playing"
        elif entries:
            state = "entered"
        else:
            state = "waiting"
        seat_names = [s.entry.player.name if s.entry else str(s) for s in t["seats"]]
        by_game: dict[int, list] = {}
        for e in clashes:
            by_game.setdefault(e.game_id, []).append(e)
        comparisons = [{"game": es[0].game, "sides": compare_entries(es, seat_names)}
                       for es in by_game.values() if len(es) > 1]
        tables.append({**t, "state": state, "comparisons": comparisons, "state_label": DESK_STATE_LABELS[state], "disputes": table_disputes,
                       "streamed": [g["game"] for g in games if g["game"].stream_id], "clashes": clashes, "entries": entries, "settled": settled_of.get(t["table"].pk, []), "done": done, "count": len(games),
                       "names": [s.entry.player.name if s.entry else str(s) for s in t["seats"]]})
    return tables


def game_has_result(game: TableGame) -> bool:
    return game.results.filter(status=Result.Status.CONFIRMED).exists()
