"""The outbox against a real Redis broker: sent when it is up, kept pending
when it is down, sent by a later drain."""

import time

import pytest
import redis
from django.db import transaction

from config.celery import app
from games import outbox
from games.models import OutboxMessage

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def reset_pool():
    """Drop pooled broker connections so the next publish uses broker_url."""
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker(require_redis, require_postgres):
    conf = app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.broker_write_url)
    conf.task_always_eager = False
    conf.broker_url = conf.broker_write_url = require_redis
    reset_pool()
    outbox._broker_pause["until"] = 0.0
    client = redis.Redis.from_url(require_redis)
    yield client
    outbox._broker_pause["until"] = 0.0
    for raw in client.lrange("celery", 0, -1):  # take back only this test's messages
        if b"tablekeeper.test.noop" in raw:
            client.lrem("celery", 1, raw)
    conf.task_always_eager, conf.broker_url, conf.broker_write_url = saved
    reset_pool()


def test_rows_written_with_a_transaction_are_sent_after_commit(broker):
    with transaction.atomic():
        row = outbox.enqueue("tablekeeper.test.noop", [1, 2], {"k": "v"})
        assert OutboxMessage.objects.get(pk=row.pk).status == "pending"
    row.refresh_from_db()
    assert row.status == "sent" and row.task_id, row.last_error
    assert any(row.task_id.encode() in raw for raw in broker.lrange("celery", 0, -1))


def test_broker_down_keeps_rows_pending_until_a_later_drain(broker):
    broker_url = app.conf.broker_url
    app.conf.broker_url = app.conf.broker_write_url = "redis://127.0.0.1:1/15"  # nothing listens there
    reset_pool()
    with transaction.atomic():
        row = outbox.enqueue("tablekeeper.test.noop", [3])
    row.refresh_from_db()
    assert row.status == "pending" and row.attempts == 1 and "Error" in row.last_error
    assert row.next_attempt_at is not None  # tried again after a pause, never given up
    app.conf.broker_url = app.conf.broker_write_url = broker_url
    reset_pool()
    assert outbox.drain().sent == 0          # its pause (1 s after a first failure) has not passed
    time.sleep(1.1)
    report = outbox.drain()
    row.refresh_from_db()
    assert report.sent == 1 and row.status == "sent" and row.next_attempt_at is None
