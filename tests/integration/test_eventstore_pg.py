"""The event store on PostgreSQL: concurrent writers, the append-only
trigger, and an edit behind the trigger's back named by the audit."""

import threading

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction

from engine.rummikub.ai.random_player import RandomPlayer
from games import eventstore as es
from games import services
from games.audit import audit_game
from games.models import Event, Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

WRITERS = 20


def run_writers(target, n=WRITERS):
    """Start ``n`` threads (each with its own database connection) that call
    ``target(i, barrier)``; return their results."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def work(i):
        try:
            results[i] = target(i, barrier)
        except BaseException as exc:  # reported below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors[:3]
    return results


def test_twenty_writers_at_one_version_exactly_one_wins_each_time(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    rounds = 8
    wins = {}
    for _ in range(rounds):
        version = Event.objects.filter(game=game).count()

        def write(i, barrier, version=version):
            barrier.wait()
            try:  # the service other apps append through: the event and the game row
                services.game_append_event(game=game.pk, expected_version=version, type="WriterNoted",
                                           payload={"writer": i}, actor=f"writer:{i}")
                return "won"
            except es.ConcurrencyConflict:
                return "conflict"

        results = run_writers(write)
        assert results.count("won") == 1 and results.count("conflict") == WRITERS - 1, results
        wins[version + 1] = results.index("won")
    rows = list(Event.objects.filter(game=game).order_by("version"))
    assert [r.version for r in rows] == list(range(1, rounds + 2))  # no gap, no duplicate
    assert [r.payload["writer"] for r in rows[1:]] == [wins[v] for v in range(2, rounds + 2)]
    verdict = audit_game(Game.objects.get(pk=game.pk))  # chain intact, replay clean
    assert verdict.ok, verdict


def test_twenty_seats_submitting_one_move_record_it_once(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    state = services.load_state(game)
    move = str(RandomPlayer(1).choose(state))

    def submit(i, barrier):
        barrier.wait()
        try:
            return services.game_record_move(game=game.pk, move=move, expected_version=1).version
        except es.ConcurrencyConflict:
            return "conflict"

    results = run_writers(submit)
    assert results.count(2) == 1 and results.count("conflict") == WRITERS - 1, results
    game.refresh_from_db()
    assert game.version == 2 and Event.objects.filter(game=game).count() == 2
    assert audit_game(game).ok


def test_the_database_refuses_update_and_delete_of_events(require_postgres):
    game = services.game_create(variant="sabra", players=2)
    for sql in ("UPDATE games_event SET actor = 'x' WHERE game_id = %s",
                "DELETE FROM games_event WHERE game_id = %s"):
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cur:
                cur.execute(sql, [game.pk])
    assert Event.objects.filter(game=game, actor="x").count() == 0
    assert Event.objects.filter(game=game).count() == 1


def test_a_row_edited_behind_the_trigger_is_named_by_audit_games(require_postgres, capsys):
    game = services.game_create(variant="sabra", players=2)
    player = RandomPlayer(3)
    for _ in range(6):
        game.refresh_from_db()
        services.game_record_move(game=game, move=str(player.choose(services.load_state(game))),
                                  expected_version=game.version)
    with connection.cursor() as cur:
        # a superuser can switch triggers off for the session: the audit still sees it
        cur.execute("SET session_replication_role = replica")
        cur.execute("UPDATE games_event SET payload = jsonb_set(payload, '{seat}', '9') "
                    "WHERE game_id = %s AND version = 4", [game.pk])
        cur.execute("SET session_replication_role = origin")
    with pytest.raises(SystemExit):
        call_command("audit_games", "--no-progress")
    out = capsys.readouterr().out
    assert f"game {game.pk}: BAD at event 4: its content does not match its hash" in out
