"""A person at the replay of an analysed game: every turn marked, the
better play beside the play made, `n` / `p` jumping between the mistakes,
in Debian's chromium driven by Playwright."""

from __future__ import annotations

import pytest

from games.analysis import analysis_page

from .test_game_pages import finished_game, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_marked_replay_jumps_between_mistakes_by_keys(live_server, browser):  # noqa: F811
    game = finished_game()
    review = analysis_page(game, {})
    mistakes = review["mistakes"]
    assert len(mistakes) >= 2, "the seeded game has mistakes to jump between"
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.goto(f"{live_server.url}/games/{game.pk}/?at=1")
    assert page.locator(".moves li[data-mark]").count() == len(review["marks"])
    assert page.locator(".moves li[data-mark=miss], .moves li[data-mark=inaccuracy]").count() == \
        sum(1 for t in review["marks"].values() if t["mark"] != "best")
    assert page.locator("svg.analysis-chart g.series").count() >= 1
    assert page.locator("#analysis-summary tbody tr").count() == 3

    page.keyboard.press("n")
    page.wait_for_url(f"**/games/{game.pk}/?at={mistakes[0]}")
    assert page.locator("#at").inner_text() == str(mistakes[0])
    judged = review["marks"][mistakes[0]]
    assert page.locator("#judged").get_attribute("data-mark") == judged["mark"]
    assert page.locator("#judged code.best").inner_text() == judged["best"]
    assert page.locator("#judged code.played").inner_text() == judged["played"]
    assert page.locator("#better-board .meld").count() >= 1  # the better play drawn

    page.keyboard.press("n")
    page.wait_for_url(f"**/games/{game.pk}/?at={mistakes[1]}")
    shot(page, "analysis-replay")
    page.keyboard.press("p")
    page.wait_for_url(f"**/games/{game.pk}/?at={mistakes[0]}")
    assert page.locator("#at").inner_text() == str(mistakes[0])
    page.keyboard.press("ArrowRight")  # the arrow keys still step one event
    page.wait_for_url(f"**/games/{game.pk}/?at={mistakes[0] + 1}")
