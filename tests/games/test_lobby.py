"""The start screen: a game started from the browser with its rule options
and seats, the starter seated by the session; refusals next to the field."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def test_the_start_screen_shows_the_variants_options_as_fields():
    html = Client().get("/games/new/?variant=sabra").content.decode()
    assert 'name="rule_initial_meld" value="30"' in html and 'name="rule_manipulate_on_initial_turn"' in html
    assert 'value="ai:greedy"' in html
    contract = Client().get("/games/new/?variant=international").content.decode()
    assert "rule_initial_meld" not in contract and 'name="seat_7"' in contract


def test_a_game_is_started_with_options_and_an_ai_seat_and_the_starter_is_seated():
    client = Client()
    response = client.post("/games/new/", {
        "variant": "sabra", "title": "Club night", "players": "3", "name": "Ann",
        "seat_1": "ai:greedy", "seat_2": "person",
        "rule_initial_meld": "50", "rule_rack_size": "14", "rule_turn_time_limit": "60",
        "rule_joker_penalty": "30", "rule_joker_reuse": "new-meld", "rule_joker_sets": "free",
        "rule_joker_freed_from": "rack-or-table", "rule_direction": "clockwise",
        "rule_pool_empty_end": "all-pass"})
    game = Game.objects.get(title="Club night")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    assert game.rules["initial_meld"] == 50 and game.players == 3
    seats = list(game.seats.order_by("index"))
    assert [s.kind for s in seats] == [Seat.Kind.HUMAN, Seat.Kind.AI, Seat.Kind.HUMAN]
    assert seats[0].name == "Ann" and seats[0].token_hash and not seats[2].token_hash
    assert "Ann · seat 0" in client.get(response["Location"]).content.decode()


def test_a_bad_option_is_refused_next_to_its_field_and_nothing_is_stored():
    response = Client().post("/games/new/", {
        "variant": "sabra", "title": "Bad", "players": "2", "name": "Ann", "seat_1": "person",
        "rule_initial_meld": "30", "rule_rack_size": "14", "rule_turn_time_limit": "60",
        "rule_joker_penalty": "30", "rule_joker_reuse": "sometimes", "rule_joker_sets": "free",
        "rule_joker_freed_from": "rack-or-table", "rule_direction": "clockwise",
        "rule_pool_empty_end": "all-pass"})
    html = response.content.decode()
    assert response.status_code == 400 and "joker_reuse must be one of" in html
    assert not Game.objects.filter(title="Bad").exists()
    missing = Client().post("/games/new/", {"variant": "sabra", "players": "9"})
    assert missing.status_code == 400 and "This field is required" in missing.content.decode()
