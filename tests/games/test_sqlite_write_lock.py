"""The embedded SQLite backend (config/sqlite/base.py): threads of one
process queue for the write lock in the process, in order, and a
transaction that fails gives the lock back."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite backend only (this run is on another database)")


def _in_thread(fn):
    def run():
        try:
            fn()
        finally:
            connections.close_all()
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_second_writer_goes_in_after_the_first_commits_never_meets_a_locked_database():
    from config.sqlite.base import _WRITE_LOCK

    order: list[str] = []
    inside = threading.Event()
    errors: list[BaseException] = []

    def first():
        with transaction.atomic():
            Game.objects.create(variant="sabra", players=2)
            order.append("first in")
            inside.set()
            time.sleep(0.3)
            order.append("first commits")

    def second():
        inside.wait(5)
        try:
            with transaction.atomic():
                order.append("second in")
                Game.objects.create(variant="sabra", players=2)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [_in_thread(first), _in_thread(second)]
    for t in threads:
        t.join(10)
    assert not errors
    assert order == ["first in", "first commits", "second in"]
    assert Game.objects.count() == 2
    assert not _WRITE_LOCK.locked()


def test_a_transaction_that_fails_gives_the_lock_back():
    from config.sqlite.base import _WRITE_LOCK

    def failing():
        with pytest.raises(ZeroDivisionError):
            with transaction.atomic():
                Game.objects.create(variant="sabra", players=2)
                1 / 0

    _in_thread(failing).join(10)
    assert not _WRITE_LOCK.locked()
    assert Game.objects.count() == 0
    with transaction.atomic():  # and this thread writes at once
        Game.objects.create(variant="sabra", players=2)
    assert Game.objects.count() == 1
