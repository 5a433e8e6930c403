"""The league's side of the workers: what happens when a game, a round or a
tournament ends. The functions here are the services the tasks of
:mod:`league.tasks` call; they call :mod:`league.services` and
:mod:`league.selectors` and never compute standings themselves.

- A game stream of a tournament finishes (``GameFinished``): the outbox
  handler :func:`queue_result` queues ``league.record_result``, which
  records the result from the stream and closes the round once every game
  of it has a result (:func:`stream_result_record`).
- A round closes (by that task or by an official in the admin): the
  ``post_save`` receiver :func:`queue_final_standings` queues
  ``league.final_standings`` in the same transaction, which records the
  round's standings, the tournament's final standings once it is finished,
  and refreshes the leaderboards (the league table, the club leaderboard,
  the ratings), each as a :class:`~games.models.StandingsEvent` written
  only when its content changed (:func:`final_standings_record`).
- A tournament put on autoplay (:func:`tournament_autoplay_start`) seats
  each next round and opens every game with AI players once the previous
  round closed, until the tournament is finished
  (:func:`tournament_autoplay_step`): a tournament with AI seats plays to the
  end by itself.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from games import outbox
from games.models import Game, StandingsEvent, TaskRun, TaskState
from games.task_state import task_waiting, tracked

from . import selectors, services
from .models import Result, Round, TableGame, Tournament

log = logging.getLogger(__name__)

RESULT_TASK = "league.record_result"
STANDINGS_TASK = "league.final_standings"
AUTOPLAY_TASK = "league.autoplay"
CHECKPOINT_TASK = "games.checkpoint"


def standings_key(tournament_id: int, round_number: int) -> str:
    return f"standings:tournament:{tournament_id}:round:{round_number}"


def autoplay_key(tournament_id: int) -> str:
    return f"autoplay:tournament:{tournament_id}"


# --- dispatch (inside the writing transactions) --------------------------------------

@outbox.on_events
def queue_result(game: Game, events):
    """Outbox handler: a finished stream that is a tournament game queues
    ``league.record_result``."""
    if any(e.type == "GameFinished" for e in events) and \
            TableGame.objects.filter(stream_id=game.pk).exists():
        yield outbox.Message(RESULT_TASK, [game.pk])


@receiver(post_save, sender=Round, dispatch_uid="league.handlers.queue_final_standings")
def queue_final_standings(sender, instance: Round, update_fields=None, **kwargs) -> None:
    """A round saved as closed queues its final standings (and the next
    autoplay step, and a checkpoint of every stream's head), in the
    transaction that closed it."""
    if instance.status != Round.Status.CLOSED:
        return
    if update_fields is not None and "status" not in update_fields:
        return
    key = standings_key(instance.tournament_id, instance.number)
    task_waiting(key, STANDINGS_TASK)
    outbox.enqueue(STANDINGS_TASK, [instance.tournament_id, instance.number])
    # a checkpoint of every stream's head, at least once a round (games.checkpoints)
    outbox.enqueue(CHECKPOINT_TASK, [], {"reason": f"tournament {instance.tournament_id} round "
                                                   f"{instance.number} closed"})
    if TaskRun.objects.filter(key=autoplay_key(instance.tournament_id),
                              status__in=[TaskState.WAITING, TaskState.RUNNING]).exists():
        outbox.enqueue(AUTOPLAY_TASK, [instance.tournament_id])


# --- results ---------------------------------------------------------------------

def stream_result_record(*, stream_id: int) -> dict[str, Any]:
    """Record the result of the tournament game played on stream
    ``stream_id`` and close its round if every game has a result. Running
    it again changes nothing.

    :raises LeagueError: the stream is not finished.
    """
    game = (TableGame.objects.select_related("table__round").filter(stream_id=stream_id).first())
    if game is None:
        return {"status": "not-a-tournament-game", "stream": stream_id}
    recorded = False
    if not game.results.filter(status=Result.Status.CONFIRMED).exists():
        try:
            services.result_record_from_stream(game=game, actor="worker:results")
            recorded = True
        except services.LeagueError:
            if not game.results.filter(status=Result.Status.CONFIRMED).exists():
                raise  # not a duplicate: a real problem
    rnd = game.table.round
    closed = rnd.status == Round.Status.CLOSED
    if not closed:
        try:
            services.round_close(round=rnd)
            closed = True
        except services.LeagueError:
            closed = False  # other games of the round still running
    return {"status": "recorded" if recorded else "already-recorded", "game": game.pk,
            "round": rnd.number, "round_closed": closed}


# --- standings as events -----------------------------------------------------------

def _rows(standings) -> list[dict[str, Any]]:
    names = selectors.players_by_id(s.player for s in standings)
    return [{"player": s.player, "name": getattr(names.get(s.player), "name", str(s.player)),
             "rank": s.rank, "tied": s.tied, "label": s.rank_label,
             "metrics": json.loads(json.dumps(s.metrics, default=str))}
            for s in standings]


def _digest(payload: dict[str, Any]) -> str:
    body = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()


def standings_event_record(*, subject: str, type: str, payload: dict[str, Any],
                           actor: str = "worker:standings") -> tuple[StandingsEvent, bool]:
    """Append ``payload`` to ``subject``'s standings events unless it equals
    the last one. Returns ``(event, written)``."""
    digest = _digest(payload)
    for _ in range(10):
        last = StandingsEvent.objects.filter(subject=subject).order_by("-version").first()
        if last is not None and last.digest == digest:
            return last, False
        try:
            with transaction.atomic():
                event = StandingsEvent.objects.create(
                    subject=subject, version=(last.version + 1) if last else 1, type=type,
                    payload=payload, digest=digest, actor=actor)
            return event, True
        except IntegrityError:
            continue  # another worker wrote this version: compare again
    raise RuntimeError(f"could not record standings of {subject}: too many concurrent writers")


def _final_standings(*, tournament_id: int, round_number: int) -> dict[str, Any]:
    tournament = Tournament.objects.select_related("league", "club").get(pk=tournament_id)
    rnd = Round.objects.get(tournament=tournament, number=round_number)
    if rnd.status != Round.Status.CLOSED:
        raise services.LeagueError(f"{rnd} is not closed: its standings are not final")
    written = []
    round_rows = _rows(selectors.tournament_standings(tournament, rounds=[round_number]))
    cumulative = _rows(selectors.tournament_standings(tournament, rounds=range(1, round_number + 1)))
    _, w = standings_event_record(
        subject=f"tournament:{tournament.pk}:round:{round_number}", type="RoundStandings",
        payload={"tournament": tournament.pk, "round": round_number, "round_only": round_rows,
                 "cumulative": cumulative, "precedence": tournament.precedence})
    written += ["round"] if w else []
    if tournament.status == Tournament.Status.FINISHED:
        _, w = standings_event_record(
            subject=f"tournament:{tournament.pk}", type="FinalStandings",
            payload={"tournament": tournament.pk, "rounds": tournament.rounds,
                     "standings": _rows(selectors.tournament_standings(tournament)),
                     "precedence": tournament.precedence})
        written += ["tournament"] if w else []
    family = tournament.family  # boards and ratings are per family: points differ in kind
    if tournament.league_id:
        table = next((b.standings for b in selectors.league_tables(tournament.league)
                      if b.family == family), [])  # none yet while every result is withheld
        _, w = standings_event_record(subject=f"league:{tournament.league_id}:{family}",
                                      type="LeagueTable",
                                      payload={"league": tournament.league_id, "family": family,
                                               "table": _rows(table)})
        written += ["league"] if w else []
    if tournament.club_id:
        board = selectors.club_leaderboard(tournament.club, family=family)
        _, w = standings_event_record(subject=f"club:{tournament.club_id}:{family}",
                                      type="ClubLeaderboard",
                                      payload={"club": tournament.club_id, "family": family,
                                               "board": _rows(board)})
        written += ["club"] if w else []
    selectors.player_ratings(tournament.family)  # recomputed and cached under the newest result
    return {"tournament": tournament.pk, "round": round_number, "written": written}


def final_standings_record(*, tournament_id: int, round_number: int) -> dict[str, Any]:
    """Record the final standings of a closed round (round only and
    cumulative), of the tournament once it is finished, and refresh the
    league table, the club leaderboard and the ratings. Each is an event
    written only if it changed: running again writes nothing.

    :raises LeagueError: the round is not closed.
    :raises Tournament.DoesNotExist, Round.DoesNotExist: no such ids.
    """
    return tracked(lambda **kw: standings_key(kw["tournament_id"], kw["round_number"]),
                   STANDINGS_TASK)(_final_standings)(tournament_id=tournament_id, round_number=round_number)


# --- autoplay ------------------------------------------------------------------

def tournament_autoplay_start(*, tournament: Tournament, all_ai: bool = True) -> TaskRun:
    """Put ``tournament`` on autoplay: its rounds are seated and their games
    opened with AI players (every seat with ``all_ai``, else only the AI
    seats) as soon as the previous round closes, until it is finished. In
    the embedded default (eager tasks) the whole tournament is played before
    this returns.

    :raises LeagueError: the tournament is finished.
    """
    if tournament.status == Tournament.Status.FINISHED:
        raise services.LeagueError(f"{tournament} is finished")
    key = autoplay_key(tournament.pk)
    with transaction.atomic():
        run = task_waiting(key, AUTOPLAY_TASK)
        TaskRun.objects.filter(pk=run.pk).update(result={"all_ai": all_ai})
        outbox.enqueue(AUTOPLAY_TASK, [tournament.pk])
    from celery import current_app  # config's app; league/ never imports config

    if current_app.conf.task_always_eager:
        for _ in range(10_000):  # each drain sends at most its limit
            if not outbox.pending_count():
                break
            outbox.drain()
    run.refresh_from_db()
    return run


def tournament_autoplay_step(*, tournament_id: int) -> dict[str, Any]:
    """One step of autoplay: seat the next round if the last one closed and
    open every game of the current round (AI players move through
    ``games.ai_move``). Safe to run twice; does nothing once the tournament
    is finished or autoplay is off."""
    run = TaskRun.objects.filter(key=autoplay_key(tournament_id)).first()
    if run is None or run.status in (TaskState.DONE, TaskState.FAILED):
        return {"status": "off"}
    all_ai = bool((run.result or {}).get("all_ai", True))
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        TaskRun.objects.filter(pk=run.pk).update(status=TaskState.DONE)
        return {"status": "finished"}
    TaskRun.objects.filter(pk=run.pk).update(status=TaskState.RUNNING)
    last = tournament.round_set.order_by("-number").first()
    if last is None or last.status == Round.Status.CLOSED:
        number = 1 if last is None else last.number + 1
        try:
            last = services.round_seat(tournament=tournament, seed=f"autoplay-{tournament.pk}-{number}")
        except services.LeagueError:
            last = tournament.round_set.order_by("-number").first()  # another step seated it
            if last is None or last.status == Round.Status.CLOSED:
                raise
    opened = 0
    for game in TableGame.objects.filter(table__round=last, stream__isnull=True).order_by("table__number",
                                                                                          "number"):
        services.table_game_open_stream(game=game, all_ai=all_ai, actor="autoplay")
        opened += 1
    return {"status": "playing", "round": last.number, "opened": opened}


# --- re-driving lost tasks ---------------------------------------------------------

def redrive(*, idle_seconds: float = 15) -> dict[str, int]:
    """Queue again every league task whose effect is not seen yet after
    ``idle_seconds`` (its message was lost: a worker killed with it in hand,
    a broker restarted without its queue). Each task is safe to run twice.

    - a finished tournament game with no result: ``record_result``;
    - a closed round whose standings task is still waiting, or running for
      longer than that: ``final_standings``;
    - a tournament on autoplay with a round to seat or games to open:
      ``autoplay``.

    Returns how many of each were queued."""
    from datetime import timedelta

    from django.utils import timezone

    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    out = {"results": 0, "standings": 0, "autoplay": 0}
    with transaction.atomic():
        streams = (TableGame.objects.filter(stream__status=Game.Status.FINISHED, stream__updated_at__lt=cutoff,
                                            results__isnull=True)
                   .values_list("stream_id", flat=True))
        for stream_id in streams:
            outbox.enqueue(RESULT_TASK, [stream_id])
            out["results"] += 1
        # a standings run exists only for a closed round (queued as it closed)
        stale = (TaskRun.objects.filter(key__startswith="standings:tournament:")
                 .filter(Q(status=TaskState.WAITING, created_at__lt=cutoff) &
                         (Q(started_at__isnull=True) | Q(started_at__lt=cutoff)) |
                         Q(status=TaskState.RUNNING, started_at__lt=cutoff))
                 .values_list("key", flat=True))
        for key in stale:
            _, _, tournament_id, _, number = key.split(":")
            outbox.enqueue(STANDINGS_TASK, [int(tournament_id), int(number)])
            out["standings"] += 1
        for run in TaskRun.objects.filter(key__startswith="autoplay:tournament:",
                                          status__in=[TaskState.WAITING, TaskState.RUNNING],
                                          created_at__lt=cutoff):
            tournament_id = int(run.key.rsplit(":", 1)[1])
            tournament = Tournament.objects.filter(pk=tournament_id).first()
            if tournament is None or tournament.status == Tournament.Status.FINISHED:
                continue
            last = tournament.round_set.order_by("-number").first()
            work = (last is None or last.status == Round.Status.CLOSED or
                    TableGame.objects.filter(table__round=last, stream__isnull=True).exists())
            if work:
                outbox.enqueue(AUTOPLAY_TASK, [tournament_id])
                out["autoplay"] += 1
    return out
