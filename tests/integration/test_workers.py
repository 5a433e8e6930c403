"""The workers for real: ``celery -A config worker`` subprocesses consuming
from a private Redis, on the PostgreSQL test database.

- a tournament with AI seats is played to the end by two workers;
- a worker killed with SIGKILL mid-game, another started: every game ends,
  no move lost or doubled, audits clean;
- Redis stopped while moves are recorded: the moves are stored, the API
  answers, and the AI move and the dispute run once Redis is back;
- disputes on an invalid and on a valid table settled with the right
  verdicts.
"""

from __future__ import annotations

import signal
from collections import Counter

import pytest
from rest_framework.test import APIClient

from engine.tiles import STANDARD, parse_tiles
from games import services
from games.audit import audit_game
from games.models import Dispute, Event, Game, OutboxMessage, StandingsEvent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def ai_game(players=2, **kw):
    seats = [{"name": f"Bot {i}", "kind": "ai", "ai_level": "random"} for i in range(players)]
    return services.game_create(variant="sabra", players=players, seats=seats, **kw)


def moves_of(game):
    return list(Event.objects.filter(game=game, type="MoveRecorded").order_by("version"))


def assert_played_cleanly(game):
    """Ended, contiguous versions, seats taking turns (no move doubled or
    skipped), and a clean audit (hash chain, replay, seed, scores)."""
    game.refresh_from_db()
    assert game.is_over, f"game {game.pk} stopped at version {game.version}"
    versions = list(Event.objects.filter(game=game).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, len(versions) + 1))
    seats = [e.payload["seat"] for e in moves_of(game)]
    assert seats == [(game.first + i) % game.players for i in range(len(seats))], "a move doubled or lost"
    verdict = audit_game(game)
    assert verdict.ok, verdict.problem


def test_a_tournament_with_ai_seats_is_played_to_the_end_by_two_workers(workers, wait):
    """Two workers share the broker and the database: the games of a round
    are played at once, results recorded, the round closed once, the next
    round seated, the standings recorded."""
    from league import handlers, services as league
    from league.models import Club, Player, Round, TableGame, Tournament

    workers("w1")
    workers("w2")
    club = Club.objects.create(name="Integration club")
    tournament = Tournament.objects.create(name="Worker night", club=club, rounds=2, table_size=3,
                                           ai_level="random")
    for name in ("Ada", "Boris", "Chen"):
        league.tournament_enter(tournament=tournament,
                                player=Player.objects.create(name=name, club=club), checked_in=True)
    handlers.tournament_autoplay_start(tournament=tournament)

    def finished():
        tournament.refresh_from_db()
        return tournament.status == Tournament.Status.FINISHED

    wait(finished, 400, "the tournament to finish")
    wait(lambda: StandingsEvent.objects.filter(subject=f"tournament:{tournament.pk}").exists(), 60,
         "the final standings event")
    assert list(tournament.round_set.values_list("status", flat=True)) == [Round.Status.CLOSED] * 2
    games = TableGame.objects.filter(table__round__tournament=tournament).select_related("stream")
    assert games.count() == 6
    for game in games:
        assert_played_cleanly(game.stream)
        assert {e.actor for e in moves_of(game.stream)} == {"ai:random"}
        assert game.results.get(status="confirmed").scores == game.stream.scores
    # every finished game analysed by a worker, from the stream's final head
    from games.models import GameAnalysisRow

    wait(lambda: GameAnalysisRow.objects.filter(game__in=[g.stream for g in games]).count() == 6, 120,
         "the six games' analyses")
    for game in games:
        row = GameAnalysisRow.objects.get(game=game.stream)
        head = Event.objects.filter(game=game.stream).order_by("-version").first()
        assert (row.head_version, row.head_hash) == (head.version, head.hash)
    assert not OutboxMessage.objects.exclude(status="sent").exists()
    for number in (1, 2):
        assert StandingsEvent.objects.filter(subject=f"tournament:{tournament.pk}:round:{number}").count() == 1
    assert all(b"succeeded" in w.log.read_bytes() for w in workers.all), "both workers took tasks"


def test_a_worker_killed_mid_game_and_another_started_finish_every_game(workers, wait):
    first = workers("w1")
    games = [ai_game() for _ in range(2)]

    def played_enough():
        return Event.objects.filter(game__in=games, type="MoveRecorded").count() >= 20

    wait(played_enough, 120, "20 moves from the first worker")
    assert b"games.ai_move" in first.log.read_bytes()
    first.kill(signal.SIGKILL)
    at_kill = {g.pk: Game.objects.get(pk=g.pk).version for g in games}
    assert not all(Game.objects.get(pk=g.pk).is_over for g in games), "nothing left to play after the kill"
    # the next worker runs beat, as a deployment does (docs/workers.md): a
    # kill can lose a message outright (taken off the queue, never in the
    # unacknowledged set), and once a full CI run waited 180 s on one;
    # beat queues a stalled game's AI move again after CELERY_REQUEUE_IDLE
    workers("w2", beat=True, CELERY_REQUEUE_SECONDS=2, CELERY_REQUEUE_IDLE=5)
    wait(lambda: all(Game.objects.get(pk=g.pk).is_over for g in games), 180,
         f"every game to end after the kill (versions at the kill: {at_kill})")
    for game in games:
        assert_played_cleanly(game)


def test_redis_stopped_while_moves_are_recorded(workers, wait, broker, django_user_model):
    workers("w1", beat=True, CELERY_OUTBOX_DRAIN_SECONDS=2)
    game = services.game_create(variant="sabra", players=2,
                                seats=[{"name": "Ann"}, {"name": "Bot", "kind": "ai", "ai_level": "random"}])
    token = services.seat_take(game=game, index=0)
    api = APIClient()
    staff = APIClient()
    staff.force_authenticate(django_user_model.objects.create_user("official", is_staff=True))

    broker.stop()
    assert not broker.ping()
    moved = api.post(f"/api/games/{game.pk}/moves/", {"move": "draw", "expected_version": 1}, format="json",
                     HTTP_AUTHORIZATION=f"Seat {token}")
    assert moved.status_code == 201, moved.content
    assert Event.objects.filter(game=game, version=2, type="MoveRecorded").exists()
    view = api.get(f"/api/games/{game.pk}/view/", HTTP_AUTHORIZATION=f"Seat {token}")
    assert view.status_code == 200 and view.json()["version"] == 2 and view.json()["view"]["to_move"] == 1
    disputed = staff.post(f"/api/games/{game.pk}/disputes/", {"move_version": 2, "kind": "could_open"},
                          format="json")
    assert disputed.status_code == 201 and disputed.json()["status"] == "waiting"
    pending = OutboxMessage.objects.filter(status="pending")
    assert {m.topic for m in pending} == {"games.ai_move", "games.resolve_dispute"}, list(pending)

    broker.start()
    dispute = Dispute.objects.get(pk=disputed.json()["id"])
    wait(lambda: Dispute.objects.get(pk=dispute.pk).status == "done", 120, "the dispute to be settled")
    wait(lambda: Game.objects.get(pk=game.pk).to_move == 0, 120, "the AI seat to move")
    ai_moves = Event.objects.filter(game=game, type="MoveRecorded", actor="ai:random")
    assert ai_moves.count() == 1 and ai_moves.get().payload["seat"] == 1
    dispute.refresh_from_db()
    assert dispute.verdict in ("could_have_opened", "could_not_open") and dispute.resolved_version
    assert not OutboxMessage.objects.filter(status="pending").exists()
    assert audit_game(Game.objects.get(pk=game.pk)).ok


RACK0 = "R10 R11 R12 R13 K7 B7 O7 K1 B5 O9 K3 B12 O2 R5"
RACK1 = "K10 B10 O10 R2 K5 B8 O12 R6 K9 B3 O6 R8 K12 O1"


def typed_in_deal():
    used = Counter(str(t) for t in parse_tiles(f"{RACK0} {RACK1}"))
    pool = []
    for t in STANDARD.tiles():
        if used[str(t)]:
            used[str(t)] -= 1
        else:
            pool.append(str(t))
    return {"racks": [RACK0.split(), RACK1.split()], "pool": pool}


def test_disputes_on_an_invalid_and_a_valid_table_are_settled_by_the_worker(workers, wait, django_user_model):
    workers("w1")
    game = services.game_create(variant="sabra", players=2, deal=typed_in_deal(), seats=["Ann", "Ben"])
    services.game_record_move(game=game, move="play K1 B5 O9 -> [K1 B5 O9]", expected_version=1)
    services.game_record_move(game=game, move="play K10 B10 O10 -> [K10 B10 O10]", expected_version=2)
    staff = APIClient()
    staff.force_authenticate(django_user_model.objects.create_user("official", is_staff=True))
    url = f"/api/games/{game.pk}/disputes/"
    invalid = staff.post(url, {"move_version": 2, "kind": "table_invalid"}, format="json").json()
    valid = staff.post(url, {"move_version": 3, "kind": "table_invalid"}, format="json").json()

    def settled():
        return Dispute.objects.filter(pk__in=[invalid["id"], valid["id"]], status="done").count() == 2

    wait(settled, 120, "both disputes to be settled")
    bad = staff.get(f"/api/disputes/{invalid['id']}/").json()
    good = staff.get(f"/api/disputes/{valid['id']}/").json()
    assert bad["verdict"] == "table_not_valid" and bad["upheld"] is True
    assert sorted(bad["evidence"]["tiles"]) == ["B5", "K1", "O9"]
    assert good["verdict"] == "table_valid" and good["upheld"] is False
    assert good["evidence"]["arrangement"] == ["[K10 B10 O10]"] or \
        sorted(good["evidence"]["arrangement"][0].strip("[]").split()) == ["B10", "K10", "O10"]
    assert audit_game(Game.objects.get(pk=game.pk)).ok


def test_a_prefork_worker_keeps_its_postgresql_connection_from_task_to_task(workers, wait):
    """A deployment's worker (the prefork pool) borrows a connection from its
    process's pool for each task and gives it back: a game of AI seats opens
    a handful of connections, not one or two per move as Celery's Django
    fixup did by closing the whole pool around every task."""
    from django.db import connection

    def opened() -> int:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_stat_clear_snapshot()")
            cur.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
            return cur.fetchone()[0]

    workers("prefork", pool="prefork", defaults=True)
    before = opened()
    game = ai_game()
    wait(lambda: Game.objects.get(pk=game.pk).is_over, 300, "the AI game to end")
    moves = len(moves_of(game))
    wait(lambda: opened() > before, 10, "the statistics to count the worker's connections")
    new = opened() - before
    assert moves > 20
    assert new <= 5, f"{new} PostgreSQL connections opened for {moves} AI moves"
    print(f"\nprefork worker: {new} PostgreSQL connections opened for {moves} AI moves")
