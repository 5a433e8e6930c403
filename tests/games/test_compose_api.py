"""POST /api/games/{id}/compose/: the browser table's check of a turn laid
out on the table. The seat on turn only; nothing stored."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import services
from games.models import Event

pytestmark = pytest.mark.django_db


def post(client, game, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Seat {token}"} if token else {}
    return client.post(f"/api/games/{game.pk}/compose/", json.dumps(body), content_type="application/json",
                       **headers)


def test_the_seat_on_turn_gets_each_melds_verdict_and_the_move():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    mover = game.to_move
    rack = services.load_state(game).view(mover)["rack"]
    response = post(Client(), game, {"melds": [rack[:3], rack[3:5]]}, tokens[mover])
    assert response.status_code == 200
    answer = response.json()
    assert len(answer["melds"]) == 2 and answer["melds"][1]["valid"] is False
    assert answer["move"] is None and answer["refusal"] == "some melds are not valid"
    assert Event.objects.filter(game=game).count() == 1  # nothing stored


@pytest.mark.parametrize("body, status, words", [
    ({"melds": "R5"}, 400, "melds"),
    ({"melds": [["R5", "Q9", "R7"]]}, 400, "Q9"),
    ({}, 400, "melds"),
])
def test_bad_input_is_named(body, status, words):
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    token = services.seat_take(game=game, index=game.to_move)
    response = post(Client(), game, body, token)
    assert response.status_code == status and words in json.dumps(response.json())


def test_off_turn_and_strangers_are_refused():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    off = post(Client(), game, {"melds": []}, tokens[1 - game.to_move])
    assert off.status_code == 400 and off.json()["error"] == "not-your-turn"
    assert post(Client(), game, {"melds": []}).status_code == 403
