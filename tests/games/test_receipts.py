"""Signed head receipts (issue 27, item 2a): every accepted move's answer,
the seat's view, the seat page and every socket frame carry one; anyone
holding one may ask whether it is in the stream; a receipt not signed here
is refused."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import eventstore as es
from games import receipts, services
from games.models import Event


def head_of(game):
    row = Event.objects.filter(game=game).order_by("-version").first()
    return row.version, row.hash


def assert_receipt_of(receipt, game):
    version, digest = head_of(game)
    assert receipt == receipts.receipt(game.pk, version, digest)
    assert receipts.parse(receipt) == (game.pk, version, digest)


@pytest.fixture
def seated(db):
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])
    token = services.seat_take(game=game, index=game.to_move)
    game.refresh_from_db()
    return game, token


@pytest.mark.django_db
def test_a_move_answer_and_the_seat_view_carry_the_head_receipt(seated, api):
    game, token = seated
    api.credentials(HTTP_AUTHORIZATION=f"Seat {token}")
    answer = api.post(f"/api/games/{game.pk}/moves/", {"move": "draw", "expected_version": game.version},
                      format="json")
    assert answer.status_code == 201
    game.refresh_from_db()
    assert answer.json()["receipt"]["version"] == game.version
    assert_receipt_of(answer.json()["receipt"], game)
    view = api.get(f"/api/games/{game.pk}/view/").json()
    assert_receipt_of(view["receipt"], game)
    check = Client().post(f"/api/games/{game.pk}/verify-receipt/", view["receipt"], content_type="application/json")
    assert check.status_code == 200
    assert check.json() == {"game": game.pk, "version": game.version, "ok": True, "stream_version": game.version,
                            "first_bad_version": None, "problem": ""}


@pytest.mark.django_db
def test_the_seat_page_carries_the_receipt_for_the_browser_to_keep(seated):
    game, token = seated
    client = Client()
    assert client.post("/games/play/", {"token": token}).status_code == 302
    page = client.get(f"/games/{game.pk}/play/").content.decode()
    start = page.index('<script id="head-receipt" type="application/json">') + len(
        '<script id="head-receipt" type="application/json">')
    assert_receipt_of(json.loads(page[start:page.index("</script>", start)]), game)
    assert "tablekeeperReceipts.keep(" in page


@pytest.mark.django_db(transaction=True)
def test_every_socket_frame_carries_the_receipt():
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"])

    async def run():
        comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/watch/",
                                     headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=5)
        from channels.db import database_sync_to_async
        await database_sync_to_async(services.game_record_move)(game=game.pk, move="draw", expected_version=1)
        second = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return first, second

    first, second = async_to_sync(run)()
    assert first["receipt"]["version"] == 1 and second["receipt"]["version"] == 2
    assert_receipt_of(second["receipt"], game)
    assert receipts.parse(first["receipt"])[1:] == (1, Event.objects.get(game=game, version=1).hash)


@pytest.mark.django_db
@pytest.mark.parametrize("change, says", [
    (lambda r: {**r, "hmac": "0" * 64}, "hmac does not hold"),
    (lambda r: {**r, "version": r["version"] + 5}, "hmac does not hold"),
    (lambda r: {k: v for k, v in r.items() if k != "hash"}, "has no hash"),
    (lambda r: {**r, "version": "3"}, "version must be a whole number"),
    (lambda r: {**r, "hash": "XYZ"}, "64 lower-case hex digits"),
])
def test_a_receipt_not_issued_here_is_refused(seated, change, says):
    game, _ = seated
    receipt = receipts.receipt_at(game.pk, game.version)
    answer = Client().post(f"/api/games/{game.pk}/verify-receipt/", json.dumps(change(receipt)),
                           content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "bad-receipt"
    assert says in answer.json()["detail"]


@pytest.mark.django_db
def test_a_receipt_of_another_game_or_signed_as_an_anchor_is_refused(seated, settings):
    game, _ = seated
    other = services.game_create(variant="sabra", players=2)
    receipt = receipts.receipt_at(other.pk, 1)
    answer = Client().post(f"/api/games/{game.pk}/verify-receipt/", receipt, content_type="application/json")
    assert answer.status_code == 400 and f"of game {other.pk}, not game {game.pk}" in answer.json()["detail"]
    # domain separation: an event's anchor (HMAC of its hash) is never a receipt's hmac
    row = Event.objects.get(game=game, version=1)
    forged = {"game": game.pk, "version": 1, "hash": row.hash, "hmac": row.anchor}
    with pytest.raises(receipts.BadReceipt):
        receipts.parse(forged)
    assert es.subkey("head-receipt") != es.subkey("checkpoint")
    with pytest.raises(receipts.BadReceipt, match="a receipt is an object"):
        receipts.parse([receipt])


@pytest.mark.django_db
def test_receipt_checks_are_limited(seated, settings):
    settings.API_RATE_LIMITS = {**settings.API_RATE_LIMITS, "receipt": "2/min"}
    game, _ = seated
    receipt = receipts.receipt_at(game.pk, game.version)
    client = Client()
    codes = [client.post(f"/api/games/{game.pk}/verify-receipt/", receipt, content_type="application/json").status_code
             for _ in range(3)]
    assert codes == [200, 200, 429]
