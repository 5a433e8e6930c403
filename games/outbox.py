"""The transactional outbox: tasks written with the events, sent after commit.

A service that records events also writes :class:`~games.models.OutboxMessage`
rows in the same transaction (``topic`` = a Celery task name, JSON ``args`` and
``kwargs``). After the commit, :func:`drain` sends the pending rows and marks
them sent. If the broker is unreachable the rows stay pending, and the next
drain (after the next commit, ``manage.py drain_outbox``, or a periodic task)
sends them, so nothing recorded while Redis is down is lost. Tasks must be
safe to run twice: a crash between sending and marking sends again.

Other apps subscribe to events with :func:`on_events`::

    @outbox.on_events
    def ai_turns(game, events):
        if game.to_move is not None and is_ai(game, game.to_move):
            yield outbox.Message("games.ai_move", [game.pk, game.version])

The handler gets the projection row (already updated) and the new
:class:`~games.models.Event` rows, and yields :class:`Message` values.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from datetime import timedelta
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import eventstore as es
from . import push
from .models import Event, Game, OutboxMessage

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    topic: str
    args: list[Any] = field(default_factory=list)
    kwargs: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[Game, list[Event]], Iterable[Message]]
_HANDLERS: list[Handler] = []


def on_events(handler: Handler) -> Handler:
    """Register ``handler(game, events)`` to be called, inside the writing
    transaction, for every batch of events recorded by the games services."""
    if handler not in _HANDLERS:
        _HANDLERS.append(handler)
    return handler


def enqueue(topic: str, args: Iterable[Any] = (), kwargs: dict[str, Any] | None = None, *,
            game: Game | None = None, event_version: int | None = None) -> OutboxMessage:
    """Write one outbox row in the current transaction and arrange a drain
    after it commits.

    :raises ValueError: empty topic.
    """
    _need_topic(topic)
    row = OutboxMessage.objects.create(topic=topic, args=list(args), kwargs=dict(kwargs or {}),
                                       game=game, event_version=event_version)
    drain_after_commit()
    return row


def _need_topic(topic: str) -> None:
    if not topic:
        raise ValueError("an outbox message needs a task name (topic)")


def messages_for(game: Game, events: list[Event]) -> list[Message]:
    """What the subscribed handlers ask to send for ``events`` (``game``
    being the projection as these events leave it)."""
    return [msg for handler in list(_HANDLERS) for msg in (handler(game, events) or ())]


def publish(game: Game, events: list[Event], messages: list[Message] | None = None, *,
            written: bool = False) -> int:
    """Enqueue the handlers' messages for ``events`` (``messages``, if the
    caller has asked :func:`messages_for` already) and tell the live pages
    after commit. Returns how many rows were written. ``written``: the
    caller has written the rows already (:func:`guarded_rows`), only the
    drain and the live pages are left to arrange."""
    if events:
        push.moved(game.pk, events[-1].version, getattr(events[-1], "hash", "") or "")  # the live pages, after commit
    if messages is None:
        messages = messages_for(game, events)
    if not messages:
        return 0
    if not written:
        version = events[-1].version if events else None
        for msg in messages:
            _need_topic(msg.topic)
        # one INSERT for all of them
        OutboxMessage.objects.bulk_create([OutboxMessage(topic=msg.topic, args=list(msg.args),
                                                         kwargs=dict(msg.kwargs or {}), game=game,
                                                         event_version=version) for msg in messages])
    drain_after_commit()
    return len(messages)


_ROW_COLUMNS = ("topic", "args", "kwargs", "game_id", "event_version", "status", "attempts", "last_error",
                "task_id", "created_at")


def guarded_rows(game: Game, events: list[Event], messages: list[Message], db) -> tuple[str, list[Any]]:
    """The outbox rows of ``messages`` as one ``INSERT`` written with the
    events in :func:`games.eventstore.insert_guarded`'s statement (the rows
    exist only if the events do); :func:`publish` with ``written=True``
    then arranges the drain.

    :raises ValueError: a message without a topic.
    """
    for msg in messages:
        _need_topic(msg.topic)
    version = events[-1].version if events else None
    now = db.ops.adapt_datetimefield_value(timezone.now())
    return es.guarded_insert(OutboxMessage, _ROW_COLUMNS, [
        [msg.topic, json.dumps(list(msg.args)), json.dumps(dict(msg.kwargs or {})), game.pk, version,
         OutboxMessage.Status.PENDING.value, 0, "", "", now] for msg in messages])


def drain_after_commit() -> None:
    """Drain the outbox once the current transaction commits (at once if
    there is none)."""
    transaction.on_commit(_drain_quietly)


# After a send fails, the drains that follow commits (in the request that
# wrote) leave the broker alone for a while: a write answers in its normal
# time while the broker is down, and the rows wait for the periodic drain or
# the first commit after the pause. Process-wide, monotonic seconds.
_broker_pause = {"until": 0.0}


def broker_paused() -> bool:
    return time.monotonic() < _broker_pause["until"]


def _drain_quietly() -> None:
    if broker_paused():
        return
    try:
        drain()
    except Exception:  # never let a drain break the request that recorded
        log.exception("outbox drain failed; rows stay pending")


def retry_delay(attempts: int) -> float:
    """Seconds before a row that failed ``attempts`` times is tried again:
    doubling from ``GAMES_OUTBOX_RETRY_BASE`` (1 s) up to
    ``GAMES_OUTBOX_RETRY_MAX`` (60 s)."""
    base = float(getattr(settings, "GAMES_OUTBOX_RETRY_BASE", 1.0))
    cap = float(getattr(settings, "GAMES_OUTBOX_RETRY_MAX", 60.0))
    return min(cap, base * (2 ** max(0, attempts - 1)))


_local = threading.local()
_BATCH = 50  # rows claimed by one transaction of a drain


@dataclass
class DrainReport:
    sent: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


def _celery():
    # The project's app (config.celery), made current when Django loads the
    # config package; games/ never imports config (the layers contract).
    from celery import current_app

    return current_app


def tasks_run_here() -> bool:
    """Whether tasks run in this process (Celery's eager mode, the embedded
    default with no broker): then this process is the worker."""
    return bool(_celery().conf.task_always_eager)


def drain(limit: int = 1000) -> DrainReport:
    """Send pending outbox rows, oldest first; mark each sent.

    Several drainers may run at once (rows are claimed with ``SELECT ... FOR
    UPDATE SKIP LOCKED`` on PostgreSQL). A broker error stops the drain and
    leaves the row pending, with the error and an attempt counted, not to be
    tried again before :func:`retry_delay` has passed (a broker error is
    never final); the drains after commits then pause for a few seconds, so
    writes do not wait on a broker that is away. Eager mode
    (no broker configured) runs each task in this process; a nested drain
    started by such a task returns at once and the outer loop picks up the
    rows it wrote.
    """
    report = DrainReport()
    if getattr(_local, "draining", False):
        return report
    _local.draining = True
    try:
        app = _celery()
        eager = bool(app.conf.task_always_eager)
        last_id = 0
        while report.sent + report.failed < limit:
            ran_eager = []
            stop = False
            now = timezone.now()
            with transaction.atomic():
                rows = list(OutboxMessage.objects.select_for_update(skip_locked=True)
                            .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now),
                                    status=OutboxMessage.Status.PENDING, id__gt=last_id)
                            .order_by("id")[:_BATCH])
                if not rows:
                    break
                for row in rows:
                    last_id = row.id
                    task = app.tasks.get(row.topic)
                    try:
                        if eager:
                            if task is None:
                                raise LookupError(f"no task named {row.topic!r} is registered")
                            ran_eager.append(row)
                            task_id = ""
                        else:
                            result = app.send_task(row.topic, args=row.args, kwargs=row.kwargs, retry=False)
                            task_id = result.id or ""
                    except Exception as exc:  # broker down, unknown task in eager mode
                        row.attempts += 1
                        row.last_error = f"{type(exc).__name__}: {exc}"[:2000]
                        if eager:
                            # no such task in this process: no retry can help
                            row.status = OutboxMessage.Status.FAILED
                            report.failed += 1
                        else:
                            # the broker: transient, however long it lasts;
                            # tried again after a growing pause, never given up
                            delay = retry_delay(row.attempts)
                            row.next_attempt_at = now + timedelta(seconds=delay)
                            _broker_pause["until"] = time.monotonic() + min(delay, 5.0)
                        row.save(update_fields=["attempts", "last_error", "status", "next_attempt_at"])
                        report.errors.append(row.last_error)
                        stop = not eager  # the broker is down: keep the rest for later
                        if stop:
                            break
                        continue
                    row.status = OutboxMessage.Status.SENT
                    row.sent_at = timezone.now()
                    row.task_id = task_id
                    row.attempts += 1
                    row.next_attempt_at = None
                    _broker_pause["until"] = 0.0
                    row.save(update_fields=["status", "sent_at", "task_id", "attempts", "next_attempt_at"])
                    report.sent += 1
            for row in ran_eager:  # after the claim committed, outside its lock
                result = app.tasks[row.topic].apply(args=row.args, kwargs=row.kwargs)
                if result.failed():
                    report.errors.append(f"{row.topic}: {result.result!r}")
                    log.warning("eager task %s failed: %r", row.topic, result.result)
            if stop:
                break
            if len(rows) < _BATCH and not ran_eager:
                # a short batch was all there was: no third transaction to
                # find nothing (rows written meanwhile go with the next
                # drain; tasks run here may have written some: look again)
                break
    finally:
        _local.draining = False
    return report


def drain_now(limit: int = 1000) -> DrainReport:
    """Drain with the rows' retry pauses ignored: for when the broker is
    known to be back (a worker has just connected to it, or an operator
    says so with ``manage.py drain_outbox --now``)."""
    OutboxMessage.objects.filter(status=OutboxMessage.Status.PENDING,
                                 next_attempt_at__gt=timezone.now()).update(next_attempt_at=None)
    _broker_pause["until"] = 0.0
    return drain(limit)


def retry_failed() -> int:
    """Put every ``failed`` row back to pending (rows failed for good by an
    older version after a number of broker errors); returns how many."""
    return OutboxMessage.objects.filter(status=OutboxMessage.Status.FAILED).update(
        status=OutboxMessage.Status.PENDING, next_attempt_at=None)


def pending_count() -> int:
    """How many rows wait to be sent."""
    return OutboxMessage.objects.filter(status=OutboxMessage.Status.PENDING).count()
