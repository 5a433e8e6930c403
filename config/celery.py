"""The Celery application.

Tasks live in each app's ``tasks.py`` and are found by autodiscovery. With no
``CELERY_BROKER_URL`` the app runs tasks eagerly in the calling process (the
embedded default); with one (Redis) they go to workers started with
``celery -A config worker``.

Two things here are about recovery (docs/workers.md, "Faults"):

- the worker's consumer tries to reach a broker that went away every
  ``CELERY_BROKER_RETRY_MAX`` seconds at most (1 s), where Celery's own
  consumer waits 2, 4, 6... up to 30 s between attempts (kombu's defaults,
  which no setting changes): work resumes within a second or two of Redis
  coming back, not up to 10 s later;
- each time the consumer has (re)connected, the worker sends what the outbox
  holds at once, pauses ignored: the rows that failed while Redis was down
  do not wait out their growing pauses once it is back.

And one about PostgreSQL: a task returns its connection to the process's
pool at its end, as a web request does, instead of closing the whole pool
(``close_old_connections`` below).
"""

import functools
import logging
import os

from celery import Celery, bootsteps, signals
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    """Celery's consumer, reconnecting to the broker every second at most.

    ``Consumer.ensure_connected`` calls kombu's ``ensure_connection`` with
    its default backoff (2 s, then 2 s more each time, up to 30 s): after a
    20 s outage a worker came back up to 10 s after Redis did. The attempts
    here start at once and are at most ``BROKER_RETRY_MAX_SECONDS`` apart
    (env ``CELERY_BROKER_RETRY_MAX``, 1 s); an attempt is a TCP connect."""

    def ensure_connected(self, conn):
        from django.conf import settings

        cap = float(getattr(settings, "BROKER_RETRY_MAX_SECONDS", 1.0))
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=0, interval_step=cap / 2, interval_max=cap)
        return super().ensure_connected(conn)


class DrainOutboxOnConnect(bootsteps.StartStopStep):
    """Each time the worker's consumer has (re)connected to the broker, send
    the outbox's pending rows now, their retry pauses ignored: the broker is
    evidently back, and the rows that failed while it was away would
    otherwise wait out pauses of up to ``GAMES_OUTBOX_RETRY_MAX``."""

    requires = {"celery.worker.consumer.connection:Connection"}

    def start(self, c):
        try:
            from games import outbox

            report = outbox.drain_now()
            if report.sent or report.errors:
                log.warning("broker connected: outbox drained, %d sent, %d errors", report.sent, len(report.errors))
        except Exception:  # the database may be away: beat's periodic drain will do it
            log.exception("broker connected: outbox drain failed")


app = Celery("tablekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.steps["consumer"].add(DrainOutboxOnConnect)
app.autodiscover_tasks()


@signals.task_prerun.connect(dispatch_uid="config.celery.close_old_connections_prerun")
@signals.task_postrun.connect(dispatch_uid="config.celery.close_old_connections_postrun")
def close_old_connections(sender=None, **kwargs) -> None:
    """At a task's start and end, what Django does at a request's: a
    connection that broke or outlived ``CONN_MAX_AGE`` is closed, and with
    the pool (``DB_POOL_MAX``) the connection goes back to it. The worker
    process keeps its pool between tasks (``CELERY_DB_REUSE_MAX`` in the
    settings stops Celery's Django fixup from closing it around every task)."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections as close

    close()
