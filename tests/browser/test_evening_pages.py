"""The organiser's pages in a real browser: the check-in desk on a phone
(search and one tap per player), the round's printed seating and score
sheets, and the projector; screenshots for the README and docs/league.md."""

from __future__ import annotations

import re

import pytest

from league import services
from league.models import Club, Entry, Player, Tournament

from .staff import DESK, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ada", "Boris", "Chen", "Dora", "Emil", "Fatma", "Göran", "Hana"]


@pytest.fixture
def evening(django_user_model):
    django_user_model.objects.create_superuser(*DESK)
    club = Club.objects.create(name="Arad Rummy Club", slug="arad")
    t = Tournament.objects.create(name="Tuesday Rummikub", slug="tuesday", club=club, rounds=2, table_size=4)
    for name in NAMES:
        services.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club))
    return t


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
        row.locator("button.tap").click()                      # in place, no new page
        phone.wait_for_selector(f'#entries li.in:has-text("{name}")')
    phone.fill("#walk-in-name", "Ines Walk-in")
    phone.click("#walk-in button")
    phone.wait_for_selector('#entries li.in:has-text("Ines Walk-in")')
    assert phone.input_value("#walk-in-name") == ""
    assert "8 of 9 here" in phone.inner_text("#present")
    screenshot(phone, "check-in-phone")
    assert Entry.objects.filter(tournament=evening, checked_in=True).count() == 8

    rnd = services.round_seat(tournament=evening, seed="tuesday-1")
    desk = browser.new_context(viewport={"width": 900, "height": 1200}).new_page()
    sign_in(desk, asgi_live_server)                            # the organiser prints: QR codes
    desk.goto(f"{asgi_live_server}/t/{evening.slug}/round/{rnd.number}/")
    desk.click("#print")
    desk.wait_for_selector("section.sheet")
    assert desk.locator("section.sheet").count() == 2 and desk.locator("section.sheet svg").count() == 2
    desk.emulate_media(media="print")
    assert desk.locator(".noprint").first.is_hidden()          # the print button is not printed
    pdf = desk.pdf(format="A4")                                # what the browser's print makes
    pages = re.findall(rb"/Type\s*/Page(?![s\w])", pdf)          # page objects, not the /Pages tree
    assert pdf[:4] == b"%PDF" and len(pages) >= 3              # the seating, then a sheet per table
    desk.emulate_media(media="screen")
    screenshot(desk, "score-sheets")

    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.goto(f"{asgi_live_server}/t/{evening.slug}/projector/")
    names = wall.locator("ol.draw .name").all_inner_texts()
    assert len(names) == 8 and names == sorted(names, key=str.casefold)
    screenshot(wall, "projector")


def test_the_tournament_form_and_the_players_import_by_clicks(asgi_live_server, browser, screenshot, evening):
    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    sign_in(page, asgi_live_server)
    # a new tournament: rule options and tie-breaks as fields, no JSON typed
    page.goto(f"{asgi_live_server}/admin/league/tournament/add/")
    assert page.locator('textarea[name="rules"], textarea[name="tiebreaks"]').count() == 0
    page.fill("#id_name", "Thursday Rummikub")
    page.fill("#id_rules__initial_meld", "50")
    page.select_option("#id_rules__joker_sets", "keep-tile")
    page.fill("#id_tiebreaks__wins", "1")
    page.fill("#id_tiebreaks__points", "2")
    page.click('tr[data-metric="points"] button.up')         # the arrows reorder and renumber
    assert page.input_value("#id_tiebreaks__points") == "1" and page.input_value("#id_tiebreaks__wins") == "2"
    screenshot(page, "admin-tournament-form")
    page.click('input[name="_save"]')
    page.wait_for_load_state()
    errors = page.locator(".errorlist, .errornote").all_inner_texts()
    assert not errors, errors
    t = Tournament.objects.get(name="Thursday Rummikub")
    assert t.rules == {"initial_meld": 50, "joker_sets": "keep-tile"} and t.tiebreaks == ["points", "wins"]

    # players from a CSV: preview, one doubtful row ticked, import
    page.goto(f"{asgi_live_server}/players/import/")
    page.fill("#csv-text", "name,club,membership\nAda,Arad Rummy Club,A-1\nBorris,Arad Rummy Club,\nJuno,Arad Rummy Club,\n")
    page.click("#preview")
    page.wait_for_selector("#counts")
    assert page.inner_text("#counts") == "1 new · 1 matched · 1 doubtful · 0 not readable"
    page.check('tr[data-line="3"] input[name="take"]')      # Borris is not Boris
    screenshot(page, "players-import-preview")
    page.click("#do-import")
    page.wait_for_selector("#import-done")
    assert "2 player(s) added, 1 updated, 0 skipped" in page.inner_text("#import-done")
    assert Player.objects.filter(name__in=["Borris", "Juno"]).count() == 2
    assert Player.objects.get(name="Ada").membership == "A-1"


def test_a_table_enters_and_confirms_its_result_from_two_phones(asgi_live_server, browser, screenshot,
                                                               evening):
    """The organiser prints the round (the QR's short link), two players of
    table 1 open it on their phones, one enters game 1's racks, the other
    checks and confirms; the round desk shows the table's progress."""
    from league.models import Result, Table, TableGame

    for entry in evening.entries.all():
        services.entry_check_in(entry=entry)
    rnd = services.round_seat(tournament=evening, seed="phones")
    desk = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    sign_in(desk, asgi_live_server)
    desk.goto(f"{asgi_live_server}/t/{evening.slug}/round/1/print/")
    link = desk.locator(".qr small").first.inner_text()          # printed under the QR code
    table = Table.objects.get(round=rnd, number=1)
    assert link.endswith(f"/s/{table.entry_code}/")
    names = [s.entry.player.name for s in table.seats.order_by("position")]
    codes = desk.locator('.sheet[data-table="1"] th .code b').all_inner_texts()   # beside each name
    assert len(codes) == 4 and all(len(c) == 4 for c in codes)
    game = TableGame.objects.filter(table=table).order_by("number").first()
    phones = [browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
              for _ in range(2)]
    racks = ["", "R1 R2", "K13", "J"]
    first, second = phones
    first.goto(link)
    section = first.locator("#game-1")
    section.locator("select[name=by]").select_option(names[0])
    section.locator("input[name=code]").fill(codes[0])
    for seat, rack in enumerate(racks):
        section.locator(f'input[name="rack_{seat}"]').fill(rack)
    assert section.locator("button").bounding_box()["height"] >= 44       # a thumb's target
    with first.expect_navigation():
        section.locator("button").click()
    assert "another player now confirms it" in first.inner_text("#entry-message")
    assert not Result.objects.filter(game=game).exists()
    second.goto(link)
    mine = second.locator("#game-1")
    assert f"Entered by {names[0]}" in mine.inner_text()
    assert mine.locator('input[name="rack_1"]').input_value() == "R1 R2"   # shown to check
    mine.locator("select[name=by]").select_option(names[1])
    mine.locator("input[name=code]").fill(codes[1])
    screenshot(second, "table-entry-phone")
    with second.expect_navigation():
        mine.locator("button").click()
    assert "confirmed, the result is recorded" in second.inner_text("#entry-message")
    assert second.locator('#game-1[data-state="done"]').count() == 1
    assert Result.objects.get(game=game, status="confirmed").scores[0] > 0
    desk.goto(f"{asgi_live_server}/t/{evening.slug}/round/1/desk/")
    row = desk.locator('tr[data-table="1"]')
    assert "1 of 4 with a result" in row.inner_text() and row.get_attribute("data-state") == "playing"
    screenshot(desk, "round-desk")


def test_a_new_tournament_by_clicks_on_a_phone(asgi_live_server, browser, screenshot, evening):
    """The organiser starts an Okey evening from the tournaments page on a
    phone: the game picked first, a value the game refuses shown next to
    its field (a table size the game does not take), then created and on to
    the check-in desk."""
    phone = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    sign_in(phone, asgi_live_server)
    phone.goto(f"{asgi_live_server}/")
    with phone.expect_navigation():
        phone.click("#new-tournament")
    with phone.expect_navigation():
        phone.select_option("#pick", "okey")
    assert phone.locator('input[name="rules__start_points"]').input_value() == "20"
    phone.fill("#id_name", "Thursday Okey")
    phone.fill('input[name="rules__start_points"]', "10")
    phone.fill("#id_table_size", "6")                          # Okey seats 2-4
    with phone.expect_navigation():
        phone.click("#create")
    assert "takes 2 to 4 players" in phone.locator("#row-table_size .errorlist").inner_text()
    assert not Tournament.objects.filter(name="Thursday Okey").exists()
    phone.fill("#id_table_size", "4")
    phone.check('input[name="rules__with_color"]')
    screenshot(phone, "new-tournament-phone")
    with phone.expect_navigation():
        phone.click("#create")
    assert "Thursday Okey created" in phone.inner_text("#desk-message")
    t = Tournament.objects.get(name="Thursday Okey")
    assert (t.family, t.rules["start_points"], t.rules["with_color"]) == ("okey", 10, True)
