"""What a person sees: the demo's public standings page and the admin's
tournament page, in Debian's chromium driven by Playwright (no browser
download; no network beyond the test server)."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from league.models import Tournament


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(db):
    call_command("demo", no_admin=True, international_players=0, stdout=open(os.devnull, "w"))
    get_user_model().objects.create_superuser("official", "o@example.invalid", "a-long-pass")
    return Tournament.objects.get(slug="demo-night")


def test_public_standings_and_admin_tournament_page(live_server, browser, demo):
    page = browser.new_page()
    page.goto(f"{live_server.url}/t/demo-night/")
    assert page.title() == "Demo Rummikub Night · standings"
    assert page.locator("h1").inner_text() == "Demo Rummikub Night"
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 8
    first = rows.nth(0).locator("td")
    assert re.fullmatch(r"1=?", first.nth(0).inner_text())
    names = {rows.nth(i).locator("td").nth(1).inner_text() for i in range(8)}
    assert names == {"Ada", "Boris", "Chen", "Dana", "Emil", "Fatima", "Goran", "Hana"}
    wins = [int(rows.nth(i).locator("td").nth(4).inner_text()) for i in range(8)]
    assert wins == sorted(wins, reverse=True) and sum(wins) >= 16  # 16 games
    points = [int(rows.nth(i).locator("td").nth(5).inner_text()) for i in range(8)]
    assert sum(points) == 0  # zero-sum over the whole tournament

    # Below the table: the chart of places over rounds, one line per player
    # with a point per round, and a legend by final place.
    chart = page.locator("svg.places-chart")
    chart.scroll_into_view_if_needed()
    assert chart.is_visible() and chart.bounding_box()["height"] > 200
    lines = chart.locator("g.series")
    assert lines.count() == 8
    assert {lines.nth(i).get_attribute("data-label") for i in range(8)} == names
    assert all(lines.nth(i).locator("circle").count() == 2 for i in range(8))
    legend = chart.locator("g.legend text").all_text_contents()
    assert legend[0] == "Final place" and legend[1].startswith("1")
    leaders = {rows.nth(i).locator("td").nth(1).inner_text() for i in range(8)
               if re.fullmatch(r"1=?", rows.nth(i).locator("td").nth(0).inner_text())}
    assert legend[1].split(". ", 1)[1] in leaders

    # A player's name leads to their history.
    rows.nth(0).locator("td").nth(1).locator("a").click()
    assert page.locator("h1").inner_text() in names
    # Their rows of this tournament: 2 rounds x 4 games (the demo's contract
    # rummy event may add rows of its own for some players).
    assert page.locator("tbody tr", has_text="Demo Rummikub Night").count() == 8

    # The round page shows the seating, seed and per-game scores.
    page.goto(f"{live_server.url}/t/demo-night/round/2/")
    assert "from seed demo-round-2" in page.locator("p.meta").inner_text()
    assert page.locator("section.table").count() == 2

    # The official logs in and opens the tournament in the admin.
    page.goto(f"{live_server.url}/admin/league/tournament/{demo.pk}/change/")
    page.fill("#id_username", "official")
    page.fill("#id_password", "a-long-pass")
    page.click("input[type=submit]")
    assert page.locator("#id_name").input_value() == "Demo Rummikub Night"
    rounds = page.locator("#rounds")
    assert rounds.locator("h3").all_inner_texts() == ["Round 1: closed", "Round 2: closed"]
    assert rounds.get_by_role("link", name="correct score sheet").count() == 16
    # A click starts a navigation: wait for the new page before counting.
    with page.expect_navigation():
        page.get_by_role("link", name="Standings", exact=True).click()
    expect(page.locator("table.standings tbody tr")).to_have_count(8)

    # The club page: a leaderboard per game family, and the chart of the
    # Rummikub night by default with a link to the contract event's.
    page.goto(f"{live_server.url}/clubs/demo-club/")
    assert page.locator("h2").all_inner_texts()[:2] == ["Leaderboard: Rummikub",
                                                        "Leaderboard: Contract rummy"]
    assert page.locator("#board-rummikub table.standings tbody tr").count() == 8
    assert "Demo Rummikub Night" in page.locator("#chart h2").inner_text()
    with page.expect_navigation():
        page.locator("#chart p.chart-choice").get_by_role("link",
                                                         name="Demo Contract Rummy").click()
    expect(page.locator("#chart h2")).to_contain_text("Demo Contract Rummy")
    assert page.locator("#chart svg.places-chart").is_visible()
    if os.environ.get("LEAGUE_SCREENSHOTS"):
        page.screenshot(path=os.environ["LEAGUE_SCREENSHOTS"] + "/admin-standings.png",
                        full_page=True)
        page.goto(f"{live_server.url}/clubs/demo-club/")
        page.screenshot(path=os.environ["LEAGUE_SCREENSHOTS"] + "/club.png", full_page=True)
        page.goto(f"{live_server.url}/t/demo-night/")
        page.screenshot(path=os.environ["LEAGUE_SCREENSHOTS"] + "/standings.png",
                        full_page=True)
    page.close()
