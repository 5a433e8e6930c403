"""The player's browser keeps the newest head receipt of its game (issue 27,
item 2a): from the seat page, from its own move's answer and from the
socket's frames, in localStorage; and the kept receipt later names the
events the club's stream lost."""

from __future__ import annotations

import json

import pytest

from games import services
from games.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def kept(page, game_id):
    return page.evaluate(f"JSON.parse(localStorage.getItem('tablekeeper.receipt.{game_id}'))")


def test_the_seat_page_keeps_the_newest_receipt_and_it_names_a_cut_tail(asgi_live_server, browser):  # noqa: F811
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Receipts")
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    mover = game.to_move
    pages = []
    for index in range(2):
        page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
        page.goto(f"{asgi_live_server}/games/play/#{tokens[index]}")
        page.wait_for_url(f"{asgi_live_server}/games/{game.pk}/play/")
        page.wait_for_selector('#live[data-state="open"]', timeout=10000)
        pages.append(page)
    assert kept(pages[0], game.pk)["version"] == 1  # from the page itself
    pages[mover].click(".tk-draw")  # its answer, then its page, carry version 2
    pages[mover].wait_for_function("document.getElementById('version')?.innerText === '2'")
    other = pages[1 - mover]
    other.wait_for_function("document.getElementById('version')?.innerText === '2'", timeout=5000)
    other.wait_for_function(f"JSON.parse(localStorage.getItem('tablekeeper.receipt.{game.pk}')).version === 2",
                            timeout=5000)
    head = Event.objects.get(game=game, version=2)
    for page in pages:
        receipt = kept(page, game.pk)
        assert receipt["version"] == 2 and receipt["hash"] == head.hash
    # the club's stream loses its last event (and the row is set back): the
    # receipt the browser kept names it
    from tests.games.test_truncation import roll_back

    roll_back(game, 1)
    answer = other.evaluate(f"""fetch('/api/games/{game.pk}/verify-receipt/', {{method: 'POST',
        headers: {{'Content-Type': 'application/json',
                   'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''}},
        body: localStorage.getItem('tablekeeper.receipt.{game.pk}')}}).then(r => r.json())""")
    assert answer["ok"] is False and answer["first_bad_version"] == 2, json.dumps(answer)
    assert "event 2 is missing: the stream ends at 1" in answer["problem"]
