"""The state of worker tasks a person waits for (:class:`~games.models.TaskRun`):
``waiting`` when queued, ``running``, then ``done`` with a result or
``failed`` with the error. Keys are stable names of the work
(``standings:tournament:3:round:2``), so running a task again updates the
same row."""

from __future__ import annotations

import functools
from typing import Any, Callable

from django.db.models import F
from django.utils import timezone

from .models import TaskRun, TaskState


def task_waiting(key: str, name: str) -> TaskRun:
    """Mark ``key`` queued (creating its row). Call it in the transaction
    that writes the outbox row."""
    run, created = TaskRun.objects.get_or_create(key=key, defaults={"name": name})
    if not created and run.status != TaskState.WAITING:
        run.status = TaskState.WAITING
        run.save(update_fields=["status"])
    return run


def task_running(key: str, name: str) -> None:
    run, _ = TaskRun.objects.get_or_create(key=key, defaults={"name": name})
    TaskRun.objects.filter(pk=run.pk).update(status=TaskState.RUNNING, started_at=timezone.now(),
                                             attempts=F("attempts") + 1, error="")


def task_done(key: str, result: Any = None) -> None:
    TaskRun.objects.filter(key=key).update(status=TaskState.DONE, result=result,
                                           finished_at=timezone.now())


def task_failed(key: str, error: BaseException) -> None:
    TaskRun.objects.filter(key=key).update(status=TaskState.FAILED,
                                           error=f"{type(error).__name__}: {error}"[:2000],
                                           finished_at=timezone.now())


def tracked(key_of: Callable[..., str], name: str):
    """Decorate a service so each call moves its TaskRun row (keyed by
    ``key_of(**kwargs)``) through running to done or failed."""

    def wrap(fn):
        @functools.wraps(fn)
        def run(**kwargs):
            key = key_of(**kwargs)
            task_running(key, name)
            try:
                result = fn(**kwargs)
            except BaseException as exc:
                task_failed(key, exc)
                raise
            task_done(key, result)
            return result

        return run

    return wrap


def task_state(key: str) -> dict[str, Any] | None:
    """A task's state as the API shows it, or ``None``."""
    run = TaskRun.objects.filter(key=key).first()
    return None if run is None else task_data(run)


def task_data(run: TaskRun) -> dict[str, Any]:
    return {"key": run.key, "name": run.name, "status": run.status, "attempts": run.attempts,
            "result": run.result, "error": run.error,
            "created_at": run.created_at.isoformat() if run.created_at else None,
            "started_at": run.started_at.isoformat() if run.started_at else None,
            "finished_at": run.finished_at.isoformat() if run.finished_at else None}
