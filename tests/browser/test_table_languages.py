"""The browser tables in the reader's language: the table's script takes its
texts from Django's JavaScript catalogue (/jsi18n/), chosen by the
browser's language like the pages around it. A contract rummy seat in Dutch
and a Rummikub seat in Turkish, drawn and played by a click."""

from __future__ import annotations

import pytest

from games import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_contract_table_in_dutch_and_a_rummikub_table_in_turkish(seat_pages, screenshot):
    game = services.game_create(variant="international", players=2, seats=["Ann", "Ben"], title="Taal")
    ann = seat_pages.open(game, services.seat_take(game=game, index=0), locale="nl-NL",
                          viewport={"width": 1000, "height": 850})
    assert ann.inner_text(".tk-sort-suit") == "Sorteer op kleur"
    assert ann.inner_text(".tk-sort-rank") == "Sorteer op waarde"
    assert "Jouw hand" in ann.inner_text("#table-app") and "Ann (jij)" in ann.inner_text(".tk-seats")
    assert "Hand 1 van 7: twee groepen" in ann.inner_text(".tk-contract")   # the contract from the catalogue
    assert ann.inner_text(".tk-say") == "Jij bent aan de beurt: klik op de stapel om te trekken, of op de aflegstapel om te pakken."
    assert "stapel, " in ann.locator(".tk-stock").get_attribute("aria-label")
    ann.click(".tk-stock")                                         # draw, by a click
    seat_pages.wait(ann, "2")
    assert ann.inner_text(".tk-say") == "Kom uit als je kunt en leg dan af."
    assert "Je zet is vastgelegd" not in ann.content()            # the table redraws itself
    screenshot(ann, "contract-table-nl")

    sabra = services.game_create(variant="sabra", players=2, seats=["Ayşe", "Can"], title="Dil")
    ayse = seat_pages.open(sabra, services.seat_take(game=sabra, index=0), locale="tr-TR",
                           viewport={"width": 1000, "height": 850})
    assert ayse.inner_text(".tk-end") == "Sırayı bitir" and ayse.inner_text(".tk-draw") == "Çek"
    assert "Istakanız" in ayse.inner_text("#table-app")
    ayse.click(".tk-draw")
    seat_pages.wait(ayse, "2")
    assert ayse.inner_text(".tk-say") == "Diğerleri bekleniyor."
    # the server-drawn parts of the page in the same language
    assert "Hamle gösterimi" in ayse.content()


def test_the_games_pages_in_dutch_on_a_phone_by_clicks(asgi_live_server, browser, screenshot):
    """On a 360 px phone set to Dutch: the games list, a game found by its
    name, its replay page, a seat taken there, and the seat's table, all by
    clicks and in Dutch."""
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Vrijdagavond",
                                actor="lobby")      # as the start screen makes it: listed as open
    page = browser.new_context(locale="nl-NL", viewport={"width": 360, "height": 780},
                               is_mobile=True, has_touch=True).new_page()
    page.goto(f"{asgi_live_server}/games/")
    assert page.inner_text("h1") == "Spellen" and "Open spellen" in page.inner_text("main")
    page.fill('input[name="name"]', "Vrijdag")
    with page.expect_navigation():
        page.click('form.find button[type="submit"]')
    assert page.locator(f'#open-games tr[data-game="{game.pk}"]').count() == 1
    screenshot(page, "games-list-nl-phone")
    with page.expect_navigation():
        page.click(f'#open-games tr[data-game="{game.pk}"] a')
    assert page.get_attribute("nav.replay", "aria-label") == "terugspelen"
    assert "Tafel" in page.inner_text("main") and "Neem plaats 0" in page.inner_text("main")
    assert "bezig" in page.inner_text("main")                  # the game's status, translated
    screenshot(page, "replay-nl-phone")
    with page.expect_navigation():
        page.click('button:has-text("Neem plaats 0")')
    page.wait_for_selector("#table-app .tk-bar", timeout=10000)
    assert page.inner_text(".tk-end") == "Beurt beëindigen" and "Jouw rek" in page.inner_text("#table-app")
    assert "Ann (jij)" in page.inner_text(".tk-seats")
    screenshot(page, "seat-page-nl-phone")


def test_a_join_that_comes_too_late_says_so_in_dutch_on_a_phone(asgi_live_server, browser, screenshot):
    """Two players go for the last open seat from the games list: the one
    who clicks second gets the message page (409) in Dutch, and its link
    leads back to the game."""
    game = services.game_create(variant="sabra", players=2, seats=["Ann", "Ben"], title="Laatste plaats",
                                actor="lobby")
    services.seat_take(game=game, index=0, name="Ann")
    late = browser.new_context(locale="nl-NL", viewport={"width": 360, "height": 780},
                               is_mobile=True, has_touch=True).new_page()
    late.goto(f"{asgi_live_server}/games/")
    row = late.locator(f'#open-games tr[data-game="{game.pk}"]')
    row.locator('input[name="name"]').fill("Cleo")
    first = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    first.goto(f"{asgi_live_server}/games/")
    first.locator(f'#open-games tr[data-game="{game.pk}"] input[name="name"]').fill("Ben")
    with first.expect_navigation():
        first.locator(f'#open-games tr[data-game="{game.pk}"] button').click()
    with late.expect_navigation() as answer:
        row.locator("button").click()
    assert answer.value.status == 409
    assert late.inner_text("p.message.error") == "Dit spel heeft geen open plaats meer: iemand nam de laatste."
    screenshot(late, "join-too-late-nl-phone")
    assert late.evaluate("document.documentElement.scrollWidth") <= 360
    with late.expect_navigation():
        late.click("text=Terug naar")
    assert late.url.endswith(f"/games/{game.pk}/") and "Neem plaats" not in late.inner_text("main")
    # a name of spaces only is asked for again, in the reader's language
    other = services.game_create(variant="sabra", players=2, seats=["Dee", "Eve"], title="Spaties", actor="lobby")
    late.goto(f"{asgi_live_server}/games/")
    late.locator(f'#open-games tr[data-game="{other.pk}"] input[name="name"]').fill("   ")
    with late.expect_navigation() as answer:
        late.locator(f'#open-games tr[data-game="{other.pk}"] button').click()
    assert answer.value.status == 400 and late.inner_text("p.message.error") == "Typ je naam om mee te doen."
