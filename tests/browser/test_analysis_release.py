"""The analyses as people meet them, by clicks in Debian's chromium:

- a finished game whose analysis a worker has not made yet says so on its
  page, and shows the analysis once it is made;
- an organiser who withholds a round's results on the round's desk takes
  its games out of the public "sharpest players" and the player's figures,
  and puts them back by releasing;
- an organiser reading the desk in Dutch gets the desk's refusal in Dutch.
"""

from __future__ import annotations

import pytest

from games import outbox, tasks
from games.models import GameAnalysisRow
from league import handlers
from league.models import Club, Player, Tournament
from league import services

from .staff import DESK, sign_in
from .test_game_pages import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_game_whose_analysis_is_being_made_says_so_then_shows_it(asgi_live_server, browser, monkeypatch):
    game = finished_game()
    GameAnalysisRow.objects.filter(game=game).delete()  # as on a deployment: the worker has not run yet
    monkeypatch.setattr(outbox, "tasks_run_here", lambda: False)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{asgi_live_server}/games/{game.pk}/")
    note = page.locator("#analysis-pending")
    assert note.is_visible() and "judging every turn" in note.inner_text()
    assert page.locator("#analysis-summary").count() == 0
    assert page.locator(".moves li[data-mark]").count() == 0  # no mark before the analysis exists

    tasks.analyse(game.pk)  # the worker's turn
    page.reload()
    assert page.locator("#analysis-pending").count() == 0
    assert page.locator("#analysis-summary tbody tr").count() == 3
    assert page.locator(".moves li[data-mark]").count() >= 1


@pytest.fixture
def played(django_user_model):
    """A finished 3-player tournament of two rounds, every game analysed."""
    django_user_model.objects.create_superuser(*DESK)
    club = Club.objects.create(name="Analysis Club", slug="analysis-club")
    t = Tournament.objects.create(name="Analysis night", slug="analysis-night", club=club, rounds=2, table_size=3,
                                  ai_level="random", rules={"rack_size": 7})
    for name in ("Ada", "Boris", "Chen"):
        services.tournament_enter(tournament=t, player=Player.objects.create(name=name, club=club), checked_in=True)
    handlers.tournament_autoplay_start(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def _desk_action(page, base, slug, number, button):
    page.goto(f"{base}/t/{slug}/round/{number}/desk/")
    page.click(button)
    page.wait_for_url("**done=*")


def test_withholding_a_rounds_results_takes_its_analyses_off_the_public_pages(asgi_live_server, browser, played):
    base, slug = asgi_live_server, played.slug
    public = browser.new_context().new_page()
    public.goto(f"{base}/t/{slug}/")
    assert public.locator("#sharpest tbody tr").count() == 3
    top = public.locator("#sharpest tbody tr").first.get_attribute("data-player")

    desk = browser.new_context().new_page()
    sign_in(desk, base)
    for number in (1, 2):
        _desk_action(desk, base, slug, number, "#withhold-results")
        assert desk.locator("#results-state").inner_text() == "the results are withheld"

    public.goto(f"{base}/t/{slug}/")
    assert public.locator("#sharpest").count() == 0
    assert public.locator("#withheld").is_visible()
    public.goto(f"{base}/players/{top}/")
    assert public.locator("#analysis-figures").count() == 0
    desk.goto(f"{base}/t/{slug}/")  # the organiser still sees them
    assert desk.locator("#sharpest tbody tr").count() == 3
    desk.goto(f"{base}/players/{top}/")
    assert desk.locator("#analysis-figures").count() == 1

    _desk_action(desk, base, slug, 1, "#release-results")  # one round back: its games only
    public.goto(f"{base}/t/{slug}/")
    assert public.locator("#sharpest tbody tr").count() == 3
    _desk_action(desk, base, slug, 2, "#release-results")
    public.goto(f"{base}/players/{top}/")
    assert public.locator("#analysis-figures").count() == 1


def test_the_desk_refuses_in_the_organisers_language(asgi_live_server, browser, played):
    base = asgi_live_server
    desk = browser.new_context(locale="nl-NL").new_page()
    sign_in(desk, base)
    desk.goto(f"{base}/t/{played.slug}/round/2/desk/")
    first = desk.locator("#conflict-a option").first.get_attribute("value")
    desk.select_option("#conflict-a", first)
    desk.select_option("#conflict-b", first)  # the same player twice
    desk.click("#conflict-add-button")
    assert desk.get_by_text("kies twee verschillende spelers").count() == 1
    assert "choose two different players" not in desk.content()
    assert played.seating_conflicts.count() == 0  # nothing stored
