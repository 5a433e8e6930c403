"""Faults during a club evening, for real: two ``celery -A config worker``
processes and beat on a private Redis and the PostgreSQL test database.

Every worker runs with the deployment's default settings (no timer of the
test's own). One worker is killed with SIGKILL while AI games and a
tournament round are being played; the message it held comes back only
after the visibility timeout (60 s): beat's repairs must get every game
moving again within 15 s. Then Redis is stopped for 20 s while people keep making
moves: every write answers within a second and is stored; once Redis is
back the outbox drains, every game and the round complete, no move is lost
or doubled, and ``audit_games`` passes. The counts are printed.
"""

from __future__ import annotations

import io
import signal
import time

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import services
from games.models import Event, Game, OutboxMessage

from .test_workers import ai_game, assert_played_cleanly

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]



def test_a_killed_worker_and_a_redis_outage_lose_nothing(workers, wait, broker):
    from league import handlers, services as league
    from league.models import Club, Player, Round, TableGame, Tournament

    victim = workers("victim", defaults=True)  # alone at first: the message it holds at the kill is lost
    games = [ai_game(rules={"rack_size": 10}) for _ in range(3)]
    # a game whose AI seats think a little, so that the kill can land mid-move
    games.append(services.game_create(variant="sabra", players=2, rules={"rack_size": 10}, seats=[
        {"name": f"Deep {i}", "kind": "ai", "ai_level": "strong"} for i in range(2)]))
    club = Club.objects.create(name="Fault club")
    tournament = Tournament.objects.create(name="Fault night", club=club, rounds=1, table_size=3,
                                           ai_level="random", rules={"rack_size": 8})
    for name in ("Ada", "Boris", "Chen"):
        league.tournament_enter(tournament=tournament, player=Player.objects.create(name=name, club=club),
                                checked_in=True)
    handlers.tournament_autoplay_start(tournament=tournament)

    # --- kill -9 a worker with games in flight -------------------------------------------
    wait(lambda: b"games.ai_move" in victim.log.read_bytes() and
         Event.objects.filter(game__in=games, type="MoveRecorded").count() >= 6, 120, "the victim to play")
    wait(victim.holds_a_task, 120, "the victim to hold an AI move's message", every=0.002)
    victim.kill(signal.SIGKILL)
    killed_at = time.monotonic()
    at_kill = dict(Game.objects.filter(status=Game.Status.IN_PROGRESS).values_list("pk", "version"))  # every game in flight
    assert at_kill, "every game ended before the kill"
    workers("keeper", beat=True, defaults=True)  # started after the kill (its start counts in the 15 s)

    def all_moved_on():
        return all(Game.objects.get(pk=pk).version > v or Game.objects.get(pk=pk).is_over
                   for pk, v in at_kill.items())

    wait(all_moved_on, 30, f"every game to move again after the kill (versions at the kill: {at_kill})")
    recovery = time.monotonic() - killed_at
    assert recovery < 15, f"games stalled {recovery:.1f} s after the kill"
    queued = [tuple(r) for r in OutboxMessage.objects.filter(topic="games.ai_move").values_list("args", flat=True)]
    requeued = sum(1 for _, k in __import__("collections").Counter(map(str, queued)).items() if k > 1)

    # --- Redis away for 20 s while people play -------------------------------------------
    people = services.game_create(variant="sabra", players=2, seats=[{"name": "Ann"}, {"name": "Ben"}])
    against_ai = services.game_create(variant="sabra", players=2,
                                      seats=[{"name": "Cleo"}, {"name": "Bot", "kind": "ai", "ai_level": "random"}])
    tokens = [services.seat_take(game=people, index=i) for i in range(2)]
    cleo = services.seat_take(game=against_ai, index=0)
    api = APIClient()
    broker.stop()
    outage_start = time.monotonic()
    timings = []

    def post(game, token, version):
        t0 = time.perf_counter()
        response = api.post(f"/api/games/{game.pk}/moves/", {"move": "draw", "expected_version": version},
                            format="json", HTTP_AUTHORIZATION=f"Seat {token}")
        timings.append(time.perf_counter() - t0)
        assert response.status_code == 201, response.content
        return response.json()["version"]

    version = 1
    cleo_moved = False
    while time.monotonic() - outage_start < 20:
        mover = Game.objects.get(pk=people.pk).to_move
        version = post(people, tokens[mover], version)
        if not cleo_moved and Game.objects.get(pk=against_ai.pk).to_move == 0:
            post(against_ai, cleo, Game.objects.get(pk=against_ai.pk).version)  # queues the bot's move
            cleo_moved = True
        time.sleep(0.5)
    pending_in_outage = OutboxMessage.objects.filter(status="pending").count()
    broker.start()  # returns once Redis answers
    back_at = time.monotonic()
    # the workers reconnect (every second at most) and send the outbox at once: the AI seat's
    # move queued during the outage is played without waiting out the rows' pauses
    wait(lambda: Game.objects.get(pk=against_ai.pk).to_move == 0, 60, "the AI move queued during the outage")
    resumed = time.monotonic() - back_at
    assert resumed < 3, f"work resumed {resumed:.1f} s after Redis came back"
    assert cleo_moved and pending_in_outage >= 1
    assert max(timings) < 1.0, f"a write took {max(timings):.2f} s while Redis was down"
    assert Event.objects.filter(game=people, type="MoveRecorded").count() == len(timings) - 1  # Cleo's is elsewhere

    # --- everything completes -----------------------------------------------------------
    def finished():
        tournament.refresh_from_db()
        return (tournament.status == Tournament.Status.FINISHED and
                all(Game.objects.get(pk=g.pk).is_over for g in games) and
                Game.objects.get(pk=against_ai.pk).to_move == 0 and
                not OutboxMessage.objects.exclude(status="sent").exists())

    wait(finished, 240, "the games, the round and the outbox to complete after the outage")
    assert list(tournament.round_set.values_list("status", flat=True)) == [Round.Status.CLOSED]
    streams = [t.stream for t in TableGame.objects.filter(table__round__tournament=tournament).select_related("stream")]
    for game in games + streams:
        assert_played_cleanly(game)
    out = io.StringIO()
    call_command("audit_games", "--no-progress", stdout=out)  # exits 1 on any bad game
    assert ", 0 bad" in out.getvalue(), out.getvalue()
    moves = Event.objects.filter(type="MoveRecorded").count()
    sent = OutboxMessage.objects.filter(status="sent").count()
    print(f"\nfaults: recovery after kill -9 {recovery:.1f} s ({requeued} AI moves queued again by beat); {len(timings)} writes during a 20 s Redis outage, "
          f"slowest {max(timings) * 1000:.0f} ms; work resumed {resumed:.1f} s after Redis came back; {pending_in_outage} outbox rows waited and were sent; "
          f"{len(games) + len(streams) + 2} games, {moves} moves, {sent} tasks sent, audits clean")
