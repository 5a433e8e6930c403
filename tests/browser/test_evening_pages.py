"""The organiser's pages in a real browser: the check-in desk on a phone
(search and one tap per player), the round's printed seating and score
sheets, and the projector; screenshots for the README and docs/league.md."""

from __future__ import annotations

import pytest

from league import services
from league.models import Club, Entry, Player, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ada", "Boris", "Chen", "Dora", "Emil", "Fatma", "Göran", "Hana"]


@pytest.fixture
def evening(django_user_model):
    django_user_model.objects.create_superuser("desk", "desk@example.invalid", "a-long-pass")
    club = Club.objects.create(name="Arad Rummy Club", slug="arad")
    t = Tournament.objects.create(name="Tuesday Rummikub", slug="tuesday", club=club, rounds=2, table_size=4)
    for name in NAMES:
        services.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club))
    return t


def sign_in(page, base):
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", "a-long-pass")
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")


def test_check_in_on_a_phone_then_paper_and_projector(asgi_live_server, browser, screenshot, evening):
    phone = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    sign_in(phone, asgi_live_server)
    phone.goto(f"{asgi_live_server}/t/{evening.slug}/check-in/")
    assert "0 of 8 here" in phone.inner_text("#present")
    phone.fill("#find", "go")                                  # search as you type
    visible = phone.locator("#entries li:visible .who").all_inner_texts()
    assert visible == ["Göran"]
    phone.fill("#find", "")
    for name in NAMES[:7]:
        row = phone.locator("#entries li", has_text=name)
        box = row.locator("button.tap").bounding_box()
        assert box["height"] >= 36                              # a thumb's target
        with phone.expect_navigation():
            row.locator("button.tap").click()
        phone.wait_for_selector(f'#entries li.in:has-text("{name}")')
    phone.fill("#walk-in-name", "Ines Walk-in")
    with phone.expect_navigation():
        phone.click("#walk-in button")
    phone.wait_for_selector('#entries li.in:has-text("Ines Walk-in")')
    assert "8 of 9 here" in phone.inner_text("#present")
    screenshot(phone, "check-in-phone")
    assert Entry.objects.filter(tournament=evening, checked_in=True).count() == 8

    rnd = services.round_seat(tournament=evening, seed="tuesday-1")
    desk = browser.new_context(viewport={"width": 900, "height": 1200}).new_page()
    desk.goto(f"{asgi_live_server}/t/{evening.slug}/round/{rnd.number}/")
    desk.click("#print")
    desk.wait_for_selector("section.sheet")
    assert desk.locator("section.sheet").count() == 2 and desk.locator("section.sheet svg").count() == 2
    desk.emulate_media(media="print")
    assert desk.locator(".noprint").first.is_hidden()          # the print button is not printed
    desk.locator("section.sheet").first.screenshot(path=None)  # the sheet renders
    pdf = desk.pdf(format="A4")                                # what the browser's print makes
    assert pdf[:4] == b"%PDF" and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page\r") + \
        pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") >= 3
    desk.emulate_media(media="screen")
    screenshot(desk, "score-sheets")

    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.goto(f"{asgi_live_server}/t/{evening.slug}/projector/")
    names = wall.locator("ol.draw .name").all_inner_texts()
    assert len(names) == 8 and names == sorted(names, key=str.casefold)
    screenshot(wall, "projector")
