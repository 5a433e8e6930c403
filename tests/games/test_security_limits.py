"""Rate limits (issue 16, item 5): logins locked out by django-axes after a
few wrong passwords (the admin form and the API's basic authentication),
and 429 with Retry-After for game creation, seat taking and audits; the
limits are settings, so tests raise or lower them."""

import base64

import pytest
from django.core.cache import cache

from games import services
from games.models import AuditVerdict, Event, Game, Seat

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


# --- issue 27, item 5: limits that cannot be stepped around -------------------------------
def from_address(address):
    return {"REMOTE_ADDR": address}


def test_the_game_create_limit_counts_the_address_and_the_credential_together(api, settings, new_game):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "game-create": "3/min"}
    body = {"variant": "highcard", "players": 2}
    for _ in range(3):
        assert api.post("/api/games/", body, format="json", **from_address("198.51.100.7")).status_code == 201
    assert api.post("/api/games/", body, format="json", **from_address("198.51.100.7")).status_code == 429
    # more credentials from the same address give no more games
    seats = new_game(players=3)
    for index in range(3):
        token = services.seat_take(game=seats, index=index)
        over = api.post("/api/games/", body, format="json", HTTP_AUTHORIZATION=f"Seat {token}",
                        **from_address("198.51.100.7"))
        assert over.status_code == 429, over.content
    # and one credential from many addresses gives no more either
    token = services.seat_take(game=new_game(players=2), index=0)
    made = [api.post("/api/games/", body, format="json", HTTP_AUTHORIZATION=f"Seat {token}",
                     **from_address(f"203.0.113.{i}")).status_code for i in range(5)]
    assert made == [201, 201, 201, 429, 429]


def test_password_spraying_locks_the_address_and_a_locked_attempt_hashes_nothing(client, settings, monkeypatch,
                                                                                django_user_model):
    import django.contrib.auth.base_user as base_user

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # counted, not timed
    django_user_model.objects.create_user("official", password="right-pw-official-1", is_staff=True)
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 20
    game = services.game_create(variant="highcard", players=2)
    url = f"/api/games/{game.pk}/view/?seat=0"
    hashed = []
    real_check, real_make = base_user.check_password, base_user.make_password
    monkeypatch.setattr(base_user, "check_password", lambda *a, **k: hashed.append(1) or real_check(*a, **k))
    monkeypatch.setattr(base_user, "make_password", lambda *a, **k: hashed.append(1) or real_make(*a, **k))
    spray = "192.0.2.66"
    for i in range(25):  # 25 user names, one wrong password each
        answer = client.get(url, **basic(f"user{i:02d}", "Summer2026!"), **from_address(spray))
        assert answer.status_code in (401, 403, 429)
    assert len(hashed) == 20  # the last five were refused before any hash
    hashed.clear()
    locked = client.get(url, **basic("official", "right-pw-official-1"), **from_address(spray))
    assert locked.status_code == 429 and locked["Content-Type"] == "application/json"
    assert "rack" not in str(locked.json()) and hashed == []
    form = client.post("/admin/login/?next=/admin/", {"username": "official", "password": "right-pw-official-1"},
                       **from_address(spray))
    assert form.status_code == 429 and hashed == []
    # another address is not locked
    assert client.get(url, **basic("official", "right-pw-official-1"), **from_address("192.0.2.67")).status_code == 200


def test_a_user_locked_by_axes_costs_no_hash_either(client, official, settings, monkeypatch):
    import django.contrib.auth.base_user as base_user

    settings.AXES_FAILURE_LIMIT = 3
    game = services.game_create(variant="highcard", players=2)
    url = f"/api/games/{game.pk}/view/?seat=0"
    for _ in range(3):
        client.get(url, **basic("official", "guess"))
    hashed = []
    monkeypatch.setattr(base_user, "check_password", lambda *a, **k: hashed.append(1))
    assert client.get(url, **basic("official", "right-pw-official-1")).status_code in (401, 403, 429)
    assert hashed == []


def test_disputes_are_limited(api, settings, new_game):
    from .test_disputes import deal, play_fixture_moves

    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "dispute": "3/min"}
    game = play_fixture_moves(services.game_create(variant="sabra", players=2, deal=deal(), training=True))
    token = services.seat_take(game=game, index=0)
    url = f"/api/games/{game.pk}/disputes/"
    answers = [api.post(url, {"move_version": v, "kind": "table_invalid"}, format="json",
                        HTTP_AUTHORIZATION=f"Seat {token}").status_code for v in (2, 4, 2, 4)]
    assert answers == [201, 201, 200, 429]
    assert api.get(url).status_code == 200  # reads are not limited


def test_stale_moves_are_limited_and_good_ones_are_not(api, settings, new_game):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "move-stale": "3/min"}
    game = new_game(players=2)
    token = services.seat_take(game=game, index=game.to_move)
    seat = {"HTTP_AUTHORIZATION": f"Seat {token}"}
    stale = [api.post(f"/api/games/{game.pk}/moves/", {"move": "draw", "expected_version": 99}, format="json",
                      **seat).status_code for _ in range(5)]
    assert stale == [409, 409, 409, 429, 429]
    game.refresh_from_db()
    refused = api.post(f"/api/games/{game.pk}/moves/", {"move": "draw", "expected_version": game.version},
                       format="json", **seat)
    assert refused.status_code == 429  # the budget is spent for this seat and address
    assert Event.objects.filter(game=game).count() == game.version


def test_compose_and_timeout_are_limited(api, settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "compose": "2/min", "timeout": "2/min"}
    game = services.game_create(variant="sabra", players=2)
    token = services.seat_take(game=game, index=game.to_move)
    seat = {"HTTP_AUTHORIZATION": f"Seat {token}"}
    composed = [api.post(f"/api/games/{game.pk}/compose/", {"melds": []}, format="json", **seat).status_code
                for _ in range(3)]
    assert composed == [200, 200, 429]
    timeouts = [api.post(f"/api/games/{game.pk}/timeout/", {"expected_version": game.version}, format="json",
                         **seat).status_code for _ in range(3)]
    assert timeouts[:2] != [429, 429] and timeouts[2] == 429
