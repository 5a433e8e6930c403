"""A move on PostgreSQL outside a transaction: one guarded statement that
writes the projection and the events together or not at all, starting from
the row this process holds (games.services.game_record_move,
games.eventstore.insert_guarded)."""

import threading

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from engine.rummikub.ai.random_player import RandomPlayer
from games import eventstore as es
from games import outbox, services
from games.audit import audit_game
from games.errors import MoveRefused
from games.lru import LRU
from games.models import Event, Game, OutboxMessage, Snapshot

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_cache():
    services.STATE_CACHE.clear()
    yield
    services.STATE_CACHE.clear()


def _next_move(game_id: int) -> str:
    return str(RandomPlayer(7).choose(services.load_state(Game.objects.get(pk=game_id))))


def _move_elsewhere(game_id: int, version: int) -> None:
    """Record a move through another connection and without this process's
    held row and state, as another web process would."""
    def other():
        held = services.STATE_CACHE._entries  # this process's, set aside meanwhile
        services.STATE_CACHE._entries = LRU(16)
        try:
            services.game_record_move(game=game_id, move=_next_move(game_id), expected_version=version)
        finally:
            services.STATE_CACHE._entries = held
            connections.close_all()

    t = threading.Thread(target=other)
    t.start()
    t.join(30)


def test_a_move_is_one_statement_once_the_row_is_held(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    version = game.version
    statements = []
    for _ in range(4):
        move = _next_move(game.pk)
        with CaptureQueriesContext(connection) as seen:
            version = services.game_record_move(game=game.pk, move=move, expected_version=version).version
        statements.append([q["sql"].split()[0] for q in seen.captured_queries])
    # the first reads the row; the rest start from the row written last time
    # (the first also reads the state and the AI seats, which are then held)
    assert statements[0][0] == "SELECT" and statements[0][-1] == "WITH", statements
    assert statements[1:] == [["WITH"]] * 3, statements
    rows = list(Event.objects.filter(game=game).order_by("version"))
    assert [r.version for r in rows] == list(range(1, version + 1))
    assert Game.objects.get(pk=game.pk).version == version
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_a_move_made_elsewhere_meanwhile_makes_the_held_row_a_conflict(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    v = services.game_record_move(game=game.pk, move=_next_move(game.pk), expected_version=game.version).version
    move = _next_move(game.pk)
    _move_elsewhere(game.pk, v)  # the game is at v + 1; this process still holds v
    with pytest.raises(es.ConcurrencyConflict) as caught:
        services.game_record_move(game=game.pk, move=move, expected_version=v)
    assert caught.value.actual == v + 1
    assert Event.objects.filter(game=game).count() == v + 1  # nothing written by the loser
    assert Game.objects.get(pk=game.pk).version == v + 1
    # the next move at the true version goes through, on a fresh read
    services.game_record_move(game=game.pk, move=_next_move(game.pk), expected_version=v + 1)
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_a_refusal_on_a_held_row_of_a_game_moved_elsewhere_is_a_conflict(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    v = services.game_record_move(game=game.pk, move=_next_move(game.pk), expected_version=game.version).version
    _move_elsewhere(game.pk, v)
    # judged on the held (stale) state this would be refused; the game has
    # moved on, so the answer is the conflict that makes a page reload
    with pytest.raises(es.ConcurrencyConflict) as caught:
        services.game_record_move(game=game.pk, move="play R99", expected_version=v)
    assert caught.value.actual == v + 1
    # at the true version the same move is the engine's refusal
    with pytest.raises(MoveRefused):
        services.game_record_move(game=game.pk, move="play R99", expected_version=v + 1)


def test_a_move_that_queues_a_task_on_a_stale_held_row_is_a_conflict_naming_the_version(require_postgres):
    """A move that queues a task (the next seat is the computer's) from a
    held row that another process has overtaken: the guard finds nothing,
    nothing is written, and the conflict says where the game is."""
    game = services.game_create(variant="sabra", players=2,
                                seats=[{"name": "Ann"}, {"name": "Bot", "kind": "ai", "ai_level": "random"}])
    with pytest.raises(MoveRefused):  # refused, nothing written: the row read stays held
        services.game_record_move(game=game.pk, move="play R99", expected_version=1)
    _move_elsewhere(game.pk, 1)
    with pytest.raises(es.ConcurrencyConflict) as caught:
        services.game_record_move(game=game.pk, move="draw", expected_version=1)
    assert caught.value.actual == 2
    assert Event.objects.filter(game=game).count() == 2 and audit_game(Game.objects.get(pk=game.pk)).ok


def test_twenty_writers_each_round_one_winner_over_a_whole_game(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    version = game.version
    for _ in range(12):
        move = _next_move(game.pk)
        barrier = threading.Barrier(20)
        results = [None] * 20

        def submit(i, version=version, move=move):
            try:
                barrier.wait()
                results[i] = services.game_record_move(game=game.pk, move=move, expected_version=version).version
            except es.ConcurrencyConflict as exc:
                results[i] = ("conflict", exc.actual)
            except BaseException as exc:  # reported below
                results[i] = exc
            finally:
                connections.close_all()

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert results.count(version + 1) == 1, results
        assert results.count(("conflict", version + 1)) == 19, results
        version += 1
    assert list(Event.objects.filter(game=game).order_by("version").values_list("version", flat=True)) == \
        list(range(1, version + 1))
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_a_move_due_a_snapshot_is_one_statement_and_keeps_the_snapshot(require_postgres, settings):
    """The snapshot due every GAMES_SNAPSHOT_EVERY events is written in the
    move's statement, with the state the projection holds at that version
    (and a snapshot already there is kept, as get_or_create did)."""
    settings.GAMES_SNAPSHOT_EVERY = 4
    game = services.game_create(variant="sabra", players=2)
    version = game.version
    shapes = {}
    while version < 8:
        move = _next_move(game.pk)
        with CaptureQueriesContext(connection) as seen:
            version = services.game_record_move(game=game.pk, move=move, expected_version=version).version
        shapes[version] = [q["sql"].split()[0] for q in seen.captured_queries]
        if version in (4, 8):
            snap = Snapshot.objects.get(game=game, version=version)
            assert snap.state == Game.objects.get(pk=game.pk).state
            assert snap.state == services.state_from_stream(game, use_snapshots=False).snapshot()
    assert shapes[4] == ["WITH"] and shapes[8] == ["WITH"], shapes
    assert sorted(Snapshot.objects.filter(game=game).values_list("version", flat=True)) == [4, 8]
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_a_move_that_queues_a_task_is_one_statement_with_its_outbox_row(require_postgres, monkeypatch):
    """The next seat is the computer's: the task's outbox row is written in
    the move's statement (the drain that follows is the outbox's own)."""
    monkeypatch.setattr(outbox, "_drain_quietly", lambda: None)  # the row stays pending, to be seen
    game = services.game_create(variant="sabra", players=2,
                                seats=[{"name": "Ann"}, {"name": "Bot", "kind": "ai", "ai_level": "random"}])
    services.game_record_move(game=game.pk, move=_next_move(game.pk), expected_version=1)  # row and state now held
    # the computer's move, recorded as its task would, then Ann's again
    v = services.game_record_move(game=game.pk, move=_next_move(game.pk), expected_version=2).version
    OutboxMessage.objects.all().delete()
    move = _next_move(game.pk)
    with CaptureQueriesContext(connection) as seen:
        v = services.game_record_move(game=game.pk, move=move, expected_version=v).version
    assert [q["sql"].split()[0] for q in seen.captured_queries] == ["WITH"]
    row = OutboxMessage.objects.get()
    assert (row.topic, row.args, row.kwargs, row.game_id, row.event_version, row.status) == \
        ("games.ai_move", [game.pk, v], {}, game.pk, v, OutboxMessage.Status.PENDING)


def test_a_stale_held_row_writes_no_outbox_row_or_snapshot(require_postgres, settings, monkeypatch):
    """The guard found nothing: neither the events nor what goes with them
    (the snapshot due, the task's row) are written."""
    settings.GAMES_SNAPSHOT_EVERY = 3
    monkeypatch.setattr(outbox, "_drain_quietly", lambda: None)
    game = services.game_create(variant="sabra", players=2,
                                seats=[{"name": "Ann"}, {"name": "Bot", "kind": "ai", "ai_level": "random"}])
    v = services.game_record_move(game=game.pk, move=_next_move(game.pk), expected_version=1).version
    move = _next_move(game.pk)
    OutboxMessage.objects.all().delete()
    with monkeypatch.context() as m:
        m.setattr(settings, "GAMES_SNAPSHOT_EVERY", 0)  # the move elsewhere takes no snapshot of its own
        _move_elsewhere(game.pk, v)
    OutboxMessage.objects.all().delete()
    with pytest.raises(es.ConcurrencyConflict) as caught:
        services.game_record_move(game=game.pk, move=move, expected_version=v)  # would take the snapshot at 3
    assert caught.value.actual == v + 1
    assert not Snapshot.objects.filter(game=game).exists()
    assert not OutboxMessage.objects.exists()
    assert Event.objects.filter(game=game).count() == v + 1


def test_the_last_move_on_a_stale_held_row_is_a_conflict(require_postgres):
    """The game's end takes the transaction (the seed is read and revealed):
    from a held row that another process has overtaken, the unique
    constraint refuses the events and nothing of the ending is kept."""
    game = services.game_create(variant="sabra", players=2)
    version = game.version
    while True:
        state = services.load_state(Game.objects.get(pk=game.pk))
        move = RandomPlayer(7).choose(state)
        state.push(move)
        if state.is_over:
            break
        version = services.game_record_move(game=game.pk, move=str(move), expected_version=version).version
    _move_elsewhere(game.pk, version)  # a move at the same version (the held row is now stale)
    now = Game.objects.get(pk=game.pk).version  # (one event more, or two if that move ended the game)
    assert now > version
    with pytest.raises(es.ConcurrencyConflict) as caught:
        services.game_record_move(game=game.pk, move=str(move), expected_version=version)
    assert caught.value.actual == now
    assert Event.objects.filter(game=game).count() == now
    assert audit_game(Game.objects.get(pk=game.pk)).ok
