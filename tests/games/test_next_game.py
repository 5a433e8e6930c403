"""The next game after a finished one: "Play again" makes the same table
again (same seats, names, computer levels, rules, a new deal) for the first
seat that asks; each other seat that asks joins its own seat there. A
tournament's game is followed by the next game of the round instead."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game, Seat
from games.services import load_state

pytestmark = pytest.mark.django_db


def _seated(game, index, name):
    client = Client()
    response = client.post(f"/games/{game.pk}/seats/{index}/take/", {"name": name})
    assert response.status_code == 302
    return client


def _finish(game):
    """Highcard with one tile each: the seat on turn plays it and wins."""
    game.refresh_from_db()
    state = load_state(game)
    tile = state.racks[state.turn][0]
    services.game_record_move(game=game.pk, move=f"play {tile}", expected_version=game.version, seat=state.turn)
    game.refresh_from_db()
    assert game.is_over


def test_play_again_makes_the_same_table_and_each_seat_joins_its_own():
    game = services.game_create(variant="highcard", players=3, rules={"hand": 1}, title="Friday",
                                seats=[{"name": "seat 0"}, {"name": "seat 1"},
                                       {"name": "Robot", "kind": "ai", "ai_level": ""}])
    ann, ben = _seated(game, 0, "Ann"), _seated(game, 1, "Ben")
    page = ann.get(f"/games/{game.pk}/play/").content.decode()
    assert f'action="/games/{game.pk}/next/"' in page and 'id="game-over" hidden' in page
    # before the end, no next game
    early = ann.post(f"/games/{game.pk}/next/")
    assert early.status_code == 400 and "still in play" in early.content.decode()
    assert Game.objects.count() == 1
    _finish(game)
    over = ann.get(f"/games/{game.pk}/play/").content.decode()
    assert 'id="game-over" hidden' not in over and "Play again" in over

    first = ann.post(f"/games/{game.pk}/next/")
    new = Game.objects.get(pk=Game.objects.get(pk=game.pk).next_game_id)
    assert first.status_code == 302 and first["Location"] == f"/games/{new.pk}/play/"
    assert (new.variant, new.players, new.rules, new.title) == ("highcard", 3, game.rules, "Friday")
    assert new.first == 1 and not new.is_over and new.version == 1
    seats = list(new.seats.order_by("index"))
    assert [(s.name, s.kind) for s in seats] == [("Ann", "human"), ("Ben", "human"), ("Robot", Seat.Kind.AI)]
    assert seats[0].token_hash and not seats[1].token_hash  # Ben's seat waits for Ben
    assert "<h1>Ann</h1>" in ann.get(first["Location"]).content.decode()
    # the other seat's click joins its own seat in the same new game
    assert "Join the next game" in ben.get(f"/games/{game.pk}/play/").content.decode()
    second = ben.post(f"/games/{game.pk}/next/")
    assert second.status_code == 302 and second["Location"] == f"/games/{new.pk}/play/"
    assert "<h1>Ben</h1>" in ben.get(second["Location"]).content.decode()
    # a second click changes nothing: the same game, the same seat
    again = ann.post(f"/games/{game.pk}/next/")
    assert again["Location"] == f"/games/{new.pk}/play/" and Game.objects.count() == 2
    # a new deal: the secret seed differs
    assert new.events.first().payload["seed_sha256"] != game.events.first().payload["seed_sha256"]


def test_a_browser_without_a_seat_cannot_start_the_next_game():
    game = services.game_create(variant="highcard", players=2, rules={"hand": 1})
    _finish(game)
    response = Client().post(f"/games/{game.pk}/next/")
    assert response.status_code == 403 and Game.objects.count() == 1
    assert Client().get(f"/games/{game.pk}/next/").status_code == 405
