"""The audit never accuses a game that is only being played (issue 27,
item 7): two ``celery -A config worker`` subprocesses play computer games
on PostgreSQL while this process audits them, 500 audits in all, each
stored. Every verdict must be clean: each audit reads the game row, its
stream, seats, kept seed and kept heads in one REPEATABLE READ snapshot
(games.audit._read), so a move committed between two of its reads is never
taken for a deleted tail, a wrong turn or a removed GameFinished."""

from __future__ import annotations

import time

import pytest

from games import services
from games.audit import audit_game
from games.models import AuditVerdict, Event, Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

AUDITS = 500
GAMES = 24


def test_500_audits_of_games_being_played_by_workers_give_no_false_verdict(workers, wait, require_postgres):
    workers("w1")
    workers("w2")
    seats = [{"name": f"Bot {i}", "kind": "ai", "ai_level": "random"} for i in range(2)]
    games = [services.game_create(variant="sabra", players=2, seats=seats) for _ in range(GAMES)]
    ids = [g.pk for g in games]
    wait(lambda: Event.objects.filter(game_id__in=ids, type="MoveRecorded").count() >= GAMES, 60,
         "the workers to start playing")
    moves_before = Event.objects.filter(game_id__in=ids).count()
    false, in_play, started = [], 0, time.monotonic()
    for n in range(AUDITS):
        game = Game.objects.defer("state").get(pk=ids[n % GAMES])
        in_play += not game.is_over
        verdict = audit_game(game)
        if not verdict.ok:
            false.append(str(verdict))
    moved = Event.objects.filter(game_id__in=ids).count() - moves_before
    seconds = time.monotonic() - started
    print(f"\n{AUDITS} audits in {seconds:.1f} s, {in_play} of games in play, "
          f"{moved} events recorded meanwhile, {len(false)} false verdicts")
    assert not false, f"{len(false)} false verdicts of {AUDITS}:\n" + "\n".join(false[:10])
    assert AuditVerdict.objects.filter(game_id__in=ids).count() == AUDITS
    assert not AuditVerdict.objects.filter(game_id__in=ids, ok=False).exists()
    assert in_play >= AUDITS // 2, f"only {in_play} audits were of games in play"
    assert moved >= 200, f"the workers recorded only {moved} events during the audits"


def test_an_audit_on_postgresql_reads_in_one_repeatable_read_transaction(require_postgres):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    with CaptureQueriesContext(connection) as queries:
        verdict = audit_game(game, save=False)
    assert verdict.ok
    sql = [q["sql"] for q in queries.captured_queries if q["sql"] != "BEGIN"]
    assert sql[0] == "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", sql[:3]
