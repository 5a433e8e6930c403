"""An Okey game played to a win at the browser table by four browser
contexts, by clicks and drags only (seed 003's room), on daphne with live
sockets: a typed-in deal that ends in a few turns. The starter's refused
finish, a discard by drag, taking the left discard by a click, drawing from
the middle, the Compare Stone, the rack arranged with gaps and kept across
redraws, and the win by dropping the 15th tile on the middle, which ends
the match (start points 2)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.okey import TILES
from engine.okey.game import _code
from engine.okey.hand import tile_text
from games import services
from games.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ayşe", "Burak", "Cem", "Deniz"]
# Ayşe starts with 15: a winning hand but for B13, and K9, K11 to throw.
AYSE = "R1 R2 R3 K5 R5 B5 O7 O8 O9 B10 B11 B12 O5 K9 K11".split()
DENIZ = ["O3"]                      # the indicator's twin: the Compare Stone
INDICATOR = "O3"                    # the okey is O4
MIDDLE_TOP = "O1 K2 B13".split()    # Cem draws O1, Deniz K2, Ayşe B13


def typed_deal():
    left = Counter(TILES)
    for t in AYSE + DENIZ + [INDICATOR] + MIDDLE_TOP:
        left[_code(t)] -= 1
    okey = _code("O4")
    # the others' tiles: high numbers first, no okey, nothing near Ayşe's wait
    spare = [tile_text(t) for t in sorted(left.elements(), key=lambda c: (c in (okey, 52), -(c % 13), c))]
    hands = [AYSE, spare[0:14], spare[14:28], DENIZ + spare[28:41]]
    return {"hands": hands, "indicator": INDICATOR, "middle": MIDDLE_TOP + spare[41:]}


def open_seat(browser, base, game, token, **context):
    page = browser.new_context(**context).new_page()
    page.goto(f"{base}/games/play/#{token}")
    page.wait_for_url(f"{base}/games/{game.pk}/play/")
    page.wait_for_selector('#live[data-state="open"]', timeout=10000)
    page.wait_for_selector("#table-app .tk-bar", timeout=5000)
    return page


def tile(page, code):
    return page.locator(f'.tk-okey-rack button.tk-tile[data-code="{code}"]').first


def wait_version(page, version):
    page.wait_for_function(f"document.getElementById('version')?.innerText === '{version}'", timeout=8000)


def moves(game):
    return [e.payload.get("move") for e in Event.objects.filter(game=game, type="MoveRecorded").order_by("version")]


def test_four_browsers_play_an_okey_game_to_a_win(asgi_live_server, browser, screenshot):
    game = services.game_create(variant="okey", players=4, seats=NAMES, title="Okey night",
                                rules={"start_points": 2}, deal=typed_deal())
    tokens = [services.seat_take(game=game, index=i) for i in range(4)]
    size = {"viewport": {"width": 1100, "height": 900}}
    pages = [open_seat(browser, asgi_live_server, game, tokens[i], **size) for i in range(4)]
    ayse, burak, cem, deniz = pages

    def everyone(version):
        for p in pages:
            wait_version(p, version)
            p.wait_for_selector("#table-app .tk-bar", timeout=5000)

    assert ayse.locator("#move").is_hidden()                       # nothing to type
    assert ayse.locator(".tk-okey-rack button.tk-tile").count() == 15
    assert burak.locator(".tk-okey-rack button.tk-tile").count() == 14
    # a seat sees its own tiles only, and the indicator and okey
    assert burak.locator('.tk-okey-rack [data-code="K11"]').count() == 0
    assert "okey O4" in ayse.locator(".tk-indicator").inner_text()
    assert "15 tiles" in burak.locator('.tk-seat[data-seat="0"]').inner_text()

    # Ayşe arranges her rack: K9 to the second tier's last slot (a gap
    # before it), then one slot left by the arrow key; it stays on redraw
    tile(ayse, "K9").drag_to(ayse.locator('.tk-slot[data-slot="29"]'))
    assert ayse.locator('.tk-slot[data-slot="29"] button').get_attribute("data-code") == "K9"
    ayse.locator('.tk-slot[data-slot="29"] button').press("ArrowLeft")
    assert ayse.locator('.tk-slot[data-slot="28"] button').get_attribute("data-code") == "K9"
    ayse.reload()
    ayse.wait_for_selector("#table-app .tk-bar")
    assert ayse.locator('.tk-slot[data-slot="28"] button').get_attribute("data-code") == "K9"

    # A finish with a hand that does not win is refused, and nothing is stored
    tile(ayse, "K9").drag_to(ayse.locator(".tk-middle"))
    ayse.wait_for_selector(".tk-say.error")
    assert "not a winning hand" in ayse.locator(".tk-say").inner_text()
    assert moves(game) == []

    # Ayşe discards K9 by dragging it onto her pile
    tile(ayse, "K9").drag_to(ayse.locator(".tk-discard.mine"))
    everyone("2")
    assert burak.locator('.tk-discard.left [data-code="K9"]').count() == 1
    assert burak.get_attribute("#table-app", "data-bell") == "1"     # his turn came round

    # Burak takes it by clicking the pile on his left, then throws it back
    # by selecting it and clicking his own pile
    burak.click(".tk-discard.left")
    everyone("3")
    assert tile(burak, "K9").count() == 1
    tile(burak, "K9").click()
    burak.click(".tk-discard.mine")
    everyone("4")

    # Cem draws from the middle by a click and discards O1 by drag
    cem.click(".tk-middle")
    everyone("5")
    assert tile(cem, "O1").count() == 1
    tile(cem, "O1").drag_to(cem.locator(".tk-discard.mine"))
    everyone("6")

    # Deniz shows the Compare Stone before drawing: each other loses 1
    deniz.click(".tk-show")
    everyone("7")
    assert "1 points" in ayse.locator('.tk-seat[data-seat="0"]').inner_text()
    assert "2 points" in ayse.locator('.tk-seat[data-seat="3"]').inner_text()
    assert deniz.locator(".tk-show").is_hidden()
    deniz.click(".tk-middle")
    everyone("8")
    tile(deniz, "K2").drag_to(deniz.locator(".tk-discard.mine"))
    everyone("9")
    # every discard pile is on every page
    for p in pages:
        assert p.locator('.tk-discard[data-seat="3"] [data-code="K2"]').count() == 1
        assert p.locator('.tk-discard[data-seat="2"] [data-code="O1"]').count() == 1
    screenshot(ayse, "okey-table")

    # Ayşe draws B13 and finishes: K11 dropped on the middle
    ayse.click(".tk-middle")
    everyone("10")
    assert tile(ayse, "B13").count() == 1
    tile(ayse, "K11").drag_to(ayse.locator(".tk-middle"))
    for p in pages:       # the finish, and the match's end recorded after it
        p.wait_for_selector("text=The game is over", timeout=8000)
    game.refresh_from_db()
    assert game.is_over
    assert moves(game) == ["discard K9", "take", "discard K9", "draw", "discard O1", "show", "draw",
                           "discard K2", "draw", "finish K11"]
    # The match is over: Ayşe keeps 1, Burak and Cem -1, Deniz 0
    assert [int(s) for s in game.scores] == [1, -1, -1, 0]
    assert "Ayşe" in ayse.locator(".board .facts").inner_text()
    screenshot(ayse, "okey-won")
