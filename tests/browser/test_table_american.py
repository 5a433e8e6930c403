"""An American Rummikub game played to a win at the browser table by two
browser contexts, by clicks and drags only, on a typed-in deal: drawing,
the initial meld laid by dragging rack tiles to new melds (an invalid meld
marked first), a discard dropped on one's pile, the other player drawing
and discarding by a tap and the Discard button, an addition to a meld on
the table, and going out with the last discard. Then
International's first screen: the starter's 15 tiles, the trump shown and
"Closed hand" offered."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.american.deal import TILES
from engine.tiles import format_tile, parse_tile
from games import services

from .table import drag_into, tile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WINNER = "R1 R2 R3 R4 K7 R7 B7 O9 O10 O11 B4 B5 B6 K13"
OTHER = "K1 K2 B9 B12 R5 R9 O4 O6 K8 B2 R11 O13 K11 B6"


def typed_deal(pool_top: str, international: bool = False, hands=(WINNER, OTHER), trump="B13"):
    rest = Counter(TILES)
    held = [h.split() for h in hands]
    for t in [x for h in held for x in h] + pool_top.split() + ([] if international else [trump]):
        rest[parse_tile(t)] -= 1
    pool = pool_top.split() + [format_tile(t) for t in sorted(rest.elements())]
    deal = {"hands": held, "pool": pool}
    if not international:
        deal["trump"] = trump
    return deal


def test_two_browsers_play_an_american_game_to_a_win(seat_pages, screenshot):
    game = services.game_create(variant="american", players=2, seats=["Ada", "Ben"], title="Lemada",
                                deal=typed_deal("O2 O13 R5"))
    ada, ben = (seat_pages.open(game, services.seat_take(game=game, index=i),
                                viewport={"width": 1100, "height": 900}) for i in range(2))
    assert ada.locator("#move").is_hidden() and "Trump: B13" in ada.inner_text(".tk-seats")
    assert ada.locator(".tk-rack button.tk-tile").count() == 14
    assert ben.locator('.tk-rack [data-code="R4"]').count() == 0         # not Ben's tile
    ada.click(".tk-draw")
    seat_pages.wait(ada, "2")
    seat_pages.wait(ben, "2")
    # the initial meld by drags: a wrong meld is marked first
    tile(ada, "K13").drag_to(ada.locator(".tk-new-meld"))
    tile(ada, "O2").drag_to(ada.locator('.tk-meld[data-meld="0"]'))
    ada.wait_for_selector(".tk-meld.invalid", timeout=5000)
    ada.click(".tk-reset")
    for at, meld in enumerate((["R1", "R2", "R3", "R4"], ["K7", "R7", "B7"], ["O9", "O10", "O11"])):
        drag_into(ada, meld[0], ".tk-new-meld", at)
        for code in meld[1:]:
            drag_into(ada, code, f'.tk-meld[data-meld="{at}"]', at)
    # the fourth by taps: a rack tile picked, then a tile of the new meld: it goes beside it
    drag_into(ada, "B4", ".tk-new-meld", 3)
    for code in ("B5", "B6"):
        tile(ada, code).click()
        ada.locator('.tk-meld[data-meld="3"] button.tk-tile[data-code="B4"]').click()
        ada.wait_for_selector(f'.tk-meld[data-meld="3"] [data-code="{code}"]', timeout=10000)
    assert ada.locator(".tk-rack [data-code='B5'], .tk-rack [data-code='B6']").count() == 0
    ada.wait_for_function("document.querySelector('#table-app').dataset.checking === '0'", timeout=15000)
    ada.wait_for_selector(".tk-lay:not([disabled])", timeout=15000)
    assert "Laid: 76 points" in ada.inner_text(".tk-laid")
    screenshot(ada, "american-table")
    ada.click(".tk-lay")
    seat_pages.wait(ada, "3")
    tile(ada, "K13").drag_to(ada.locator(".tk-own-pile"))               # discard by a drop on one's pile
    seat_pages.wait(ben, "4")
    assert ben.locator('.tk-other-pile [class*="chip"]').first.inner_text() == "13"
    ben.click(".tk-draw")                                              # Ben: O13, then discards it
    seat_pages.wait(ben, "5")
    tile(ben, "O13").click()
    ben.click(".tk-discard")
    seat_pages.wait(ada, "6")
    ada.click(".tk-draw")                                              # R5: an addition to R1-R4
    seat_pages.wait(ada, "7")
    tile(ada, "R5").drag_to(ada.locator('.tk-meld[data-meld="0"]'))
    ada.wait_for_selector(".tk-lay:not([disabled])", timeout=10000)
    ada.click(".tk-lay")
    seat_pages.wait(ada, "8")
    tile(ada, "O2").click()
    ada.click(".tk-discard")                                           # the last tile: out
    ben.wait_for_function("Number(document.getElementById('version')?.innerText) >= 9", timeout=15000)
    game.refresh_from_db()
    assert game.status == "finished" and game.scores[0] > 0 and sum(game.scores) == 0
    assert "Ada" in ben.inner_text("body")


def test_international_shows_the_trump_and_offers_a_closed_hand(seat_pages):
    pairs = "K1 K1 K2 K2 B8 B8 O5 O5 K5 K5 R6 R6 B12 B12 O9"
    game = services.game_create(variant="international-rummikub", players=2, seats=["Ayla", "Bo"],
                                deal=typed_deal("", international=True, hands=(pairs, "R3 R9 B9 O4 O6 K8 B2 R11 O13 K11 B6 R12 O12 K3")))
    ayla = seat_pages.open(game, services.seat_take(game=game, index=0), viewport={"width": 1000, "height": 800})
    assert ayla.locator(".tk-rack button.tk-tile").count() == 15
    assert "Trump:" in ayla.inner_text(".tk-seats") and "tops the last stack" in ayla.inner_text(".tk-seats")
    assert ayla.locator(".tk-closed").is_visible() and ayla.locator(".tk-draw").is_disabled()
    tile(ayla, "O9").click()
    ayla.click(".tk-closed")                                           # seven pairs shown, O9 discarded
    ayla.wait_for_function("Number(document.getElementById('version')?.innerText) >= 2", timeout=15000)
    game.refresh_from_db()
    assert game.status == "finished" and game.scores == [1700, -1700]
