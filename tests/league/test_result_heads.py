"""The league's result stream keeps each finished game's head (issue 27,
item 2b): a game rolled back after its result was recorded (its tail
deleted, its row set back, its seed put back as the kept secret) is clean
in itself, but no longer reaches the head its result names, and the audit
names the first missing event, with no checkpoint and no receipt."""

import json

import pytest
from django.db import connection

from games import services as game_services
from games.audit import audit_game
from games.models import Checkpoint, Event, Game, SeedSecret
from league import services
from league.models import ResultEvent, TableGame

pytestmark = pytest.mark.django_db


def raw(sql, params):
    """SQL behind the stores' backs (the append-only triggers off for the
    session on PostgreSQL, as only a superuser can)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = replica")
        cur.execute(sql, params)
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = origin")


def roll_back(game, keep):
    """Cut the stream back to its first ``keep`` events, rebuild its row from
    them and put the revealed seed back as the kept secret."""
    finished = Event.objects.filter(game=game, type="GameFinished").values_list("payload", flat=True).first()
    raw("DELETE FROM games_event WHERE game_id = %s AND version > %s", [game.pk, keep])
    raw("DELETE FROM games_snapshot WHERE game_id = %s AND version > %s", [game.pk, keep])
    SeedSecret.objects.get_or_create(game=game, defaults={"seed": finished["seed"]})
    game_services.projection_rebuild(Game.objects.get(pk=game.pk))
    game.refresh_from_db()
    assert game.version == keep and not game.is_over


@pytest.fixture
def recorded(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="heads")
    game = TableGame.objects.filter(table__round=rnd).first()
    services.table_game_open_stream(game=game, all_ai=True)
    game.refresh_from_db()
    services.table_game_play_ai(game=game)
    game.refresh_from_db()
    return game


def test_the_result_keeps_the_streams_final_head(recorded):
    stream = recorded.stream
    [event] = ResultEvent.objects.filter(game=recorded)
    head = Event.objects.get(game=stream, version=stream.version)
    assert head.type == "GameFinished"
    assert event.payload["stream_version"] == stream.version and event.payload["stream_hash"] == head.hash


@pytest.mark.parametrize("cut", [2, 7])
def test_a_finished_game_rolled_back_disagrees_with_its_recorded_result(recorded, cut):
    stream = recorded.stream
    head = stream.version
    if cut == 2:
        assert Event.objects.get(game=stream, version=head - 1).type == "MoveRecorded"
    roll_back(stream, head - cut)
    assert not Checkpoint.objects.exists()
    verdict = audit_game(stream, save=False)
    first = head - cut + 1
    assert not verdict.ok and verdict.first_bad_version == first, verdict
    assert f"events {first}..{head} are missing: the stream ends at {head - cut}" in verdict.problem
    assert "the league's result" in verdict.problem


def test_a_result_recorded_before_heads_were_kept_still_finds_the_cut(recorded):
    stream = recorded.stream
    head = stream.version
    event = ResultEvent.objects.get(game=recorded)
    old = {k: v for k, v in event.payload.items() if k != "stream_hash"}
    raw("UPDATE league_resultevent SET payload = %s WHERE id = %s", [json.dumps(old), event.pk])
    assert audit_game(stream, save=False).ok
    roll_back(stream, head - 3)
    verdict = audit_game(stream, save=False)
    assert not verdict.ok and verdict.first_bad_version == head - 2, verdict
