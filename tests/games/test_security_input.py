"""Input that cannot crash, and errors that are always JSON (issue 16,
items 3 and 7): depth and size limits on every API POST, JSON answers for
bad addresses and bodies, query parameters and bodies of the wrong shape
refused with 400, nothing stored from any of it."""

import pytest

from games import services
from games.api_limits import json_depth_exceeds
from games.models import Event, Game, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(db):
    return services.game_create(variant="highcard", players=2, seats=["Ann", "Ben"])


def post_raw(client, url, body: bytes, **extra):
    return client.generic("POST", url, body, content_type="application/json", **extra)


def nested(depth):
    return b"[" * depth + b"]" * depth


def counts():
    return Game.objects.count(), Event.objects.count(), Seat.objects.exclude(token_hash="").count()


@pytest.mark.parametrize("path", ["/api/games/", "/api/games/{id}/seats/1/", "/api/games/{id}/moves/",
                                  "/api/games/{id}/disputes/"])
def test_deeply_nested_json_is_a_400_naming_the_depth(client, game, path):
    before = counts()
    for body in (b'{"a": ' + nested(20_000) + b"}", nested(40_000)):
        response = post_raw(client, path.format(id=game.pk), body)
        assert response.status_code == 400, response.content[:200]
        assert response.json() == {"error": "parse_error", "detail": "the JSON is nested deeper than 32 levels"}
    assert counts() == before


def test_nesting_within_the_limit_is_read(client, game, settings):
    settings.API_MAX_JSON_DEPTH = 3
    ok = post_raw(client, "/api/games/", b'{"variant": "highcard", "players": 2, "rules": {}}')
    assert ok.status_code == 201, ok.content
    deep = post_raw(client, "/api/games/", b'{"variant": "highcard", "players": 2, "rules": {"a": [[1]]}}')
    assert deep.status_code == 400 and "deeper than 3 levels" in deep.json()["detail"]


def test_brackets_inside_strings_do_not_count():
    assert not json_depth_exceeds(b'{"a": "[[[[[[[[[[\\"[[[["}', 2)
    assert json_depth_exceeds(b'{"a": [[["x"]]]}', 3)


def test_a_body_over_the_size_limit_is_a_400_in_json(client, game):
    body = b'{"name": "' + b"x" * 10_000_000 + b'"}'
    response = post_raw(client, f"/api/games/{game.pk}/seats/0/", body)
    assert response.status_code == 400
    assert response.json()["detail"] == "the request body is 10000012 bytes; the API takes at most 1000000"
    # under Django's limit, over the API's own
    response = post_raw(client, f"/api/games/{game.pk}/seats/0/", b'{"name": "' + b"x" * 200_000 + b'"}')
    assert response.status_code == 400
    assert response.json()["detail"] == "the request body is 200012 bytes; the API takes at most 100000"
    assert not Seat.objects.exclude(token_hash="").exists()


def test_a_form_body_over_djangos_limit_is_json_too(client, game):
    response = client.post(f"/api/games/{game.pk}/seats/0/", {"name": "x" * 3_000_000})
    assert response.status_code in (400, 415) and response["Content-Type"] == "application/json"
    assert "error" in response.json()


@pytest.mark.parametrize("body,kind", [(b"[]", "an array"), (b'"Ann"', "a string"), (b"3", "a number"),
                                       (b"null", "null"), (b"true", "true or false")])
def test_a_body_that_is_not_an_object_is_refused(client, game, body, kind):
    response = post_raw(client, f"/api/games/{game.pk}/seats/0/", body)
    assert response.status_code == 400
    assert response.json()["detail"] == f"the request body must be a JSON object, not {kind}"
    assert not Seat.objects.exclude(token_hash="").exists()


def test_nan_is_not_a_number(client, game):
    response = post_raw(client, "/api/games/", b'{"variant": "highcard", "players": NaN}')
    assert response.status_code == 400 and "NaN is not a JSON number" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/api/games/null/", "/api/games/null/view/", "/api/games/1.5/moves/",
                                  "/api/nowhere/", "/api/disputes/abc/"])
def test_an_address_no_route_matches_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"error": "not-found", "detail": f"no such API address: {path}"}


def test_bad_ids_are_json_404s(client):
    for path in ("/api/games/99999/", "/api/games/99999/view/", "/api/games/99999/record/"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_debug_mode_still_answers_json(client, settings):
    settings.DEBUG = True
    response = client.get("/api/games/null/")
    assert response.status_code == 404 and response.json()["error"] == "not-found"


@pytest.mark.parametrize("raw", ["1.5", "-1", "AAA", "1e0", "\u0661", " 1"])
def test_a_seat_parameter_that_is_not_a_seat_number_is_refused(client, staff_api, game, raw):
    for caller in (client, staff_api):
        response = caller.get(f"/api/games/{game.pk}/view/", {"seat": raw})
        assert response.status_code == 400, (raw, response.content)
        assert response.json()["error"] == "bad-seat"


def test_only_staff_or_the_seat_itself_choose_a_seat_view(client, staff_api, game):
    token = services.seat_take(game=game, index=0)
    assert client.get(f"/api/games/{game.pk}/view/", {"seat": "1"}).status_code == 403
    mine = client.get(f"/api/games/{game.pk}/view/", {"seat": "0"}, HTTP_AUTHORIZATION=f"Seat {token}")
    assert mine.status_code == 200 and mine.json()["seat"] == 0
    other = client.get(f"/api/games/{game.pk}/view/", {"seat": "1"}, HTTP_AUTHORIZATION=f"Seat {token}")
    assert other.status_code == 403
    assert staff_api.get(f"/api/games/{game.pk}/view/", {"seat": "1"}).json()["seat"] == 1


def test_an_unknown_status_filter_is_refused(client, game):
    response = client.get("/api/games/", {"status": "AAA"})
    assert response.status_code == 400
    assert response.json() == {"error": "bad-status",
                               "detail": "status must be one of in_progress, finished, not 'AAA'"}
    assert client.get("/api/games/", {"status": "in_progress"}).status_code == 200
