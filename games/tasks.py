"""Celery tasks of the games app. Each is thin: it takes ids, calls one
service, retries on operational errors (database or broker briefly away)
with backoff, and is safe to run twice (see the services it calls).

Dispatched only through the outbox (:mod:`games.outbox`), after the
transaction that recorded the events commits. Importing this module also
registers the outbox handlers (:mod:`games.ai_seats`, and
:mod:`games.analysis`: a finished game queues its analysis).
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError, InterfaceError, OperationalError

from . import ai_seats, analysis, checkpoints, disputes, outbox

# Errors worth retrying: the database or the broker was away for a moment.
RETRY_ON = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
RETRY = dict(autoretry_for=RETRY_ON, retry_backoff=1, retry_backoff_max=30, retry_jitter=True,
             max_retries=8, acks_late=True)


@shared_task(name=ai_seats.TASK, **RETRY)
def ai_move(game_id: int, version: int) -> dict:
    """Make the AI seat's move in ``game_id`` if it is still at ``version``.
    While the seat waits out a buy window, the task is sent again for when
    the window closes (with a worker; a lost one is re-queued by
    ``games.requeue_stalled``)."""
    result = ai_seats.ai_seat_move(game_id=game_id, expected_version=version)
    if result.status == "waiting" and not ai_move.app.conf.task_always_eager:
        ai_move.apply_async(args=[game_id, version], countdown=result.wait + 0.2)
    return result.as_dict()


@shared_task(name=disputes.TASK, **RETRY)
def resolve_dispute(dispute_id: int) -> dict:
    """Settle dispute ``dispute_id`` with the solver."""
    dispute = disputes.dispute_resolve(dispute_id=dispute_id)
    return {"dispute": dispute.pk, "status": dispute.status, "verdict": dispute.verdict}


@shared_task(name=analysis.TASK, **RETRY)
def analyse(game_id: int) -> dict:
    """Analyse finished game ``game_id`` and store it (:mod:`games.analysis`);
    a game with no analyser or a stream that does not analyse is reported,
    not retried."""
    try:
        row = analysis.analysis_build(game=game_id)
    except analysis.GameServiceError as exc:
        return {"game": game_id, "status": exc.code, "detail": str(exc)}
    return {"game": game_id, "status": "analysed", "head": row.head_version, "engine": row.engine_version}


@shared_task(name="games.drain_outbox", autoretry_for=(DatabaseError,), retry_backoff=1, max_retries=3)
def drain_outbox() -> dict:
    """Send outbox rows left pending (run it periodically with celery beat,
    or ``manage.py drain_outbox``, after the broker was away)."""
    report = outbox.drain()
    return {"sent": report.sent, "failed": report.failed, "pending": outbox.pending_count()}


@shared_task(name=checkpoints.TASK, **RETRY)
def checkpoint(reason: str = "beat") -> dict:
    """Write a checkpoint of every stream's head (nothing when no stream
    moved since the last one): periodically with celery beat, and when a
    round closes."""
    row = checkpoints.checkpoint_write(reason=reason)
    return {"seq": row.seq if row else None, "streams": len(row.heads) if row else 0}


@shared_task(name="games.requeue_stalled", **RETRY)
def requeue_stalled(idle_seconds: float = 60, dispute_idle_seconds: float | None = None) -> dict:
    """Queue again AI moves idle for ``idle_seconds`` and disputes idle for
    ``dispute_idle_seconds`` (default the same; a solver may think a while)
    : the repair after lost messages (a worker killed with the message in
    hand); duplicates do nothing."""
    return {"ai_moves": ai_seats.requeue_stalled(idle_seconds=idle_seconds),
            "disputes": disputes.requeue_stalled(
                idle_seconds=idle_seconds if dispute_idle_seconds is None else dispute_idle_seconds)}
