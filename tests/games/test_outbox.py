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


def test_an_unknown_task_stays_pending_with_the_reason_then_fails(settings):
    settings.GAMES_OUTBOX_MAX_ATTEMPTS = 2
    row = OutboxMessage.objects.create(topic="nobody.knows")
    report = outbox.drain()
    row.refresh_from_db()
    assert report.sent == 0 and row.status == "pending" and row.attempts == 1
    assert "no task named 'nobody.knows'" in row.last_error
    outbox.drain()
    row.refresh_from_db()
    assert row.status == "failed" and row.attempts == 2


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
