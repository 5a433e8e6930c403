"""A person at the game pages: a finished game's replay stepped through, and
a move played from a seat page, in Debian's chromium driven by Playwright."""

from __future__ import annotations

import os

import pytest

from engine.rummikub.ai.random_player import RandomPlayer
from games import services
from games.models import Game

# screenshots of the pages go to docs/screens/ (the README shows them), or to
# TABLEKEEPER_SCREENSHOTS; set it empty to save none
SHOTS = os.environ.get("TABLEKEEPER_SCREENSHOTS",
                       os.path.join(os.path.dirname(__file__), "..", "..", "docs", "screens"))

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def finished_game():
    game = services.game_create(variant="sabra", players=3, seats=["Ada", "Boris", "Chen"], title="Replay night")
    player = RandomPlayer(5)
    while True:
        game.refresh_from_db()
        if game.is_over:
            return game
        state = services.load_state(game)
        services.game_record_move(game=game, move=str(player.choose(state)), expected_version=game.version,
                                  seat=state.to_move)


def test_step_the_replay_of_a_finished_game(live_server, browser):
    game = finished_game()
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#at").inner_text() == str(game.version)
    assert page.locator(".seats tr.seat").count() == 3
    shot(page, "game-finished")

    page.click("#first")
    assert page.locator("#at").inner_text() == "1"
    assert page.locator(".melds .meld").count() == 0  # nothing on the table before the first move
    page.click("#next")
    assert page.locator("#at").inner_text() == "2"
    assert page.locator("#event-move").inner_text()  # the move text of event 2
    page.keyboard.press("ArrowRight")  # the arrow keys step too
    page.wait_for_url(f"**/games/{game.pk}/?at=3")
    assert page.locator("#at").inner_text() == "3"
    page.click("#prev")
    assert page.locator("#at").inner_text() == "2"
    page.click("#last")
    assert page.locator("#at").inner_text() == str(game.version)
    # a finished game shows each rack as tiles
    assert page.locator(".seats tr.seat .chip").count() == sum(len(r) for r in game.state["racks"])


def test_play_a_draw_from_a_seat_page(live_server, browser):
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Live table")
    token = services.seat_take(game=game, index=game.to_move)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    sent = []  # every request the browser sends: what an access log or a Referer could hold
    page.on("request", lambda r: sent.append(f"{r.method} {r.url} referer={r.headers.get('referer', '')}"))
    page.goto(f"{live_server.url}/games/play/#{token}")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/play/")  # the fragment was exchanged
    assert page.locator("#version").inner_text() == "1"
    assert page.locator(".tk-rack button.tk-tile").count() == 14  # own rack drawn as tiles
    assert "Ben: 14 tiles" in page.locator(".tk-seats").inner_text()  # the other rack is a count
    assert page.locator("#move").is_hidden()  # nothing to type
    shot(page, "seat-page")
    page.click(".tk-draw")
    page.wait_for_function("document.getElementById('version')?.innerText === '2'")
    page.wait_for_selector(".tk-rack button.tk-tile >> nth=14")
    assert page.locator(".tk-rack button.tk-tile").count() == 15
    shot(page, "seat-page-after-draw")
    assert any(line.startswith(f"POST {live_server.url}/games/play/ ") for line in sent)  # the exchange
    assert any(line.startswith(f"POST {live_server.url}/api/games/{game.pk}/moves/ ") for line in sent)
    assert not [line for line in sent if token in line]  # the credential is in no address and no Referer
    game = Game.objects.get(pk=game.pk)
    assert game.version == 2
    # the other player moves; the page sees it through the seat-view API and reloads
    services.game_record_move(game=game.pk, move="draw", expected_version=2, seat=game.to_move)
    page.wait_for_function("document.getElementById('version')?.innerText === '3'", timeout=15000)
    assert "Your move." in page.locator("#turn-note").inner_text()
    assert page.locator("ul.recent li").count() == 2


def test_two_seats_see_each_others_moves_without_reloading(asgi_live_server, browser):
    """Two browsers hold the two seats of a game served by the ASGI server:
    a move made in one shows in the other over its socket, with no reload
    by the person and no polling (the socket is open)."""
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Live pair")
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    mover = game.to_move
    pages = []
    for index in range(2):
        context = browser.new_context(viewport={"width": 1100, "height": 850})
        page = context.new_page()
        page.goto(f"{asgi_live_server}/games/play/#{tokens[index]}")
        page.wait_for_url(f"{asgi_live_server}/games/{game.pk}/play/")
        page.wait_for_selector('#live[data-state="open"]', timeout=10000)
        pages.append(page)
    watcher = browser.new_context().new_page()
    watcher.goto(f"{asgi_live_server}/games/{game.pk}/")
    watcher.wait_for_selector('#live[data-state="open"]', timeout=10000)
    assert "Waiting for" in pages[1 - mover].locator("#turn-note").inner_text()
    pages[mover].click(".tk-draw")
    pages[mover].wait_for_function("document.getElementById('version')?.innerText === '2'")
    other = pages[1 - mover]
    other.wait_for_function("document.getElementById('version')?.innerText === '2'", timeout=5000)
    assert "Your move." in other.locator("#turn-note").inner_text()
    assert other.locator(".tk-rack button.tk-tile").count() == 14
    assert other.locator(".tk-draw").is_enabled()  # now it is the other's turn
    watcher.wait_for_function("document.getElementById('at').innerText === '2'", timeout=5000)  # the replay page too
    shot(other, "seat-page-live")
