"""Writes of the league: entries, seating, results, closing rounds.

Every function here takes keyword arguments, validates, then writes inside a
transaction. Errors a club official can fix are :class:`LeagueError`
(a ``ValueError``) with a message naming the problem; anything else is a bug.

Results are events (:class:`~league.models.ResultEvent`), appended to the
game's own little stream with the next version number (unique together with
the game: two officials typing the same sheet at once cannot both win). The
:class:`~league.models.Result` rows are the projection: written here as each
event is appended, and rebuilt from the events by :func:`results_rebuild`.
"""

from __future__ import annotations

import secrets
from typing import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import ngettext

from engine.errors import EngineError
from engine.registry import family_for
from games.ai_seats import AISeatError, ai_seats_play, available_levels, default_level
from games.errors import GameServiceError
from games.models import Event
from games.services import game_create

from . import manager, seating_reads, selectors
from .models import (Club, Entry, Player, Result, ResultEvent, Round, Seat,
                     TableGame, Tournament)
from .refusals import LeagueError, engine_refusal, seating_refusal
from .seating import SeatingError
from .standings import StandingsError, check_precedence


# --- people and entries -----------------------------------------------------------

def tournament_enter(*, tournament: Tournament, player: Player,
                     checked_in: bool = False) -> Entry:
    """Enter ``player`` in ``tournament`` (again: returns the same entry).

    A player entering once rounds have started is a late arrival: seated from
    the next round on.

    :raises LeagueError: the tournament is finished.
    """
    if tournament.status == Tournament.Status.FINISHED:
        raise LeagueError(gettext("%(tournament)s is finished: no new entries") % {"tournament": tournament})
    started = tournament.round_set.exclude(status=Round.Status.PENDING).count()
    entry, created = Entry.objects.get_or_create(
        tournament=tournament, player=player,
        defaults={"checked_in": checked_in, "from_round": started + 1})
    if not created and checked_in and not entry.checked_in:
        entry.checked_in = True
        entry.save(update_fields=["checked_in"])
    return entry


def club_for_name(*, name: str) -> Club:
    """The club of that name (any case), made if there is none.

    :raises LeagueError: no name, or one too long.
    """
    name = " ".join((name or "").split())
    if not name:
        raise LeagueError(gettext("give the club's name"))
    if len(name) > 120:
        raise LeagueError(gettext("a club's name is at most 120 characters"))
    club = Club.objects.filter(name__iexact=name).first()
    if club is not None:
        return club
    from django.utils.text import slugify

    base = slugify(name)[:110] or "club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return Club.objects.create(name=name, slug=slug)


def players_import(*, rows, take_doubtful: set[int] = frozenset(),
                   tournament: Tournament | None = None) -> dict:
    """Save a previewed CSV's rows (:func:`league.players_csv.apply`) and,
    for a tournament, enter every player saved or matched (not checked in:
    the check-in desk does that as they arrive). All or nothing.

    :raises LeagueError: the tournament is finished.
    """
    from . import players_csv

    with transaction.atomic():
        done = players_csv.apply(rows, take_doubtful=take_doubtful)
        if tournament is not None:
            for player in done["players"]:
                tournament_enter(tournament=tournament, player=player)
    return done


def entry_check_in(*, entry: Entry) -> Entry:
    """Mark an entry present. A late arrival plays from the next round that
    has not been seated yet."""
    started = entry.tournament.round_set.exclude(status=Round.Status.PENDING).count()
    entry.checked_in = True
    entry.from_round = max(entry.from_round, started + 1)
    entry.save(update_fields=["checked_in", "from_round"])
    return entry


def entry_walk_in(*, tournament: Tournament, name: str) -> Entry:
    """A player who walks in: found (or made) in the tournament's club by
    name, entered and checked in.

    :raises LeagueError: no name, a name too long, or a finished tournament.
    """
    name = " ".join((name or "").split())
    if not name:
        raise LeagueError(gettext("type the walk-in's name"))
    if len(name) > 120:
        raise LeagueError(gettext("a name is at most 120 characters"))
    player, _ = Player.objects.get_or_create(name=name, club=tournament.club)
    return entry_check_in(entry=tournament_enter(tournament=tournament, player=player))


def entry_withdraw(*, entry: Entry) -> Entry:
    """Withdraw a player: their results so far stand; they are not seated in
    any round not yet seated.

    :raises LeagueError: already withdrawn.
    """
    if entry.withdrawn_after is not None:
        raise LeagueError(gettext("%(name)s already withdrew after round %(n)s")
                          % {"name": entry.player, "n": entry.withdrawn_after})
    entry.withdrawn_after = entry.tournament.round_set.exclude(
        status=Round.Status.PENDING).count()
    entry.save(update_fields=["withdrawn_after"])
    return entry


def tournament_set_tiebreaks(*, tournament: Tournament, keys: Sequence[str]) -> Tournament:
    """Set the tournament's precedence of metrics.

    :raises LeagueError: an unknown or repeated key.
    """
    try:
        tournament.tiebreaks = check_precedence(keys)
    except StandingsError as exc:
        raise LeagueError(str(exc)) from None
    tournament.save(update_fields=["tiebreaks"])
    return tournament


# --- rounds and seating ----------------------------------------------------------

def round_seat(*, tournament: Tournament, seed: str | None = None) -> Round:
    """Seat the next round: draw tables with :func:`league.seating.seat_round`
    (history, standings and AI fill from the tournament) and create each
    table's games (N games for N seats, the first seat rotating).

    :raises LeagueError: the previous round is not closed, every round is
        already seated, or the checked-in players cannot be seated.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        rounds = list(tournament.round_set.order_by("number"))
        if rounds and rounds[-1].status != Round.Status.CLOSED:
            raise LeagueError(gettext("round %(n)s is not closed yet") % {"n": rounds[-1].number})
        number = len(rounds) + 1
        if tournament.rounds < 1:
            raise LeagueError(gettext("the tournament has no rounds: set its number of rounds (1 or more)"))
        if number > tournament.rounds:
            raise LeagueError(gettext("all %(n)s rounds are already seated") % {"n": tournament.rounds})
        seed = seed or secrets.token_hex(8)
        try:
            rnd = manager.create_round_seating(tournament=tournament, number=number,
                                               seed=seed)
        except SeatingError as exc:
            raise seating_refusal(number, exc) from None
        if tournament.status == Tournament.Status.DRAFT:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return rnd


def _round_open_for_seating(rnd: Round) -> None:
    """:raises LeagueError: the round's play has begun (see
    :func:`league.seating_reads.round_seating_final`)."""
    reason = seating_reads.round_seating_final(rnd)
    if reason:
        raise LeagueError(reason)


def round_swap(*, round: Round, seat_a: int, seat_b: int) -> Round:
    """Swap the players (or AI seats) of two seats of a round by hand, before
    play begins; the round's repeat meetings and repeat seats are counted
    again against the earlier rounds.

    :raises LeagueError: the same seat twice, a seat not of this round, or
        the round's play has begun.
    """
    if seat_a == seat_b:
        raise LeagueError(gettext("choose two different seats to swap"))
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        _round_open_for_seating(rnd)
        seats = {s.pk: s for s in Seat.objects.select_for_update().filter(table__round=rnd,
                                                                           pk__in=(seat_a, seat_b))}
        if len(seats) != 2:
            raise LeagueError(gettext("both seats must be of round %(n)s") % {"n": rnd.number})
        a, b = seats[seat_a], seats[seat_b]
        moved = [(a, b.entry_id, b.ai_level), (b, a.entry_id, a.ai_level)]
        Seat.objects.filter(pk__in=(a.pk, b.pk)).update(entry=None)   # (table, entry) stays unique
        for seat, entry_id, level in moved:
            seat.entry_id, seat.ai_level = entry_id, level
            seat.save(update_fields=["entry", "ai_level"])
        layout, _ = seating_reads.round_layout(rnd)
        rnd.repeat_mates, rnd.repeat_seats = seating_reads.layout_repeats(rnd, layout)
        rnd.save(update_fields=["repeat_mates", "repeat_seats"])
    return rnd


def round_reseat(*, round: Round, seed: str | None = None) -> Round:
    """Draw a round's seating again (a new seed unless given) from the
    players checked in now, before play begins: the tables, seats and games
    are made anew, so sheets printed before are void.

    :raises LeagueError: the round's play has begun, or the players cannot
        be seated.
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        _round_open_for_seating(rnd)
        tournament, number = rnd.tournament, rnd.number
        rnd.delete()
        try:
            return manager.create_round_seating(tournament=tournament, number=number,
                                                seed=seed or secrets.token_hex(8))
        except SeatingError as exc:
            raise seating_refusal(number, exc) from None


def seating_conflict_add(*, tournament: Tournament, player_a: Player, player_b: Player,
                         reason: str = "") -> "SeatingConflict":
    """Two players who must not sit at one table from the next seating on
    (the same pair again returns the pair stored).

    :raises LeagueError: one player twice, or a player not entered.
    """
    from .models import SeatingConflict

    if player_a.pk == player_b.pk:
        raise LeagueError(gettext("choose two different players"))
    entered = set(tournament.entries.filter(player__in=[player_a, player_b]).values_list("player_id", flat=True))
    for p in (player_a, player_b):
        if p.pk not in entered:
            raise LeagueError(gettext("%(name)s is not entered in %(tournament)s")
                              % {"name": p.name, "tournament": tournament.name})
    a, b = sorted((player_a, player_b), key=lambda p: p.pk)
    conflict, _ = SeatingConflict.objects.get_or_create(
        tournament=tournament, player_a=a, player_b=b, defaults={"reason": " ".join(reason.split())[:120]})
    return conflict


def seating_conflict_remove(*, conflict) -> None:
    """The pair may sit together again (from the next seating on)."""
    conflict.delete()


def round_release(*, round: Round, draw: bool | None = None, results: bool | None = None) -> Round:
    """Release (``True``) or withhold (``False``) the round's draw or its
    results on the public pages and the projector; ``None`` leaves that one
    as it is. Results are released only with the draw.

    :raises LeagueError: results released while the draw is withheld.
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if draw is not None:
            rnd.draw_released = draw
            if not draw:
                rnd.results_released = False
        if results is not None:
            if results and not rnd.draw_released:
                raise LeagueError(gettext("release round %(n)s's draw before its results") % {"n": rnd.number})
            rnd.results_released = results
        rnd.save(update_fields=["draw_released", "results_released"])
    return rnd


def round_start_clock(*, round: Round) -> Round:
    """Start the round's clock (the desk and the projector count from it).
    Starting it again changes nothing.

    :raises LeagueError: the round is closed.
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.status == Round.Status.CLOSED:
            raise LeagueError(gettext("round %(n)s is closed: its clock cannot start") % {"n": rnd.number})
        if rnd.started_at is None:
            rnd.started_at = timezone.now()
            rnd.save(update_fields=["started_at"])
    return rnd


def round_close(*, round: Round) -> Round:
    """Close a round once every game has a confirmed result; the last round
    closing finishes the tournament. Closing twice changes nothing.

    :raises LeagueError: games still without a result (named).
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.status == Round.Status.CLOSED:
            return rnd
        missing = [str(g) for g in TableGame.objects.filter(table__round=rnd)
                   .exclude(results__status=Result.Status.CONFIRMED)
                   .select_related("table").order_by("table__number", "number")]
        if missing:
            shown = "; ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
            raise LeagueError(ngettext("round %(n)s cannot close: %(count)s game has no result yet (%(games)s)",
                                       "round %(n)s cannot close: %(count)s games have no result yet (%(games)s)",
                                       len(missing)) % {"n": rnd.number, "count": len(missing), "games": shown})
        rnd.status = Round.Status.CLOSED
        rnd.closed_at = timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        tournament = rnd.tournament
        if rnd.number >= tournament.rounds:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
    return rnd


# --- results ---------------------------------------------------------------------

def result_record_score_sheet(*, game: TableGame, sheet: dict | None = None, racks: Sequence[str] = (),
                              hands: Sequence[Sequence[str]] | None = None,
                              okey_games: Sequence[dict] | None = None,
                              american: dict | None = None,
                              actor: str = "", correction: bool = False) -> Result:
    """Record a game played on a real table from its score sheet, read,
    checked and scored by the tournament's family in one call
    (:meth:`engine.family.Family.read_sheet`), with the tournament's rule
    options. A correction is a new event superseding the result in force.

    The sheet is ``sheet`` (``{"racks": [...]}``, ``{"hands": [...]}``,
    ``{"games": [...]}``, with ``"won"`` for International Rummikub), or
    the same parts as keywords: ``racks`` (the tiles left on each rack, one
    text per seat, empty for the player who went out), ``hands`` (contract
    rummy: seven lines with the cards every seat had left), ``okey_games``
    (an Okey match's game lines), ``american`` (how an International game
    was won). The family says which parts its sheet has
    (:attr:`engine.family.Sheet.keys`).

    :raises LeagueError: a bad sheet (unknown tile or card, wrong number of
        racks or hands, too many copies of a tile, the parts of another
        family's sheet, ...), a result already recorded when this is not a
        correction, or no result to correct.
    """
    payload = score_sheet_check(game=game, sheet=sheet, racks=racks, hands=hands, okey_games=okey_games,
                                american=american)
    return result_append(game=game, payload=payload, actor=actor, correction=correction)


def sheet_parts(*, sheet: dict | None = None, racks: Sequence[str] = (), hands=None, okey_games=None,
                american=None) -> dict:
    """One sheet dict from ``sheet`` and the keyword parts (those given)."""
    parts = dict(sheet or {})
    if "okey_games" in parts:   # the table page's older name of the game lines
        parts["games"] = parts.pop("okey_games")
    for key, value in (("racks", racks), ("hands", hands), ("games", okey_games), ("won", american)):
        if value is not None and value != ():
            parts[key] = value
    return parts


def score_sheet_check(*, game: TableGame, sheet: dict | None = None, racks: Sequence[str] = (),
                      hands: Sequence[Sequence[str]] | None = None,
                      okey_games: Sequence[dict] | None = None,
                      american: dict | None = None) -> dict:
    """Check and score a sheet without recording it: the result event's
    payload (``scores``, ``winners`` and the sheet as read). The same checks
    as :func:`result_record_score_sheet`, which records what this returns.

    :raises LeagueError: a sheet that cannot be right, named.
    """
    tournament = game.table.round.tournament
    parts = sheet_parts(sheet=sheet, racks=racks, hands=hands, okey_games=okey_games, american=american)
    try:
        return family_for(tournament.family).read_sheet(
            parts, seats=game.table.seats.count(), variant=tournament.variant, rules=tournament.rules,
            first=game.first)
    except EngineError as exc:
        raise engine_refusal(game, exc) from None


def result_record_from_stream(*, game: TableGame, actor: str = "system",
                              correction: bool = False) -> Result:
    """Record the result of a game played through the system, from its
    finished event stream (the scores the engine computed on replay).
    Recording the same finished stream again returns the result already
    recorded (safe for a task that runs twice).

    :raises LeagueError: the game has no stream, or it is not finished, or
        it already has a result from elsewhere (a score sheet) and this is
        not a correction.
    """
    stream = game.stream
    if stream is None:
        raise LeagueError(gettext("%(game)s was not played through the system: enter a score sheet")
                          % {"game": game})
    if not stream.is_over or stream.scores is None:
        raise LeagueError(gettext("%(game)s is still being played (game #%(stream)s, version %(version)s)")
                          % {"game": game, "stream": stream.pk, "version": stream.version})
    if not correction:
        last = game.result_events.order_by("-version").first()
        if (last is not None and last.payload.get("source") == "moves"
                and last.payload.get("stream") == stream.pk
                and last.payload.get("stream_version") == stream.version):
            return last.result  # already recorded from this stream: nothing to do
    raw = [int(s) for s in stream.scores]
    tournament = game.table.round.tournament
    try:
        # the league's scores are more-is-better in every family (contract
        # rummy's cards left are negated), zero-sum where the family's are
        scores, winners = family_for(tournament.family).stream_result(
            raw, variant=tournament.variant, rules=tournament.rules)
    except EngineError as exc:
        raise engine_refusal(game, exc) from None
    # the stream's head as recorded with the result: the games audit checks
    # that the stream still reaches it (league.witness)
    head = Event.objects.filter(game=stream, version=stream.version).values_list("hash", flat=True).first()
    payload = {"source": "moves", "stream": stream.pk, "stream_version": stream.version,
               "stream_hash": head or "", "scores": scores, "raw_scores": raw, "winners": winners}
    return result_append(game=game, payload=payload, actor=actor, correction=correction)


def result_append(*, game: TableGame, payload: dict, actor: str,
                   correction: bool) -> Result:
    with transaction.atomic():
        last = (ResultEvent.objects.filter(game=game).order_by("-version").first())
        if last is None and correction:
            raise LeagueError(gettext("%(game)s has no result to correct") % {"game": game})
        if last is not None and not correction:
            raise LeagueError(gettext("%(game)s already has a result: enter a correction to supersede it")
                              % {"game": game})
        version = 1 if last is None else last.version + 1
        if last is not None:
            payload = dict(payload, supersedes=last.version)
        event_type = ResultEvent.CORRECTED if correction else ResultEvent.RECORDED
        try:
            with transaction.atomic():
                event = ResultEvent.objects.create(game=game, version=version,
                                                   type=event_type, payload=payload,
                                                   actor=actor)
        except IntegrityError:
            raise LeagueError(gettext("%(game)s: another result was recorded at the same moment; "
                                      "reload and check it") % {"game": game}) from None
        return _project(event)


def _project(event: ResultEvent) -> Result:
    """Apply one result event to the projection."""
    Result.objects.filter(game_id=event.game_id, status=Result.Status.CONFIRMED).update(
        status=Result.Status.SUPERSEDED)
    return Result.objects.create(
        game_id=event.game_id, event=event, status=Result.Status.CONFIRMED,
        source=event.payload["source"], scores=event.payload["scores"],
        winners=event.payload["winners"])


def results_rebuild(*, tournament: Tournament | None = None) -> int:
    """Drop the result projection (of one tournament, or all) and replay it
    from the result events: per game, every event gives a result row, the
    last one confirmed and the earlier ones superseded (as :func:`_project`
    does one event at a time). Returns the number of events applied."""
    with transaction.atomic():
        events = ResultEvent.objects.order_by("game_id", "version")
        results = Result.objects.all()
        if tournament is not None:
            events = events.filter(game__table__round__tournament=tournament)
            results = results.filter(game__table__round__tournament=tournament)
        results.delete()
        rows: list[Result] = []
        last_of: dict[int, int] = {}
        for event_id, game_id, payload in events.values_list("id", "game_id", "payload").iterator():
            last_of[game_id] = len(rows)
            rows.append(Result(game_id=game_id, event_id=event_id,
                               status=Result.Status.SUPERSEDED, source=payload["source"],
                               scores=payload["scores"], winners=payload["winners"]))
        for index in last_of.values():
            rows[index].status = Result.Status.CONFIRMED
        Result.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


# --- games played through the system -----------------------------------------------

def ai_level_for(family: str, level: str) -> str:
    """The AI level a seat of ``family`` plays at: ``level`` (another name
    of a level, such as contract rummy's old ``"standard"``, becomes the
    level's name), or the family's default when none is given or when it is
    the league's default ``"random"`` and the family has no such level."""
    from engine.ai import resolve_level

    known = available_levels(family)
    if not level or (level == "random" and known and level not in known):
        return default_level(family)
    return resolve_level(family, level)


def table_game_open_stream(*, game: TableGame, all_ai: bool = False,
                           actor: str = "league") -> TableGame:
    """Create the games app's event stream for a table game (a digital deal
    from a secret seed; seat names from the table; AI seats as AI, and every
    seat as AI with ``all_ai``, as the demo plays). Opening twice returns the
    game as it is. The games app moves the AI seats (``games.ai_move`` tasks,
    queued with the events and sent once they commit).

    :raises LeagueError: the games app refuses the game (the message says why).
    """
    if game.stream_id is not None:
        return game
    table = game.table
    tournament = table.round.tournament
    seats = []
    for seat in table.seats.select_related("entry__player").order_by("position"):
        ai = seat.is_ai or all_ai
        seats.append({"name": str(seat) if not seat.is_ai else f"AI {seat.position + 1}",
                      "kind": "ai" if ai else "human",
                      "ai_level": ai_level_for(tournament.family, seat.ai_level or tournament.ai_level)
                      if ai else ""})
    with transaction.atomic():
        locked = TableGame.objects.select_for_update().get(pk=game.pk)
        if locked.stream_id is not None:
            return locked
        try:
            stream = game_create(variant=tournament.variant, players=len(seats),
                                 rules=tournament.rules, seats=seats, first=game.first,
                                 title=f"{tournament.name}, round {table.round.number}, "
                                       f"table {table.number}, game {game.number}",
                                 actor=actor)
        except GameServiceError as exc:
            raise LeagueError(gettext("%(game)s: %(error)s") % {"game": game, "error": exc}) from None
        locked.stream = stream
        locked.save(update_fields=["stream"])
    return locked


def table_game_play_ai(*, game: TableGame, max_moves: int = 20_000,
                       actor: str = "ai") -> Result:
    """Play a table game's stream to the end here and now, then record the
    result from the stream. The games app plays the AI seats
    (:func:`games.ai_seats.ai_seats_play`: each seat at its level, the same
    moves its ``games.ai_move`` tasks make, each recorded through the games
    app), so every seat must be an AI one (open the stream with ``all_ai``).
    Safe to run again: it resumes from the stream's version, and a recorded
    result is returned as is.

    :raises LeagueError: no stream, an unknown AI level, a seat a person
        plays, or no end within ``max_moves`` moves.
    """
    existing = game.results.filter(status=Result.Status.CONFIRMED).first()
    if existing is not None:
        return existing
    if game.stream_id is None:
        raise LeagueError(gettext("%(game)s has no game stream: open it first") % {"game": game})
    try:
        stopped = ai_seats_play(game_id=game.stream_id, max_moves=max_moves)
    except AISeatError as exc:
        raise LeagueError(gettext("%(game)s: %(error)s") % {"game": game, "error": exc}) from None
    if stopped.status != "game-over":
        why = {"not-ai": gettext("a person is to move"),
               "waiting": gettext("an AI seat waits while a person may still buy the discard"),
               "no-game": gettext("its stream is gone")}.get(stopped.status, stopped.status)
        raise LeagueError(gettext("%(game)s cannot be played to the end by the AI seats: %(why)s "
                                  "(game #%(stream)s, version %(version)s); only a stream opened with "
                                  "every seat an AI one plays alone")
                          % {"game": game, "why": why, "stream": game.stream_id, "version": stopped.version})
    game.refresh_from_db()
    return result_record_from_stream(game=game, actor=actor)
