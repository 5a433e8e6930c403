"""The audit of contract rummy streams, where seats off turn move (buys,
undo): a MoveRecorded event's ``seat`` is the seat that moved (schema 2),
accepted when the engine's ``may_act(seat)`` allowed it; schema 1 events
(the seat on turn, the mover in ``"by"``) are upcast when read."""

import json

import pytest
from django.db import connection

from engine.cards import TEXT
from games import eventstore as es
from games import services
from games.audit import audit_game
from games.models import Event, Game, SeedSecret
from games.replay import new_state

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seeded(monkeypatch, request):
    """Each test's games are dealt from a fixed seed (reproducible)."""
    monkeypatch.setattr(services.secrets, "token_hex", lambda n=16: f"contract-audit-{request.node.name}")


def play(game, move, seat):
    version = Game.objects.get(pk=game.pk).version
    return services.game_record_move(game=game.pk, move=move, expected_version=version, seat=seat)


def state_of(game):
    return services.load_state(Game.objects.get(pk=game.pk))


def discard_first(game, seat):
    return play(game, f"discard {TEXT[state_of(game).hands[seat][0]]}", seat)


@pytest.fixture
def bought():
    """An international game of three with buys off turn and an undo sent
    for no seat (staff): 2 buys the first upcard, 0 draws and discards, 2
    buys that discard, 1 draws and discards, staff undo that discard, 1
    discards again."""
    game = services.game_create(variant="international", players=3)
    assert play(game, "buy", 2).outcome == "buy-requested"
    play(game, "draw", 0)
    discard_first(game, 0)
    assert play(game, "buy", 2).outcome == "buy-requested"
    play(game, "draw", 1)
    discard_first(game, 1)
    version = Game.objects.get(pk=game.pk).version
    undo = services.game_record_move(game=game.pk, move="undo", expected_version=version)
    assert undo.outcome == "undone" and undo.move == "undo"
    discard_first(game, 1)
    return game


def moves(game):
    return list(Event.objects.filter(game=game, type=es.MOVE_RECORDED).order_by("version"))


def raw(sql, params):
    """Run SQL behind the store's back (on PostgreSQL with the append-only
    trigger switched off for the session)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = replica")
        cur.execute(sql, params)
        if connection.vendor == "postgresql":
            cur.execute("SET session_replication_role = origin")


def rewrite(game, change):
    """Apply ``change(row)`` to every row (it may set ``payload`` and
    ``schema_version``) and recompute the whole hash chain: a forgery the
    chain cannot see, only the replay."""
    prev = es.GENESIS_HASH
    for row in Event.objects.filter(game=game).order_by("version"):
        change(row)
        digest = es.expected_hash(row, prev)
        raw("UPDATE games_event SET payload = %s, schema_version = %s, prev_hash = %s, hash = %s "
            "WHERE id = %s", [json.dumps(row.payload), row.schema_version, prev, digest, row.pk])
        prev = digest


def reanchor(game):
    """Anchor every row with the key, as migration 0006 anchors the events an
    older writer stored (such rows were written by the store, not forged)."""
    for row in Event.objects.filter(game=game):
        raw("UPDATE games_event SET anchor = %s WHERE id = %s", [es.anchor(row.hash), row.pk])


def test_a_contract_game_with_buys_off_turn_audits_clean(bought):
    rows = moves(bought)
    recorded = [(r.payload["move"].split()[0], r.payload["seat"]) for r in rows]
    # the seat recorded is the seat that moved: the buyer off turn, the
    # discarder for the undo sent for no seat
    assert [seat for _, seat in recorded] == [2, 0, 0, 2, 1, 1, 1, 1]
    assert all(int(text) == seat for text, seat in recorded if text.isdigit())
    assert rows[6].payload["move"] == "undo" and rows[6].actor == ""
    assert all(r.schema_version == 2 and "by" not in r.payload for r in rows)
    verdict = audit_game(bought)
    assert verdict.ok, verdict.problem


def test_a_seat_forged_to_one_that_could_not_act_is_named(bought):
    rows = moves(bought)
    discard = rows[2]          # seat 0's discard: nobody else may act then
    assert discard.payload["move"].startswith("0 discard")
    rewrite(bought, lambda row: setattr(row, "payload", dict(row.payload, seat=1))
            if row.pk == discard.pk else None)
    verdict = audit_game(bought)
    assert not verdict.ok and verdict.first_bad_version == discard.version
    assert "seat 1, which could not act" in verdict.problem and "seat 0 was on turn" in verdict.problem


def test_a_seat_forged_to_another_seat_that_could_act_is_named(bought):
    buy = moves(bought)[3]     # "2 buy" while 1 is on turn: 1 could act too
    assert buy.payload["move"] == "2 buy"
    rewrite(bought, lambda row: setattr(row, "payload", dict(row.payload, seat=1))
            if row.pk == buy.pk else None)
    verdict = audit_game(bought)
    assert not verdict.ok and verdict.first_bad_version == buy.version
    assert "names seat 2 but is recorded for seat 1" in verdict.problem


def test_a_seatless_move_recorded_for_the_wrong_seat_is_named(bought):
    undo = moves(bought)[6]    # "undo" made by seat 1 (its discard), seat 2 on turn
    rewrite(bought, lambda row: setattr(row, "payload", dict(row.payload, seat=2))
            if row.pk == undo.pk else None)
    verdict = audit_game(bought)
    assert not verdict.ok and verdict.first_bad_version == undo.version
    assert "engine made it for seat 1" in verdict.problem


def test_a_seat_outside_the_table_is_named(bought):
    first = moves(bought)[0]
    rewrite(bought, lambda row: setattr(row, "payload", dict(row.payload, seat=7))
            if row.pk == first.pk else None)
    verdict = audit_game(bought)
    assert not verdict.ok and verdict.first_bad_version == first.version
    assert "seat 7, not a seat of this 3-player game" in verdict.problem


def test_schema_1_events_with_by_are_upcast_and_audit_clean(bought):
    # Rewrite the stream as the schema 1 writer stored it: "seat" the seat
    # on turn, "by" the seat a move names when it is another one (a move
    # naming no seat, like staff's "undo", had no "by").
    created = Event.objects.get(game=bought, version=1).payload
    state = new_state(created, SeedSecret.objects.get(game=bought).seed)
    on_turn = {}
    for row in moves(bought):
        on_turn[row.pk] = state.to_move
        state.push(state.parse_move(row.payload["move"]))

    def to_v1(row):
        if row.type != es.MOVE_RECORDED:
            return
        payload = dict(row.payload, seat=on_turn[row.pk])
        named = state.parse_move(row.payload["move"]).seat
        if named is not None and named != on_turn[row.pk]:
            payload["by"] = named
        row.payload, row.schema_version = payload, 1

    new_seats = [r.payload["seat"] for r in moves(bought)]
    rewrite(bought, to_v1)
    reanchor(bought)
    stored = moves(bought)
    assert [r.schema_version for r in stored] == [1] * len(stored)
    assert [r.payload.get("by") for r in stored] == [2, None, None, 2, None, None, None, None]
    assert [r.payload["seat"] for r in stored] == [0, 0, 0, 1, 1, 1, 2, 1]
    # read back: the seat that moved, no "by" (schema 1 kept only the seat
    # on turn for the seatless undo: the audit reads it so for schema 1)
    loaded = [e for e in es.load(bought.pk) if e.type == es.MOVE_RECORDED]
    assert [e.payload["seat"] for e in loaded] == new_seats[:6] + [2, 1]
    assert all("by" not in e.payload and e.stored_schema == 1 for e in loaded)
    verdict = audit_game(bought)
    assert verdict.ok, verdict.problem
    # the state rebuilt from the schema 1 stream is the one that was played
    assert services.state_from_stream(Game.objects.get(pk=bought.pk), use_snapshots=False).snapshot() \
        == state.snapshot()


def test_the_move_recorded_upcaster():
    assert es.CURRENT_SCHEMA[es.MOVE_RECORDED] == 2
    old = {"seat": 1, "by": 3, "move": "3 buy", "outcome": "buy-requested"}
    assert es.upcast(es.MOVE_RECORDED, 1, old) == {"seat": 3, "move": "3 buy", "outcome": "buy-requested"}
    assert old["by"] == 3     # the stored payload is left as it was
    on_turn = {"seat": 1, "move": "1 draw", "outcome": "drew"}
    assert es.upcast(es.MOVE_RECORDED, 1, on_turn) == on_turn
    assert es.upcast(es.MOVE_RECORDED, 2, on_turn) == on_turn
    with pytest.raises(ValueError, match="MoveRecorded schema 3 is newer"):
        es.upcast(es.MOVE_RECORDED, 3, on_turn)
