"""The event store: versions, conflicts, the hash chain, append-only rows,
upcasting old event shapes."""

import pytest
from django.db import connection, transaction

from games import eventstore as es
from games.models import AppendOnlyError, Event, Game


@pytest.fixture
def stream(db):
    return Game.objects.create(family="test", variant="highcard", players=2)


def test_appends_number_events_and_chain_their_hashes(stream):
    es.append(stream, expected_version=0, events=[("Noted", {"n": 1})], actor="a")
    es.append(stream, expected_version=1, events=[("Noted", {"n": 2}), ("Noted", {"n": 3})])
    rows = list(Event.objects.filter(game=stream))
    assert [r.version for r in rows] == [1, 2, 3]
    assert rows[0].prev_hash == es.GENESIS_HASH
    for before, row in zip(rows, rows[1:]):
        assert row.prev_hash == before.hash
    for prev, row in zip([es.GENESIS_HASH] + [r.hash for r in rows], rows):
        assert es.expected_hash(row, prev) == row.hash
    assert len({r.hash for r in rows}) == 3


def test_a_stale_expected_version_is_a_conflict_and_stores_nothing(stream):
    es.append(stream, expected_version=0, events=[("Noted", {"n": 1})])
    with pytest.raises(es.ConcurrencyConflict) as info:
        es.append(stream, expected_version=0, events=[("Noted", {"n": 2})])
    assert "no longer at version 0" in str(info.value) and info.value.actual == 1
    with pytest.raises(es.ConcurrencyConflict):
        es.append(stream, expected_version=5, events=[("Noted", {"n": 2})])
    assert Event.objects.filter(game=stream).count() == 1


def test_the_unique_constraint_refuses_a_second_event_at_a_version(stream):
    # A writer that read the head before another appended: the constraint wins.
    es.append(stream, expected_version=0, events=[("Noted", {"n": 1})])
    stale = (0, es.GENESIS_HASH)  # what the second writer read before the first appended
    with pytest.raises(es.ConcurrencyConflict), transaction.atomic():
        es.append(stream, expected_version=0, events=[("Noted", {"n": 2})], head=stale)
    assert list(Event.objects.filter(game=stream).values_list("payload", flat=True)) == [{"n": 1}]


def test_events_refuse_update_and_delete(stream):
    [row] = es.append(stream, expected_version=0, events=[("Noted", {"n": 1})])
    row.payload = {"n": 99}
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=stream).update(payload={})
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=stream).delete()
    assert Event.objects.get(game=stream).payload == {"n": 1}


def test_an_edited_payload_no_longer_matches_its_hash(stream):
    [row] = es.append(stream, expected_version=0, events=[("Noted", {"n": 1})])
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":  # behind the append-only trigger's back
            cur.execute("SET session_replication_role = replica")
        cur.execute("UPDATE games_event SET payload = %s WHERE id = %s", ['{"n": 2}', row.pk])
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = origin")
    edited = Event.objects.get(pk=row.pk)
    assert es.expected_hash(edited, es.GENESIS_HASH) != edited.hash


def test_payloads_must_be_json(stream):
    with pytest.raises(ValueError, match="not JSON-safe"):
        es.append(stream, expected_version=0, events=[("Noted", {"when": object()})])


def test_old_game_created_events_are_upcast_when_read(stream):
    # A schema-1 GameCreated as an older version of the code stored it.
    from django.utils import timezone

    old = {"family": "test", "variant": "highcard", "players": 2, "options": {"hand": 4},
           "seat_names": ["Ann", "Ben"], "mode": "digital", "seed_sha256": "0" * 64}
    now = timezone.now()
    body = es.canonical_bytes(game_id=stream.pk, version=1, type=es.GAME_CREATED, schema_version=1,
                              payload=old, actor="", recorded_at=now)
    Event.objects.create(game=stream, version=1, type=es.GAME_CREATED, schema_version=1, payload=old,
                         recorded_at=now, prev_hash=es.GENESIS_HASH, hash=es.chain_hash(es.GENESIS_HASH, body))
    [event] = es.load(stream.pk)
    assert event.stored_schema == 1
    assert event.payload["rules"] == {"hand": 4}
    assert event.payload["seats"] == [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    assert "options" not in event.payload
    # the stored row is untouched, so its hash still holds
    row = Event.objects.get(game=stream)
    assert row.payload == old and es.expected_hash(row, es.GENESIS_HASH) == row.hash


def test_a_schema_newer_than_the_code_is_refused():
    with pytest.raises(ValueError, match="newer than this code"):
        es.upcast(es.GAME_CREATED, 9, {})


def test_the_hashed_timestamp_keeps_its_text():
    """Stored hashes cover the time as strftime('%Y-%m-%dT%H:%M:%S.%fZ') in
    UTC wrote it: the text must never change (microseconds always written,
    any zone turned to UTC)."""
    from datetime import datetime, timedelta, timezone

    cest = timezone(timedelta(hours=2))
    for moment in (datetime(2026, 11, 27, 13, 5, 9, 0, tzinfo=timezone.utc),
                   datetime(2026, 1, 2, 3, 4, 5, 67, tzinfo=timezone.utc),
                   datetime(2025, 6, 30, 23, 59, 59, 999999, tzinfo=cest)):
        assert es._stamp(moment) == moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert es._stamp(datetime(2026, 11, 27, 1, 0, 0, 0, tzinfo=cest)) == "2026-11-26T23:00:00.000000Z"
