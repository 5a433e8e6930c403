"""The audit sees everything (issue 16, item 2): each tamper case is named
at the event that was tampered with: an edited, deleted, reordered and
re-chained event, a deleted tail, a deleted GameFinished; the head's
anchor is an HMAC under a key the database does not hold."""

import json

import pytest
from django.core.management import call_command

from games import eventstore as es
from games import services
from games.audit import audit_game
from games.models import Event, Game

from .test_audit import raw
from .test_services import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(new_game):
    return play_to_end(new_game(players=3))


@pytest.fixture
def in_play(db):
    """A Sabra game in play, a dozen moves in."""
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    for _ in range(12):
        game.refresh_from_db()
        services.game_record_move(game=game, move="draw", expected_version=game.version)
    game.refresh_from_db()
    return game


def rows_of(game):
    return list(Event.objects.filter(game=game).order_by("version"))


def rechain(game, start):
    """Recompute every hash from event ``start`` on, as someone with write
    access to the database but without the anchor key can."""
    rows = rows_of(game)
    prev = rows[start - 2].hash if start > 1 else es.GENESIS_HASH
    for row in rows[start - 1:]:
        digest = es.expected_hash(row, prev)
        raw("UPDATE games_event SET prev_hash = %s, hash = %s WHERE id = %s", [prev, digest, row.pk])
        prev = digest


def test_every_stored_event_carries_its_anchor(finished):
    for row in rows_of(finished):
        assert row.anchor == es.anchor(row.hash) and len(row.anchor) == 64
    assert audit_game(finished).ok


def test_an_edited_event_is_named(finished):
    row = Event.objects.get(game=finished, version=5)
    raw("UPDATE games_event SET actor = %s WHERE id = %s", ["mallory", row.pk])
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == 5
    assert "does not match its hash" in verdict.problem


def test_an_edit_followed_by_rechaining_is_named_at_the_edited_event(in_play):
    # "draw" of a seat on turn replays at every event with the same outcome,
    # so the replay alone cannot tell; the anchors can
    row = Event.objects.get(game=in_play, version=6)
    raw("UPDATE games_event SET actor = %s WHERE id = %s", ["mallory", row.pk])
    rechain(in_play, 6)
    verdict = audit_game(in_play)
    assert not verdict.ok and verdict.first_bad_version == 6, verdict
    assert "anchor" in verdict.problem


def test_a_rechained_forgery_of_a_move_is_named_at_the_forged_move(finished):
    rows = rows_of(finished)
    move = next(r for r in rows if r.type == "MoveRecorded" and r.payload["move"].startswith("play"))
    raw("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(dict(move.payload, move="draw")), move.pk])
    rechain(finished, move.version)
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == move.version
    assert "anchor" in verdict.problem


def test_a_deleted_event_is_named(in_play):
    raw("DELETE FROM games_event WHERE game_id = %s AND version = %s", [in_play.pk, 7])
    verdict = audit_game(in_play)
    assert not verdict.ok and verdict.first_bad_version == 7 and "missing" in verdict.problem


def test_reordered_events_are_named(in_play):
    a, b = Event.objects.get(game=in_play, version=4), Event.objects.get(game=in_play, version=5)
    raw("UPDATE games_event SET version = %s WHERE id = %s", [1000, a.pk])
    raw("UPDATE games_event SET version = %s WHERE id = %s", [4, b.pk])
    raw("UPDATE games_event SET version = %s WHERE id = %s", [5, a.pk])
    verdict = audit_game(in_play)
    assert not verdict.ok and verdict.first_bad_version == 4
    assert "prev_hash" in verdict.problem or "hash" in verdict.problem


def test_a_deleted_tail_is_named_at_the_first_missing_event(in_play, capsys):
    assert in_play.version == 13
    raw("DELETE FROM games_event WHERE game_id = %s AND version > %s", [in_play.pk, 10])
    verdict = audit_game(in_play)
    assert not verdict.ok and verdict.first_bad_version == 11
    assert "events 11 to 13 are missing" in verdict.problem
    with pytest.raises(SystemExit) as code:
        call_command("audit_games", "--no-progress")
    assert code.value.code == 1
    out = capsys.readouterr().out
    assert f"game {in_play.pk}: BAD at event 11" in out and "1 games audited: 0 clean, 1 bad" in out


def test_a_deleted_game_finished_is_named(finished):
    last = rows_of(finished)[-1]
    assert last.type == "GameFinished"
    raw("DELETE FROM games_event WHERE id = %s", [last.pk])
    verdict = audit_game(finished)
    assert not verdict.ok and verdict.first_bad_version == last.version, verdict
    assert "GameFinished" in verdict.problem


def test_a_game_row_out_of_step_with_its_stream_is_named(in_play):
    Game.objects.filter(pk=in_play.pk).update(to_move=(in_play.to_move + 1) % 2)
    verdict = audit_game(in_play)
    assert not verdict.ok and verdict.first_bad_version == in_play.version and "to_move" in verdict.problem


def test_anchors_made_with_another_key_fail(finished, settings):
    settings.GAMES_ANCHOR_KEY = "another key entirely, not the one that anchored the stream"
    verdict = audit_game(finished, save=False)
    assert not verdict.ok and verdict.first_bad_version == 1 and "anchor" in verdict.problem


def test_the_head_is_on_the_game_page_and_in_the_record(client, staff_api, in_play):
    head = rows_of(in_play)[-1]
    page = client.get(f"/games/{in_play.pk}/").content.decode()
    assert head.hash in page and head.anchor in page
    record = staff_api.get(f"/api/games/{in_play.pk}/record/").content.decode()
    assert f'[Head "{head.version} sha256:{head.hash}"]' in record
    assert f'[Anchor "{head.anchor}"]' in record
    # the engine's record reader reads it back (unknown tags are kept, not refused)
    from engine.records import read_record

    assert read_record(record).get("Head") == f"{head.version} sha256:{head.hash}"
