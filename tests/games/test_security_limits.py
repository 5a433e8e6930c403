"""Rate limits (issue 16, item 5): logins locked out by django-axes after a
few wrong passwords (the admin form and the API's basic authentication),
and 429 with Retry-After for game creation, seat taking and audits; the
limits are settings, so tests raise or lower them."""

import base64

import pytest
from django.core.cache import cache

from games import services
from games.models import AuditVerdict, Game, Seat

from .test_services import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def official(django_user_model):
    return django_user_model.objects.create_user("official", password="right-pw-official-1", is_staff=True,
                                                 is_superuser=True)


def basic(user, password):
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_admin_logins_are_locked_out_after_the_failure_limit(client, official, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        wrong = client.post("/admin/login/?next=/admin/", {"username": "official", "password": "guess"})
        assert wrong.status_code in (200, 429)
    right = client.post("/admin/login/?next=/admin/", {"username": "official", "password": "right-pw-official-1"})
    assert right.status_code == 429
    assert client.get("/admin/").status_code == 302  # not logged in


def test_the_right_password_within_the_limit_logs_in(client, official, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client.post("/admin/login/?next=/admin/", {"username": "official", "password": "guess"})
    right = client.post("/admin/login/?next=/admin/", {"username": "official", "password": "right-pw-official-1"})
    assert right.status_code == 302 and client.get("/admin/").status_code == 200


def test_basic_auth_guesses_are_locked_out(client, official, settings):
    settings.AXES_FAILURE_LIMIT = 3
    game = services.game_create(variant="highcard", players=2)
    url = f"/api/games/{game.pk}/view/?seat=0"
    assert client.get(url, **basic("official", "right-pw-official-1")).status_code == 200
    for _ in range(3):
        assert client.get(url, **basic("official", "guess")).status_code in (401, 403, 429)
    locked = client.get(url, **basic("official", "right-pw-official-1"))
    assert locked.status_code in (401, 403, 429) and locked["Content-Type"] == "application/json"
    assert "rack" not in str(locked.json())


def test_game_creation_is_limited_with_retry_after(api, settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "game-create": "3/min"}
    body = {"variant": "highcard", "players": 2}
    for _ in range(3):
        assert api.post("/api/games/", body, format="json").status_code == 201
    over = api.post("/api/games/", body, format="json")
    assert over.status_code == 429 and over.json()["error"] == "throttled"
    assert 0 < int(over["Retry-After"]) <= 60
    assert Game.objects.count() == 3
    assert api.get("/api/games/").status_code == 200  # reads are not limited


def test_seat_taking_is_limited(api, settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "seat-take": "2/hour"}
    games = [services.game_create(variant="highcard", players=2) for _ in range(2)]
    assert api.post(f"/api/games/{games[0].pk}/seats/0/", {}, format="json").status_code == 201
    assert api.post(f"/api/games/{games[0].pk}/seats/1/", {}, format="json").status_code == 201
    over = api.post(f"/api/games/{games[1].pk}/seats/0/", {}, format="json")
    assert over.status_code == 429 and int(over["Retry-After"]) > 60
    assert not Seat.objects.filter(game=games[1]).exclude(token_hash="").exists()


def test_a_limit_switched_off_does_not_limit(api, settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "game-create": None}
    for _ in range(40):
        assert api.post("/api/games/", {"variant": "highcard", "players": 2}, format="json").status_code == 201


def test_the_audit_of_a_finished_game_is_answered_from_the_stored_verdict(api, staff_api, new_game, settings):
    game = play_to_end(new_game(players=2))
    first = api.post(f"/api/games/{game.pk}/audit/")
    assert first.status_code == 200 and first.json()["ok"] is True
    for _ in range(5):
        assert api.post(f"/api/games/{game.pk}/audit/").json() == first.json()
    assert AuditVerdict.objects.filter(game=game).count() == 1
    assert staff_api.post(f"/api/games/{game.pk}/audit/").status_code == 200
    assert AuditVerdict.objects.filter(game=game).count() == 2
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "audit": "1/min"}
    cache.clear()  # forget the staff audit counted above
    assert staff_api.post(f"/api/games/{game.pk}/audit/").status_code == 200
    over = staff_api.post(f"/api/games/{game.pk}/audit/")
    assert over.status_code == 429 and int(over["Retry-After"]) > 0
    assert AuditVerdict.objects.filter(game=game).count() == 3
    # the stored verdict is still answered to others, and refusals are not counted
    assert api.post(f"/api/games/{game.pk}/audit/").status_code == 200
    in_play = new_game(players=2)
    for _ in range(5):
        assert api.post(f"/api/games/{in_play.pk}/audit/").status_code == 403
