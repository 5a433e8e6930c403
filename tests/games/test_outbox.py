"""The outbox in eager mode (no broker): rows written with the events, run
after commit, kept pending when they cannot be sent."""

import pytest
from celery import shared_task
from django.db import transaction

from games import outbox, services
from games.models import OutboxMessage

pytestmark = pytest.mark.django_db

CALLS = []


@shared_task(name="tablekeeper.test.record_call")
def record_call(*args, **kwargs):
    CALLS.append((args, kwargs))
    if kwargs.get("chain"):
        outbox.enqueue("tablekeeper.test.record_call", [args[0] + 1], {"chain": kwargs["chain"] - 1})


@pytest.fixture(autouse=True)
def fresh():
    CALLS.clear()
    yield
    outbox._HANDLERS[:] = [h for h in outbox._HANDLERS if not getattr(h, "_test", False)]


def test_a_row_runs_only_after_the_transaction_commits(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            row = outbox.enqueue("tablekeeper.test.record_call", [1], {"x": "y"})
            assert CALLS == []
    assert CALLS == [((1,), {"x": "y"})]
    row.refresh_from_db()
    assert row.status == "sent" and row.sent_at is not None


def test_a_rolled_back_transaction_sends_nothing(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                outbox.enqueue("tablekeeper.test.record_call", [1])
                raise RuntimeError("boom")
    assert CALLS == [] and not OutboxMessage.objects.exists()


def test_tasks_that_enqueue_more_run_in_one_drain_without_recursion(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        outbox.enqueue("tablekeeper.test.record_call", [0], {"chain": 30})
    assert [args[0] for args, _ in CALLS] == list(range(31))
    assert not OutboxMessage.objects.filter(status="pending").exists()


def test_an_unknown_task_fails_at_once_with_the_reason_and_can_be_put_back(capsys):
    row = OutboxMessage.objects.create(topic="nobody.knows")
    report = outbox.drain()
    row.refresh_from_db()
    assert report.sent == 0 and report.failed == 1 and row.status == "failed" and row.attempts == 1
    assert "no task named 'nobody.knows'" in row.last_error
    from django.core.management import call_command

    call_command("drain_outbox", "--retry-failed")
    assert "1 failed row(s) back to pending" in capsys.readouterr().out


class Broker:
    """A broker that is down until told otherwise (the real one is tested
    in the integration leg)."""

    def __init__(self):
        self.up, self.sent = False, []
        self.conf = type("Conf", (), {"task_always_eager": False})()
        self.tasks = {}

    def send_task(self, name, args=None, kwargs=None, retry=False):
        from kombu.exceptions import OperationalError

        if not self.up:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append((name, args))
        return type("Result", (), {"id": f"task-{len(self.sent)}"})()


@pytest.fixture
def broker(monkeypatch):
    b = Broker()
    monkeypatch.setattr(outbox, "_celery", lambda: b)
    outbox._broker_pause["until"] = 0.0
    yield b
    outbox._broker_pause["until"] = 0.0


def test_a_broker_error_is_never_final_and_is_retried_after_growing_pauses(broker):
    import datetime

    from django.utils import timezone

    row = OutboxMessage.objects.create(topic="games.ai_move", args=[1, 2])
    gaps = []
    for _ in range(12):          # far more than any fixed number of attempts
        before = timezone.now()
        outbox.drain()
        row.refresh_from_db()
        assert row.status == "pending" and "Connection refused" in row.last_error
        gaps.append(round((row.next_attempt_at - before).total_seconds()))
        outbox.drain()           # not due yet: not tried, not counted
        assert OutboxMessage.objects.get(pk=row.pk).attempts == row.attempts
        OutboxMessage.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now() - datetime.timedelta(seconds=1))
    assert row.attempts == 12 and gaps[:7] == [1, 2, 4, 8, 16, 32, 60] and max(gaps) == 60
    broker.up = True
    report = outbox.drain()
    row.refresh_from_db()
    assert report.sent == 1 and row.status == "sent" and broker.sent == [("games.ai_move", [1, 2])]


def test_while_the_broker_is_away_writes_do_not_wait_for_it(broker, new_game, django_capture_on_commit_callbacks):
    game = new_game()
    with django_capture_on_commit_callbacks(execute=True):
        outbox.enqueue("games.ai_move", [game.pk, 1])  # drained after its commit: the broker refuses
    assert outbox.broker_paused()
    tries = []
    real = broker.send_task
    broker.send_task = lambda *a, **k: (tries.append(a), real(*a, **k))[1]
    with django_capture_on_commit_callbacks(execute=True):
        outbox.enqueue("games.ai_move", [game.pk, 2])
    assert tries == []            # the drain after the commit left the broker alone
    assert OutboxMessage.objects.filter(status="pending").count() == 2
    outbox._broker_pause["until"] = 0.0
    broker.up = True
    OutboxMessage.objects.update(next_attempt_at=None)
    assert outbox.drain().sent == 2


def test_event_handlers_write_rows_with_the_move(new_game, django_capture_on_commit_callbacks):
    def on_move(game, events):
        for event in events:
            if event.type == "MoveRecorded":
                yield outbox.Message("tablekeeper.test.record_call", [game.pk, event.version])

    on_move._test = True
    outbox.on_events(on_move)
    game = new_game()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_record_move(game=game, move="draw", expected_version=1)
    assert CALLS == [((game.pk, 2), {})]
    row = OutboxMessage.objects.get()
    assert (row.game_id, row.event_version, row.status) == (game.pk, 2, "sent")


def test_drain_outbox_command(capsys):
    from django.core.management import call_command

    OutboxMessage.objects.create(topic="tablekeeper.test.record_call", args=[5])
    call_command("drain_outbox")
    assert "1 sent, 0 failed, 0 pending" in capsys.readouterr().out
    assert CALLS == [((5,), {})]
