"""Issue 30's Sabra bug, "a group R13 B13 O13 built by drags showed 'Some
melds are not valid yet', and after Reset turn, Draw stayed disabled": the
engine's checks of the layout are answered out of order when the server is
slow (the two-tile layout's answer after the three-tile one's). Each check
here is slowed in the page by the number of tiles it holds, the last one
fastest, as a loaded server may answer them."""

from __future__ import annotations

import pytest

from engine.registry import find_variant
from games import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANN = "R13 B13 O13 K1".split()
BEN = "O10 O11 O12 O9".split()

# the compose checks answered late, a layout of fewer tiles later still
SLOW_CHECKS = """
(() => {
  const original = window.fetch;
  window.tkChecks = [];
  window.fetch = function (url, options) {
    const answer = original.apply(this, arguments);
    if (!String(url).includes("/compose/")) return answer;
    const tiles = JSON.parse(options.body).melds.flat().length;
    window.tkChecks.push(tiles);
    return answer.then(r => new Promise(ok => setTimeout(() => ok(r), Math.max(0, 900 - 300 * tiles))));
  };
})();
"""


def dealt_game():
    variant = find_variant("sabra")
    everything = [t for r in variant.new(2, seed="table").snapshot()["racks"] for t in r]
    everything += variant.new(2, seed="table").snapshot()["pool"]
    for t in ANN + BEN:
        everything.remove(t)
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Group of 13s",
                                rules={"rack_size": 4}, deal={"racks": [ANN, BEN], "pool": everything})
    return game, services.seat_take(game=game, index=0)


def tile(page, code, where=".tk-rack"):
    return page.locator(f'{where} button.tk-tile[data-code="{code}"]').first


def test_a_group_built_by_quick_drags_is_ready_and_reset_gives_draw_back(asgi_live_server, browser):
    game, token = dealt_game()
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    context.add_init_script(SLOW_CHECKS)
    page = context.new_page()
    page.goto(f"{asgi_live_server}/games/play/#{token}")
    page.wait_for_url(f"{asgi_live_server}/games/{game.pk}/play/")
    page.wait_for_selector("#table-app .tk-bar", timeout=10000)
    tile(page, "R13").drag_to(page.locator(".tk-new-meld"))
    page.wait_for_timeout(200)  # the one-tile layout's check is on its way
    tile(page, "B13").drag_to(page.locator('.tk-meld[data-meld="0"]'))
    page.wait_for_timeout(200)
    tile(page, "O13").drag_to(page.locator('.tk-meld[data-meld="0"]'))
    page.wait_for_timeout(1500)  # every answer is in, the last one first
    assert sorted(page.evaluate("window.tkChecks")) == [1, 2, 3]
    assert page.locator(".tk-meld").count() == 1 and page.locator(".tk-meld.invalid").count() == 0
    assert "Some melds are not valid yet" not in page.locator(".tk-say").inner_text()
    assert page.locator(".tk-end").is_enabled() and "39" in page.locator(".tk-laid").inner_text()
    assert page.get_attribute("#table-app", "data-checking") == "0"

    # laid again, then put back while the answers are still on their way
    page.click(".tk-reset")
    tile(page, "R13").drag_to(page.locator(".tk-new-meld"))
    tile(page, "B13").drag_to(page.locator('.tk-meld[data-meld="0"]'))
    page.click(".tk-reset")
    assert page.locator(".tk-draw").is_enabled()
    page.wait_for_timeout(1200)  # the late answers of the layout put back change nothing
    assert page.locator(".tk-draw").is_enabled() and page.locator(".tk-end").is_disabled()
    assert page.locator(".tk-meld").count() == 0 and page.locator(".tk-rack button.tk-tile").count() == 4
    assert "Some melds are not valid yet" not in page.locator(".tk-say").inner_text()
    page.click(".tk-draw")
    page.wait_for_function("document.getElementById('version').innerText === '2'", timeout=10000)
