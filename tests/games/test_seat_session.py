"""A seat link is exchanged for the browser's session on its first use:
afterwards the credential is in no address, the session acts for that seat
only (CSRF-checked), several games fit in one browser, and a reissued or
revoked credential ends every session holding the old one."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Event, Game

pytestmark = pytest.mark.django_db


def two_seats(title="Tuesday"):
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title=title)
    return game, [services.seat_take(game=game, index=i) for i in range(2)]


def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


def enter(client: Client, token: str):
    """A seat link's exchange as the landing page's script makes it: the
    page (for its CSRF cookie), then the POST of the fragment's credential."""
    client.get("/games/play/")
    return client.post("/games/play/", {"token": token, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def test_the_first_visit_exchanges_the_link_and_the_page_holds_no_credential():
    game, tokens = two_seats()
    client = csrf_client()
    response = enter(client, tokens[0])
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    assert response["Referrer-Policy"] == "same-origin" and response["Cache-Control"] == "no-store"
    page = client.get(f"/games/{game.pk}/play/")
    html = page.content.decode()
    assert page.status_code == 200 and "<h1>Ann</h1>" in html
    assert page["Cache-Control"] == "no-store"
    assert tokens[0] not in html and tokens[1] not in html


def test_the_fragment_form_posts_the_credential_and_a_bad_one_is_refused():
    game, tokens = two_seats()
    client = csrf_client()
    landing = client.get("/games/play/")
    assert landing.status_code == 200 and "location.hash" in landing.content.decode()
    csrf = landing.cookies["csrftoken"].value
    response = client.post("/games/play/", {"token": tokens[1], "csrfmiddlewaretoken": csrf})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/play/"
    assert "<h1>Ben</h1>" in client.get(response["Location"]).content.decode()
    bad = client.post("/games/play/", {"token": "not-a-credential", "csrfmiddlewaretoken": csrf})
    assert bad.status_code == 400 and "unknown seat credential" in bad.content.decode()


def test_without_a_seat_the_clean_page_says_how_to_get_in():
    game, _ = two_seats()
    response = Client().get(f"/games/{game.pk}/play/")
    assert response.status_code == 403 and "holds no seat" in response.content.decode()
    assert Client().get("/games/999999/play/").status_code == 404


def test_one_browser_holds_seats_in_several_games():
    first, tokens_a = two_seats("A")
    second, tokens_b = two_seats("B")
    client = Client()
    enter(client, tokens_a[0])
    enter(client, tokens_b[1])
    assert "<h1>Ann</h1>" in client.get(f"/games/{first.pk}/play/").content.decode()
    assert "<h1>Ben</h1>" in client.get(f"/games/{second.pk}/play/").content.decode()


def test_the_api_acts_for_the_session_seat_only_with_the_csrf_token():
    game, tokens = two_seats()
    mover = game.to_move
    client = csrf_client()
    enter(client, tokens[mover])
    page = client.get(f"/games/{game.pk}/play/")
    csrf = page.cookies.get("csrftoken") or client.cookies["csrftoken"]
    body = json.dumps({"move": "draw", "expected_version": game.version})
    refused = client.post(f"/api/games/{game.pk}/moves/", body, content_type="application/json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert Event.objects.filter(game=game).count() == 1
    view = client.get(f"/api/games/{game.pk}/view/").json()
    assert "rack" in view["view"] and view["view"]["seat"] == mover
    moved = client.post(f"/api/games/{game.pk}/moves/", body, content_type="application/json",
                        HTTP_X_CSRFTOKEN=csrf.value)
    assert moved.status_code == 201
    assert Game.objects.get(pk=game.pk).version == 2


def test_a_session_seat_reaches_no_other_game():
    game, tokens = two_seats("mine")
    other, _ = two_seats("theirs")
    client = Client()
    enter(client, tokens[0])
    view = client.get(f"/api/games/{other.pk}/view/").json()
    assert "rack" not in view["view"]  # the public view: no seat of that game
    body = json.dumps({"move": "draw", "expected_version": other.version})
    response = client.post(f"/api/games/{other.pk}/moves/", body, content_type="application/json")
    assert response.status_code in (401, 403)
    assert Game.objects.get(pk=other.pk).version == other.version


def test_reissue_and_revoke_end_the_sessions_holding_the_old_credential():
    game, tokens = two_seats()
    player = Client()
    enter(player, tokens[0])
    assert player.get(f"/games/{game.pk}/play/").status_code == 200
    staff = Client()
    staff.force_login(User.objects.create_user("ref", password="x", is_staff=True))
    assert Client().post(f"/api/games/{game.pk}/seats/0/credential/").status_code in (401, 403)
    response = staff.post(f"/api/games/{game.pk}/seats/0/credential/")
    assert response.status_code == 201
    new = response.json()["token"]
    assert player.get(f"/games/{game.pk}/play/").status_code == 403  # the old session lost the seat
    old_api = Client().get(f"/api/games/{game.pk}/view/", HTTP_AUTHORIZATION=f"Seat {tokens[0]}")
    assert old_api.status_code == 401
    fresh = Client()
    assert enter(fresh, new).status_code == 302
    assert fresh.get(f"/games/{game.pk}/play/").status_code == 200
    assert staff.delete(f"/api/games/{game.pk}/seats/0/credential/").status_code == 204
    assert fresh.get(f"/games/{game.pk}/play/").status_code == 403
    # the seat is open again
    assert services.seat_take(game=game, index=0, name="Ann")
    assert staff.delete(f"/api/games/{game.pk}/seats/1/credential/").status_code == 204
    again = staff.delete(f"/api/games/{game.pk}/seats/1/credential/")
    assert again.status_code == 400 and "holds no credential" in again.json()["detail"]
