"""Seats that cannot be stolen (issue 16, item 1) and AI levels refused at
creation (item 4): a taken seat, an AI seat or any seat of a finished game
cannot be claimed and nothing is stored; a new name is an event."""

import pytest

from games import services
from games.audit import audit_game
from games.models import Event, Game, Seat

from .test_services import play_to_end

pytestmark = pytest.mark.django_db


def take(api, game_id, index, body=None):
    return api.post(f"/api/games/{game_id}/seats/{index}/", body or {}, format="json")


def snapshot(game_id):
    return (Event.objects.filter(game_id=game_id).count(),
            list(Seat.objects.filter(game_id=game_id).order_by("index").values_list("name", "token_hash")))


def test_an_ai_seat_cannot_be_taken(api):
    game = services.game_create(variant="sabra", players=2,
                                seats=[{"name": "Ann"}, {"name": "Bot", "kind": "ai", "ai_level": "greedy"}])
    before = snapshot(game.pk)
    response = take(api, game.pk, 1, {"name": "mallory"})
    assert response.status_code == 409
    assert response.json() == {"error": "seat-not-open",
                               "detail": f"seat 1 of game {game.pk} is played by the computer: it cannot be taken"}
    assert snapshot(game.pk) == before


def test_no_seat_of_a_finished_game_can_be_taken(api, new_game):
    game = play_to_end(new_game(players=3))
    before = snapshot(game.pk)
    for index in range(3):
        response = take(api, game.pk, index, {"name": "late"})
        assert response.status_code == 409, response.content
        assert response.json()["error"] == "seat-not-open"
        assert "is over" in response.json()["detail"]
    assert snapshot(game.pk) == before
    record = api.get(f"/api/games/{game.pk}/record/").content.decode()
    assert "late" not in record


def test_a_taken_seat_cannot_be_taken_again(api, new_game):
    game = new_game(players=2)
    assert take(api, game.pk, 0).status_code == 201
    before = snapshot(game.pk)
    again = take(api, game.pk, 0, {"name": "thief"})
    assert again.status_code == 409 and again.json()["error"] == "seat-taken"
    assert snapshot(game.pk) == before


def test_a_new_name_is_an_event_and_the_audit_checks_the_seat_row(api, new_game):
    from .test_audit import raw

    game = new_game(players=2, seats=["Ann", "Ben"])
    response = take(api, game.pk, 1, {"name": "Benjamin"})
    assert response.status_code == 201
    named = Event.objects.get(game=game, version=2)
    assert named.type == "SeatNamed" and named.payload == {"seat": 1, "name": "Benjamin"}
    assert named.actor == "seat:1"
    game.refresh_from_db()
    assert game.version == 2 and Seat.objects.get(game=game, index=1).name == "Benjamin"
    assert audit_game(game).ok
    # the same name as the seat already has is no event
    assert take(api, game.pk, 0, {"name": "Ann"}).status_code == 201
    assert Game.objects.get(pk=game.pk).version == 2
    # a seat row renamed behind the stream's back is named by the audit
    raw("UPDATE games_seat SET name = %s WHERE game_id = %s AND \"index\" = 1", ["late", game.pk])
    verdict = audit_game(game)
    assert not verdict.ok and "seat 1" in verdict.problem and "'late'" in verdict.problem
    assert "'Benjamin'" in verdict.problem and verdict.first_bad_version == 2


def test_rebuild_projections_restores_the_seat_names_from_the_stream(api, new_game):
    from django.core.management import call_command

    game = new_game(players=2, seats=["Ann", "Ben"])
    take(api, game.pk, 1, {"name": "Benjamin"})
    Seat.objects.filter(game=game).update(name="x")
    call_command("rebuild_projections", str(game.pk), "--no-progress")
    assert list(Seat.objects.filter(game=game).order_by("index").values_list("name", flat=True)) == \
        ["Ann", "Benjamin"]


@pytest.mark.parametrize("variant,level,known", [
    ("sabra", "easy", "expert, greedy, random, strong"),
    ("international", "grandmaster", "basic, expert, random, strong"),
])
def test_an_unknown_ai_level_is_refused_listing_the_levels(api, variant, level, known):
    players = 2 if variant == "sabra" else 3
    seats = [{"name": "Ann"}] + [{"name": f"Bot{i}", "kind": "ai", "ai_level": level} for i in range(1, players)]
    response = api.post("/api/games/", {"variant": variant, "players": players, "seats": seats}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "bad-ai-level"
    assert response.json()["detail"] == f"seat 1: unknown AI level {level!r} (the levels are {known})"
    assert Game.objects.count() == 0 and Event.objects.count() == 0


def test_a_known_level_and_no_level_are_accepted(api):
    seats = [{"name": "Ann"}, {"name": "Bot", "kind": "ai", "ai_level": "strong"}]
    assert api.post("/api/games/", {"variant": "sabra", "players": 2, "seats": seats},
                    format="json").status_code == 201
    seats = [{"name": "Ann"}, {"name": "Bot", "kind": "ai"}]
    assert api.post("/api/games/", {"variant": "sabra", "players": 2, "seats": seats},
                    format="json").status_code == 201
