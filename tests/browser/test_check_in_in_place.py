"""The check-in desk taps in place: a tap sends its request with fetch and
swaps in the list, the count and the message; the page is not reloaded, it
keeps its scroll position, the search box and its filter. Without scripts
the same forms post and come back as before."""

from __future__ import annotations

import pytest

from league import services
from league.models import Club, Entry, Player, Tournament

from .staff import DESK, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def desk_night(django_user_model):
    django_user_model.objects.create_superuser(*DESK)
    club = Club.objects.create(name="Big Club", slug="big")
    t = Tournament.objects.create(name="Big night", slug="big-night", club=club, rounds=2, table_size=4)
    for k in range(1, 41):
        name = f"Player {k:02}" if k % 10 else f"Zeynep {k:02}"
        services.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club))
    return t


def test_a_tap_checks_in_without_leaving_the_page(asgi_live_server, browser, desk_night):
    phone = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    sign_in(phone, asgi_live_server)
    phone.goto(f"{asgi_live_server}/t/{desk_night.slug}/check-in/")
    phone.evaluate("window.stillHere = 'same page'")
    # far down the list: the page keeps its scroll
    last = phone.locator("#entries li", has_text="Player 39")
    last.scroll_into_view_if_needed()
    before = phone.evaluate("window.scrollY")
    assert before > 500
    last.locator("button.tap").click()
    phone.wait_for_selector('#entries li.in:has-text("Player 39")')
    assert phone.evaluate("window.stillHere") == "same page"          # not reloaded
    assert abs(phone.evaluate("window.scrollY") - before) <= 2
    assert "Player 39 checked in" in phone.inner_text("#desk-message")
    assert "1 of 40 here" in phone.inner_text("#present")
    assert Entry.objects.get(tournament=desk_night, player__name="Player 39").checked_in

    # with a search: the box keeps its text and the list stays filtered
    phone.fill("#find", "zey")
    assert phone.locator("#entries li:visible").count() == 4
    phone.locator("#entries li", has_text="Zeynep 20").locator("button.tap").click()
    phone.wait_for_selector('#entries li.in:has-text("Zeynep 20")')
    assert phone.input_value("#find") == "zey"
    assert phone.locator("#entries li:visible").count() == 4
    assert "2 of 40 here" in phone.inner_text("#present")
    # undo, in place too
    phone.locator("#entries li", has_text="Zeynep 20").locator("button", has_text="Undo").click()
    phone.wait_for_selector('#entries li:not(.in):has-text("Zeynep 20") button.tap')
    assert phone.evaluate("window.stillHere") == "same page"
    assert phone.evaluate("document.body.dataset.sent") == "3"
    assert not Entry.objects.get(tournament=desk_night, player__name="Zeynep 20").checked_in
    # a walk-in, in place: added, checked in, the box emptied
    phone.fill("#find", "")
    phone.fill("#walk-in-name", "Walk In Late")
    phone.click("#walk-in button")
    phone.wait_for_selector('#entries li.in:has-text("Walk In Late")')
    assert phone.input_value("#walk-in-name") == ""
    assert phone.evaluate("window.stillHere") == "same page"


def test_without_scripts_the_tap_posts_and_comes_back(asgi_live_server, browser, desk_night):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    phone = context.new_page()
    sign_in(phone, asgi_live_server)
    phone.goto(f"{asgi_live_server}/t/{desk_night.slug}/check-in/")
    with phone.expect_navigation():
        phone.locator("#entries li", has_text="Player 05").locator("button.tap").click()
    assert "Player 05 checked in" in phone.inner_text("#desk-message")
    assert "?done=" in phone.url
    assert Entry.objects.get(tournament=desk_night, player__name="Player 05").checked_in
