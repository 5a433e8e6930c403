"""The turn clock: a digital game whose rules set a turn time limit
(seed 001's minute) records the rules' timeout move for the seat on turn
once its time has run out, claimed by any seat of the game through
POST /api/games/{id}/timeout/; never earlier, never twice, never for games
from a real table or rules without a limit."""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Event, Game

pytestmark = pytest.mark.django_db


def claim(game, version, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Seat {token}"} if token else {}
    return Client().post(f"/api/games/{game.pk}/timeout/", json.dumps({"expected_version": version}),
                         content_type="application/json", **headers)


def later(monkeypatch, seconds):
    real = timezone.now
    monkeypatch.setattr("games.services.timezone.now", lambda: real() + datetime.timedelta(seconds=seconds))


def seated(variant="sabra", rules=None, **kw):
    game = services.game_create(variant=variant, players=2, seats=["Ann", "Ben"], rules=rules, **kw)
    return game, [services.seat_take(game=game, index=i) for i in range(2)]


def test_the_clock_is_in_every_view_and_counts_down():
    game, tokens = seated(rules={"turn_time_limit": 45})
    body = Client().get(f"/api/games/{game.pk}/view/", HTTP_AUTHORIZATION=f"Seat {tokens[1]}").json()
    clock = body["clock"]
    assert clock["seat"] == game.to_move and clock["seconds"] == 45 and 40 < clock["left"] <= 45


def test_an_early_claim_is_refused_with_the_time_left_and_nothing_is_stored():
    game, tokens = seated(rules={"turn_time_limit": 60})
    response = claim(game, 1, tokens[1])
    assert response.status_code == 400 and response.json()["error"] == "clock-running"
    assert "left on the clock" in response.json()["detail"]
    assert Event.objects.filter(game=game).count() == 1


def test_a_claim_after_the_limit_records_the_timeout_for_the_seat_on_turn(monkeypatch):
    game, tokens = seated(rules={"turn_time_limit": 60})
    on_turn = game.to_move
    rack_before = len(services.load_state(game).view(on_turn)["rack"])
    later(monkeypatch, 61)
    response = claim(game, 1, tokens[1 - on_turn])  # the other seat's page claims it
    assert response.status_code == 201 and response.json()["move"] == "timeout"
    event = Event.objects.filter(game=game, type="MoveRecorded").get()
    assert event.payload["seat"] == on_turn and event.actor == f"seat:{1 - on_turn}"
    game = Game.objects.get(pk=game.pk)
    assert len(services.load_state(game).view(on_turn)["rack"]) == rack_before + 1  # the penalty tile
    assert game.to_move != on_turn
    # a second claim at the same version finds the turn over
    assert claim(game, 1, tokens[on_turn]).status_code == 409
    assert Event.objects.filter(game=game, type="MoveRecorded").count() == 1


@pytest.mark.parametrize("variant, kw", [
    ("sabra", {"rules": {"turn_time_limit": 0}}),       # no limit in these rules
    ("contract", {}),                                  # no clock in the family
])
def test_no_clock_no_timeout(monkeypatch, variant, kw):
    game = services.game_create(variant=variant, players=3, seats=["Ann", "Ben", "Cleo"], **kw)
    token = services.seat_take(game=game, index=1)
    later(monkeypatch, 10_000)
    response = claim(game, 1, token)
    assert response.status_code == 400 and response.json()["error"] == "no-clock"
    assert Client().get(f"/api/games/{game.pk}/view/").json()["clock"] is None


def test_a_game_from_a_real_table_keeps_the_tables_own_clock(monkeypatch):
    from engine.registry import find_variant

    snap = find_variant("sabra").new(2, seed="paper").snapshot()
    game, tokens = seated(deal={"racks": snap["racks"], "pool": snap["pool"]})
    later(monkeypatch, 10_000)
    assert claim(game, 1, tokens[0]).json()["error"] == "no-clock"


def test_a_stranger_cannot_claim(monkeypatch):
    game, _ = seated()
    other, tokens = seated()
    later(monkeypatch, 120)
    assert claim(game, 1).status_code == 403                 # no credential
    assert claim(game, 1, tokens[0]).status_code == 403      # another game's seat
    assert Event.objects.filter(game=game).count() == 1


def test_the_game_page_shows_the_clock_to_spectators():
    game, _ = seated(rules={"turn_time_limit": 90})
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'id="turn-clock"' in page and "of 90" in page and ["Ann", "Ben"][game.to_move] in page
    table, _ = seated(rules={"turn_time_limit": 0})
    assert 'id="turn-clock"' not in Client().get(f"/games/{table.pk}/").content.decode()


@pytest.mark.parametrize("language", ["en", "nl", "de", "tr"])
def test_the_clock_left_is_a_number_the_page_script_reads_in_every_language(language):
    """``data-left`` is read by ``Number()`` in the page: in Dutch or German
    a localised "59,8" gave NaN on the game page's clock."""
    import re

    game, _ = seated(rules={"turn_time_limit": 60})
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/games/{game.pk}/").content.decode()
    left = re.search(r'id="turn-clock" data-left="([^"]*)"', page).group(1)
    assert re.fullmatch(r"\d+(\.\d+)?", left) and 59 <= float(left) <= 60, left
