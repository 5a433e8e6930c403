"""The table's second pass: moves in words from each family's description,
variant names for people, the site's icon, and a push that meets a page
that went away."""

from __future__ import annotations

import asyncio

import pytest

from engine.registry import family_for
from games import services
from games.words import sentence


@pytest.mark.parametrize("family,move,key,pieces", [
    ("rummikub", "play R8 B8 O8 -> [R8 B8 O8]", "laid", ["R8", "B8", "O8"]),
    ("rummikub", "play : [R1 R2 R3] [R4 R5 R6] -> [R1 R2 R3 R4 R5 R6]", "moved", []),
    ("rummikub", "draw R9", "drew", []),            # a typed-in draw's tile is never said
    ("contract", "1 discard 7C", "discarded", ["7C"]),
    ("contract", "0 buy", "buy", []),
    ("okey", "finish R5", "finished", ["R5"]),
    ("american", "lay [R1 R2 R3] add 2 R4", "laid", ["R1", "R2", "R3", "R4"]),
    ("american", "take", "took_pile", []),
])
def test_each_family_describes_its_moves(family, move, key, pieces):
    said = family_for(family).describe_move(move)
    assert said["key"] == key and said["key"] in family_for(family).MOVE_WORDS
    assert [c["code"] for c in said["pieces"]] == pieces


def test_a_contract_going_down_is_said_with_its_cards_drawn():
    said = family_for("contract").describe_move("1 down AC AC AC AH / 4D 4H JK")
    html = sentence(said, "Ann")
    assert html.startswith('<span class="who">Ann</span> went down: ')
    assert [[c["label"] for c in m] for m in said["melds"]] == [["A\u2663"] * 3 + ["A\u2665"], ["4\u2666", "4\u2665", "\u2605"]]
    assert "1 down" not in html


def test_a_name_in_a_sentence_is_escaped():
    html = sentence(family_for("okey").describe_move("draw"), "<b>Bo</b>")
    assert "&lt;b&gt;Bo&lt;/b&gt;</span> drew" in html and "<b>Bo" not in html


def test_a_sentence_is_said_in_the_readers_language():
    from django.utils import translation

    with translation.override("nl"):
        html = sentence(family_for("rummikub").describe_move("play R8 B8 O8 -> [R8 B8 O8]"), "Ben")
    assert "legde" in html


@pytest.mark.django_db
def test_pages_name_variants_for_people(client):
    game = services.game_create(variant="international-rummikub", players=2, seats=["Ann", "Ben"], title="Trial")
    assert game.variant_title == "International Rummikub"
    html = client.get("/games/").content.decode()
    assert "International Rummikub" in html and "international-rummikub" not in html.split("<h2>")[-1]
    form = client.get("/games/new/?variant=sabra").content.decode()
    assert "Contract rummy" in form and "contract · international" not in form
    assert "When the pool runs out, the game ends" in form and "pool empty end" not in form


@pytest.mark.django_db
def test_the_favicon_is_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("site/favicon.svg")


def test_a_frame_for_a_page_that_went_away_is_dropped_quietly():
    from games.consumers import WatchConsumer

    class Disconnected(RuntimeError):
        pass

    socket = WatchConsumer()
    socket.game_id = 1

    async def gone(text_data=None, bytes_data=None, close=False):
        raise Disconnected("Attempt to send on a closed protocol")

    socket.send = gone  # every frame, encoded here or primed, goes out through send()
    assert asyncio.run(socket._send({"type": "view"})) is False
    assert asyncio.run(socket._send_text('{"type": "view"}')) is False

    async def broken(text_data=None, bytes_data=None, close=False):
        raise RuntimeError("something else")

    socket.send = broken
    with pytest.raises(RuntimeError, match="something else"):
        asyncio.run(socket._send({"type": "view"}))
