"""The audit replays each stream and names the first bad event."""

import json

import pytest
from django.core.management import call_command
from django.db import connection

from games import services
from games.audit import audit_game
from games.models import AuditVerdict, Event, Game

from .test_services import play_to_end


@pytest.fixture
def finished(new_game):
    return play_to_end(new_game(players=3))


def raw(sql, params):
    """Run SQL behind the store's back (on PostgreSQL with the append-only
    trigger switched off for the session, as only a superuser can)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = replica")
        cur.execute(sql, params)
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = origin")


def test_a_played_game_is_clean(finished):
    verdict = audit_game(finished)
    assert verdict.ok and verdict.events_checked == finished.version
    assert AuditVerdict.objects.get(game=finished).ok


def test_a_game_in_play_is_audited_with_its_kept_seed(new_game):
    game = new_game()
    services.game_record_move(game=game, move="draw", expected_version=1)
    assert audit_game(game).ok


def test_a_payload_edited_by_raw_sql_is_named(finished):
    row = Event.objects.get(game=finished, version=3)
    payload = dict(row.payload, seat=(row.payload["seat"] + 1) % 3)
    raw("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), row.pk])
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == 3
    assert "does not match its hash" in verdict.problem


def test_a_rehashed_forgery_is_caught_by_the_replay(finished):
    # Someone rewrites a move and recomputes the whole chain after it: the
    # chain holds, the replay does not.
    from games import eventstore as es

    rows = list(Event.objects.filter(game=finished).order_by("version"))
    move = next(r for r in rows if r.type == "MoveRecorded" and r.payload["move"].startswith("play"))
    forged = dict(move.payload, move="draw")
    prev = move.prev_hash
    for row in rows[move.version - 1:]:
        if row.pk == move.pk:
            row.payload = forged
        digest = es.expected_hash(row, prev)
        raw("UPDATE games_event SET payload = %s, prev_hash = %s, hash = %s WHERE id = %s",
            [json.dumps(row.payload), prev, digest, row.pk])
        prev = digest
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == move.version
    assert "does not replay" in verdict.problem or "outcome" in verdict.problem


def test_a_deleted_event_is_named(finished):
    row = Event.objects.get(game=finished, version=4)
    raw("DELETE FROM games_event WHERE id = %s", [row.pk])
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == 4 and "missing" in verdict.problem


def test_a_changed_revealed_seed_is_named(finished):
    last = Event.objects.filter(game=finished).order_by("-version").first()
    payload = dict(last.payload, seed="f" * 32)
    from games import eventstore as es

    raw("UPDATE games_event SET payload = %s, hash = %s WHERE id = %s",
        [json.dumps(payload), "", last.pk])
    row = Event.objects.get(pk=last.pk)
    raw("UPDATE games_event SET hash = %s WHERE id = %s", [es.expected_hash(row, row.prev_hash), row.pk])
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == last.version
    assert "revealed seed does not hash" in verdict.problem


def test_wrong_scores_are_named(finished):
    from games import eventstore as es

    last = Event.objects.filter(game=finished).order_by("-version").first()
    scores = list(last.payload["scores"])
    scores[0], scores[1] = scores[1] + 5, scores[0] - 5
    raw("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(dict(last.payload, scores=scores)), last.pk])
    row = Event.objects.get(pk=last.pk)
    raw("UPDATE games_event SET hash = %s WHERE id = %s", [es.expected_hash(row, row.prev_hash), row.pk])
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == last.version and "scores" in verdict.problem


def test_audit_games_command_names_the_edited_row(finished, new_game, capsys):
    clean = play_to_end(new_game(players=2))
    row = Event.objects.get(game=finished, version=2)
    raw("UPDATE games_event SET actor = %s WHERE id = %s", ["mallory", row.pk])
    with pytest.raises(SystemExit) as code:
        call_command("audit_games")
    out, err = capsys.readouterr()
    assert code.value.code == 1
    assert f"game {finished.pk}: BAD at event 2" in out
    assert f"game {clean.pk}" not in out
    assert "2 games audited: 1 clean, 1 bad" in out
    assert "audit" in err  # the progress bar
    assert AuditVerdict.objects.filter(game=clean, ok=True).exists()


def test_rebuild_projections_command(finished, capsys):
    Game.objects.filter(pk=finished.pk).update(version=0, state=None, status="in_progress")
    call_command("rebuild_projections", "--no-progress")
    finished.refresh_from_db()
    assert finished.version == Event.objects.filter(game=finished).count()
    assert finished.status == "finished"
    assert "1 projections rebuilt, 0 failed" in capsys.readouterr().out
