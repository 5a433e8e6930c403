"""Celery tasks of the league: results from finished streams, final
standings, autoplay. Thin: ids in, one service of :mod:`league.handlers`,
retried with backoff on operational errors, safe to run twice. Dispatched
only through the outbox, after the writing transaction commits. Importing
this module registers the handlers."""

from __future__ import annotations

from celery import shared_task

from games.tasks import RETRY

from . import handlers


@shared_task(name=handlers.RESULT_TASK, **RETRY)
def record_result(stream_id: int) -> dict:
    """Record the result of a finished tournament game; close its round
    when it is the last."""
    return handlers.stream_result_record(stream_id=stream_id)


@shared_task(name=handlers.STANDINGS_TASK, **RETRY)
def final_standings(tournament_id: int, round_number: int) -> dict:
    """Record the final standings of a closed round (and of the finished
    tournament) and refresh the leaderboards."""
    return handlers.final_standings_record(tournament_id=tournament_id, round_number=round_number)


@shared_task(name=handlers.AUTOPLAY_TASK, **RETRY)
def autoplay(tournament_id: int) -> dict:
    """Seat the next round and open its games, for a tournament on autoplay."""
    return handlers.tournament_autoplay_step(tournament_id=tournament_id)


@shared_task(name="league.redrive", **RETRY)
def redrive(idle_seconds: float = 15) -> dict:
    """Queue again the league tasks whose effect is not seen yet (beat)."""
    return handlers.redrive(idle_seconds=idle_seconds)
