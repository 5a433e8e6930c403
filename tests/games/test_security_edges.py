"""Secrets that never leave their seat, and the smaller holes at the edges
(issue 27, items 4 and 6): nobody (staff included) reads a game's seed while
it is played; a huge game id, a lone surrogate, a multipart body or a name
that is not text are 400s, not 500s or accepted; pages and answers that
carry a credential or a rack are never cached; the seat links that were
GETs are gone."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Event, Seat, SeedSecret
from games.replay import seed_sha256

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("organiser", password="pw-organiser-1", is_staff=True)


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def exchange(client, token):
    """A seat link's exchange, as the landing page posts it."""
    return client.post("/games/play/", {"token": token})


# ----------------------------------------------------------- item 4: the seed
@pytest.mark.parametrize("variant", ["sabra", "international"])
def test_nobody_reads_the_seed_of_a_game_in_play_staff_included(staff_api, staff_client, variant):
    game = services.game_create(variant=variant, players=3)
    seed = SeedSecret.objects.get(game=game).seed
    record = staff_api.get(f"/api/games/{game.pk}/record/")
    assert record.status_code == 200
    text = record.content.decode()
    assert seed not in text and "[Seed " not in text
    assert f'[SeedSHA256 "{seed_sha256(seed)}"]' in text
    for answer in (staff_api.get(f"/api/games/{game.pk}/events/"), staff_api.get(f"/api/games/{game.pk}/view/?seat=1"),
                   staff_client.get(f"/games/{game.pk}/"), staff_client.get(f"/games/{game.pk}/?at=1")):
        assert answer.status_code == 200 and seed not in answer.content.decode()


def test_a_row_set_to_finished_does_not_reveal_the_seed(api):
    # (a finished game's record carries its seed and replays:
    # test_contract_api's whole seeded game)
    from games.models import Game

    game = services.game_create(variant="international", players=3)
    seed = SeedSecret.objects.get(game=game).seed
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # the row alone: the stream is not over
    record = api.get(f"/api/games/{game.pk}/record/")
    assert record.status_code == 200 and seed not in record.content.decode()


# --------------------------------------------------------- item 6: small holes
def test_a_session_asking_for_a_game_id_past_64_bits_is_a_404(staff_client):
    for game_id in (2**63, 2**63 + 5, 10**30):
        for path in (f"/games/{game_id}/play/", f"/api/games/{game_id}/view/", f"/games/{game_id}/"):
            assert staff_client.get(path).status_code == 404, path
        answer = staff_client.post(f"/api/games/{game_id}/moves/", {"move": "draw", "expected_version": 1},
                                   content_type="application/json")
        assert answer.status_code == 404 and answer["Content-Type"] == "application/json"


def test_a_lone_surrogate_in_a_dispute_is_a_400(api, new_game):
    game = new_game(players=2)
    token = services.seat_take(game=game, index=0)
    before = Event.objects.count()
    for body in ('{"move_version": 2, "kind": "\\ud800"}', '{"move_version": 2, "kind": "table_invalid", '
                                                           '"note": "\\udfff"}', '{"\\ud800": 1}'):
        answer = api.generic("POST", f"/api/games/{game.pk}/disputes/", body, content_type="application/json",
                             HTTP_AUTHORIZATION=f"Seat {token}")
        assert answer.status_code == 400 and "surrogate" in answer.json()["detail"], answer.content
    assert Event.objects.count() == before


def test_a_multipart_body_to_the_api_is_a_json_415_naming_what_it_takes(api, new_game):
    game = new_game(players=2)
    for path in ("/api/games/", f"/api/games/{game.pk}/seats/1/", f"/api/games/{game.pk}/moves/"):
        answer = api.post(path, {"name": "Ann", "players": "2"}, format="multipart")
        assert answer.status_code == 415 and answer["Content-Type"] == "application/json", answer.content
        assert "multipart/form-data" in answer.json()["detail"] and "application/json" in answer.json()["detail"]
        broken = api.generic("POST", path, b"--x\r\nnot a part", content_type="multipart/form-data; boundary=x")
        assert broken.status_code == 415 and broken.json()["error"] == "unsupported_media_type"


def test_daphne_leaves_a_multipart_body_to_django(monkeypatch):
    # Twisted (under daphne) parsed multipart bodies itself and answered one
    # it could not parse with a bare 400 before Django saw it
    from types import SimpleNamespace

    from daphne import http_protocol
    from twisted.web.test.requesthelper import DummyChannel

    import config.asgi  # noqa: F401 (the entry point daphne serves sets its request class)

    processed, refused = [], []
    monkeypatch.setattr(http_protocol.WebRequest, "process", lambda self: processed.append(self.content.read()))
    for body in (b"garbage", b"--x\r\nnot a part"):
        channel = DummyChannel()
        channel.factory = SimpleNamespace(server=SimpleNamespace(protocol_connected=lambda request: None))
        channel._respondToBadRequestAndDisconnect = lambda: refused.append(True)
        request = http_protocol.WebRequest(channel)
        request.requestHeaders.setRawHeaders(b"content-type", [b"multipart/form-data; boundary=x"])
        request.gotLength(len(body))
        request.content.write(body)
        request.requestReceived(b"POST", b"/api/games/", b"HTTP/1.1")
    assert refused == [] and processed == [b"garbage", b"--x\r\nnot a part"]


def test_a_name_that_is_not_text_is_refused(api, new_game):
    game = new_game(players=2)
    for name in (0, 12.5, True, ["Ann"], {"n": 1}):
        answer = api.post(f"/api/games/{game.pk}/seats/1/", {"name": name}, format="json")
        assert answer.status_code == 400 and "name" in answer.json()["detail"], (name, answer.content)
    assert not Seat.objects.filter(game=game).exclude(token_hash="").exists()
    assert api.post(f"/api/games/{game.pk}/seats/1/", {"name": "Ann"}, format="json").status_code == 201
    for body in ({"variant": 7, "players": 2}, {"variant": "highcard", "players": 2, "title": 3}):
        assert api.post("/api/games/", body, format="json").status_code == 400


def test_answers_with_a_credential_or_a_rack_are_never_cached(api, staff_api, staff_client, new_game):
    game = new_game(players=2)
    taken = api.post(f"/api/games/{game.pk}/seats/0/", {"name": "Ann"}, format="json")
    assert taken.status_code == 201 and taken["Cache-Control"] == "no-store"
    token = taken.json()["token"]
    own = api.get(f"/api/games/{game.pk}/view/", HTTP_AUTHORIZATION=f"Seat {token}")
    assert own.status_code == 200 and own["Cache-Control"] == "no-store"
    browser = Client()
    assert exchange(browser, token).status_code == 302
    session_view = browser.get(f"/api/games/{game.pk}/view/")
    assert session_view.json()["seat"] == 0 and session_view["Cache-Control"] == "no-store"
    staff_view = staff_api.get(f"/api/games/{game.pk}/view/?seat=1")
    assert staff_view.status_code == 200 and staff_view["Cache-Control"] == "no-store"
    reissued = staff_api.post(f"/api/games/{game.pk}/seats/0/credential/")
    assert reissued.status_code == 201 and reissued["Cache-Control"] == "no-store"
    page = staff_client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    # what anyone may read stays cacheable
    assert "no-store" not in api.get(f"/api/games/{game.pk}/view/").get("Cache-Control", "")


def test_the_seat_links_that_were_gets_are_gone(new_game):
    game = new_game(players=2)
    token = services.seat_take(game=game, index=0)
    client = Client()
    assert client.get(f"/games/play/{token}/").status_code == 404
    landing = client.get(f"/games/play/?token={token}")
    assert landing.status_code == 200  # the landing page, with the seat not exchanged
    assert client.get(f"/games/{game.pk}/play/").status_code == 403
    assert exchange(client, token).status_code == 302  # the fragment link's POST still works
    assert client.get(f"/games/{game.pk}/play/").status_code == 200


def test_an_empty_seat_parameter_is_a_400(staff_api, new_game):
    # found by schemathesis (300 cases a caller): the schema says a number
    game = new_game(players=2)
    answer = staff_api.get(f"/api/games/{game.pk}/view/?seat=")
    assert answer.status_code == 400 and answer.json()["error"] == "bad-seat"
