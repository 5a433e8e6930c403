"""AI seats in the embedded default (eager Celery, SQLite): the outbox
handler queues the AI seat's move, the task records it with the expected
version, a duplicate does nothing, and a game of AI seats plays to its end
inside one drain without recursion."""

import sys

import pytest

from games import ai_seats, outbox, services
from games.audit import audit_game
from games.models import Event, OutboxMessage, Seat


def sabra(players=2, kinds=("ai", "ai"), level="random", **kw):
    seats = [{"name": f"S{i}", "kind": k, "ai_level": level if k == "ai" else ""}
             for i, k in enumerate(kinds)]
    return services.game_create(variant="sabra", players=players, seats=seats, **kw)


@pytest.mark.django_db
def test_an_ai_turn_queues_one_task_at_the_current_version():
    game = sabra(kinds=("ai", "human"))
    rows = list(OutboxMessage.objects.filter(game=game))
    assert [(r.topic, r.args) for r in rows] == [("games.ai_move", [game.pk, 1])]


@pytest.mark.django_db
def test_a_human_turn_queues_nothing():
    game = sabra(kinds=("human", "ai"))
    assert not OutboxMessage.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_the_task_moves_once_and_a_duplicate_does_nothing():
    game = sabra(kinds=("ai", "human"))
    first = ai_seats.ai_seat_move(game_id=game.pk, expected_version=1)
    assert first.status == "moved" and first.version == 2
    again = ai_seats.ai_seat_move(game_id=game.pk, expected_version=1)
    assert again.status == "stale"
    moves = Event.objects.filter(game=game, type="MoveRecorded")
    assert moves.count() == 1 and moves.get().actor == "ai:random" and moves.get().payload["seat"] == 0
    game.refresh_from_db()
    assert game.version == 2 and game.to_move == 1
    assert ai_seats.ai_seat_move(game_id=game.pk, expected_version=2).status == "not-ai"


@pytest.mark.django_db
def test_the_move_is_a_function_of_game_seat_and_version():
    game = sabra(kinds=("ai", "human"))
    state = services.load_state(game)
    a = ai_seats.player_for(game, 0, "random", 1).choose(services.load_state(game))
    b = ai_seats.player_for(game, 0, "random", 1).choose(state)
    assert str(a) == str(b)


@pytest.mark.django_db
def test_unknown_level_is_a_clear_error():
    # a level the engine no longer offers (game creation refuses unknown levels)
    game = sabra(kinds=("ai", "human"))
    Seat.objects.filter(game=game, kind="ai").update(ai_level="grandmaster")
    ai_seats._SEATS.clear()
    with pytest.raises(ai_seats.AISeatError, match="unknown AI level 'grandmaster'.*random"):
        ai_seats.ai_seat_move(game_id=game.pk, expected_version=1)
    assert game.events.count() == 1


@pytest.mark.django_db
def test_a_family_without_ai_players_queues_nothing(new_game):
    game = new_game(players=2, seats=[{"name": "Bot", "kind": "ai"}, "Ann"])
    assert game.to_move == 0 and not OutboxMessage.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_ai_seats_play_a_whole_game_in_one_drain_without_deep_recursion():
    game = sabra(players=4, kinds=("ai",) * 4)
    depth = []
    original = ai_seats.ai_seat_move

    def spy(**kw):
        frame, n = sys._getframe(), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        depth.append(n)
        return original(**kw)

    ai_seats_mod = ai_seats
    ai_seats_mod.ai_seat_move = spy
    try:
        report = outbox.drain(limit=5000)
    finally:
        ai_seats_mod.ai_seat_move = original
    game.refresh_from_db()
    assert game.is_over, f"stopped at version {game.version}: {report.errors[:3]}"
    moves = game.events.filter(type="MoveRecorded").count()
    assert report.sent >= moves > 20
    assert max(depth) - min(depth) == 0, "each AI move ran at the same stack depth (no recursion)"
    assert audit_game(game).ok
    assert outbox.pending_count() == 0


@pytest.mark.django_db
def test_requeue_stalled_queues_only_games_waiting_on_an_ai_seat():
    waiting = sabra(kinds=("ai", "human"))
    sabra(kinds=("human", "ai"))
    OutboxMessage.objects.all().delete()
    assert ai_seats.requeue_stalled() == 1 and ai_seats.requeue_stalled(idle_seconds=3600) == 0
    assert list(OutboxMessage.objects.values_list("args", flat=True)) == [[waiting.pk, 1]]


@pytest.mark.django_db
def test_a_stalled_game_is_queued_again_once_per_idle_time_not_once_per_beat(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game

    monkeypatch.setattr(outbox, "drain_after_commit", lambda: None)  # the rows stay queued, as behind a busy worker
    game = sabra(kinds=("ai", "human"))
    OutboxMessage.objects.all().delete()
    long_ago = timezone.now() - timedelta(seconds=60)
    Game.objects.filter(pk=game.pk).update(updated_at=long_ago)
    assert ai_seats.requeue_stalled(idle_seconds=5) == 1
    assert ai_seats.requeue_stalled(idle_seconds=5) == 0, "queued again before the idle time passed"
    OutboxMessage.objects.update(created_at=long_ago)
    assert ai_seats.requeue_stalled(idle_seconds=5) == 1
    assert OutboxMessage.objects.count() == 2


@pytest.mark.django_db
def test_the_task_retries_an_operational_error_and_then_moves(monkeypatch):
    from django.db import OperationalError

    from games import tasks

    game = sabra(kinds=("ai", "human"))
    calls = []
    original = ai_seats.ai_seat_move

    def flaky(**kw):
        calls.append(kw)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return original(**kw)

    monkeypatch.setattr(ai_seats, "ai_seat_move", flaky)
    result = tasks.ai_move.apply(args=[game.pk, 1])
    assert result.successful(), result.result
    assert len(calls) == 2 and result.result["status"] == "moved"
    assert game.events.filter(type="MoveRecorded").count() == 1


@pytest.mark.django_db
def test_a_refused_ai_move_fails_the_task_and_stores_nothing(monkeypatch):
    from games import tasks

    game = sabra(kinds=("ai", "human"))

    class Cheater:
        def __init__(self, seed):
            pass

        def choose(self, state):
            return "play R1 R2 R3 -> [R1 R2 R3]"

    monkeypatch.setattr(ai_seats, "_levels", lambda family: {"random": Cheater})
    result = tasks.ai_move.apply(args=[game.pk, 1])
    assert result.failed() and "refused the AI move" in str(result.result)
    assert game.events.count() == 1


@pytest.mark.django_db
def test_solver_levels_play_a_whole_game_through_the_seats():
    # Every Rummikub level the engine offers can take a seat: a greedy and a
    # strong seat play a seeded game to its end, audited clean.
    assert {"random", "greedy", "strong"} <= set(ai_seats.available_levels("rummikub"))
    seats = [{"name": "G", "kind": "ai", "ai_level": "greedy"},
             {"name": "S", "kind": "ai", "ai_level": "strong"}]
    game = services.game_create(variant="sabra", players=2, seats=seats)
    report = outbox.drain(limit=5000)
    game.refresh_from_db()
    assert game.is_over, f"stopped at version {game.version}: {report.errors[:3]}"
    actors = set(Event.objects.filter(game=game, type="MoveRecorded").values_list("actor", flat=True))
    assert actors == {"ai:greedy", "ai:strong"}
    assert audit_game(game).ok


@pytest.mark.django_db
def test_ai_seats_play_plays_a_lone_game_to_the_end_and_the_queued_tasks_add_nothing(monkeypatch):
    # a fixed deal: a random game's length varies, and this one runs long
    monkeypatch.setattr(services.secrets, "token_hex", lambda n=16: "lone-ai-game")
    game = sabra(players=3, kinds=("ai",) * 3)
    stopped = ai_seats.ai_seats_play(game_id=game.pk)
    game.refresh_from_db()
    assert stopped.status == "game-over" and game.is_over and stopped.version == game.version
    moves = Event.objects.filter(game=game, type="MoveRecorded")
    assert moves.count() > 20 and set(moves.values_list("actor", flat=True)) == {"ai:random"}
    assert audit_game(game).ok
    # The tasks queued at every version (the tests' transaction never
    # commits, so they wait in the outbox) come too late: each does nothing.
    queued = OutboxMessage.objects.filter(game=game, topic=ai_seats.TASK, status="pending").count()
    assert queued == moves.count()
    events = game.events.count()
    report = outbox.drain(limit=5000)
    assert report.sent >= queued and not report.errors
    assert game.events.count() == events


@pytest.mark.django_db
def test_ai_seats_play_stops_when_a_person_is_to_move():
    game = sabra(kinds=("ai", "human"))
    stopped = ai_seats.ai_seats_play(game_id=game.pk)
    assert (stopped.status, stopped.version) == ("not-ai", 2)
    assert game.events.filter(type="MoveRecorded").get().payload["seat"] == 0
    assert ai_seats.ai_seats_play(game_id=10**9).status == "no-game"


@pytest.mark.django_db
def test_ai_seats_play_goes_on_from_a_move_another_process_recorded_first(monkeypatch):
    game = sabra(kinds=("ai", "ai"))
    original = ai_seats.ai_seat_move
    results = []

    def racing(**kw):
        if not results:  # a worker's task records this version's move first
            assert original(**kw).status == "moved"
        results.append(original(**kw))
        return results[-1]

    monkeypatch.setattr(ai_seats, "ai_seat_move", racing)
    stopped = ai_seats.ai_seats_play(game_id=game.pk)
    game.refresh_from_db()
    assert results[0].status == "stale" and results[1].status == "moved"
    assert stopped.status == "game-over" and game.is_over
    versions = list(game.events.values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))  # no move doubled, none lost
    assert audit_game(game).ok


@pytest.mark.django_db
def test_ai_seats_play_refuses_an_unknown_level_and_a_game_that_does_not_end():
    game = sabra(kinds=("ai", "ai"))
    # creation refuses an unknown level: a seat row changed behind the services' back
    Seat.objects.filter(game=game, kind="ai").update(ai_level="grandmaster")
    ai_seats._SEATS.clear()
    with pytest.raises(ai_seats.AISeatError, match="unknown AI level 'grandmaster'"):
        ai_seats.ai_seats_play(game_id=game.pk)
    assert game.events.count() == 1
    game = sabra(kinds=("ai", "ai"))
    with pytest.raises(ai_seats.AISeatError, match="still moving after 3 moves .version 4."):
        ai_seats.ai_seats_play(game_id=game.pk, max_moves=3)
    assert game.events.filter(type="MoveRecorded").count() == 3


@pytest.mark.django_db
@pytest.mark.parametrize("variant,levels", [
    ("sabra", ["expert", "greedy"]),
    ("american", ["expert", "strong"]),
    ("contract", ["expert", "basic", "random"]),
])
def test_expert_seats_play_a_whole_game_through_the_seats(variant, levels):
    # the new levels are offered and played by the games app's AI seats
    from engine.registry import find_variant

    assert "expert" in ai_seats.available_levels(find_variant(variant).family)
    seats = [{"name": f"A{i}", "kind": "ai", "ai_level": lv} for i, lv in enumerate(levels)]
    game = services.game_create(variant=variant, players=len(levels), seats=seats)
    report = outbox.drain(limit=50000)
    game.refresh_from_db()
    assert game.is_over, f"stopped at version {game.version}: {report.errors[:3]}"
    actors = set(Event.objects.filter(game=game, type="MoveRecorded").values_list("actor", flat=True))
    assert "ai:expert" in actors
    assert audit_game(game).ok
