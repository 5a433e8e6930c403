"""Release control, as Tabbycat has it: a tournament released by hand seats
each round with its draw and results withheld; the public pages and the
projector show them only once the organiser releases them on the round's
desk; the organiser always sees them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import services
from league.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def official():
    client = Client()
    client.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    return client


def _play(rnd):
    for game in rnd.tables.get().games.all():
        services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"], actor="official")


def test_the_draw_and_the_results_wait_for_the_organiser(make_tournament, official):
    public = Client()
    t = make_tournament(4, rounds=2, release_by_hand=True)
    rnd = services.round_seat(tournament=t, seed="held")
    assert (rnd.draw_released, rnd.results_released) == (False, False)
    url = f"/t/{t.slug}/round/1/"
    page = public.get(url).content.decode()
    assert "The draw of this round is not released yet." in page and "P01" not in page
    assert "P01" in official.get(url).content.decode()           # the organiser sees it
    assert public.get(f"/t/{t.slug}/round/1/print/").status_code == 404
    assert official.get(f"/t/{t.slug}/round/1/print/").status_code == 200
    wall = public.get(f"/t/{t.slug}/projector/").content.decode()
    assert "P01" not in wall and 'id="draw-waiting"' in wall
    # the desk releases the draw
    desk = f"/t/{t.slug}/round/1/desk/"
    assert 'id="release-draw"' in official.get(desk).content.decode()
    assert official.post(desk, {"action": "release-draw"}).status_code == 302
    page = public.get(url).content.decode()
    assert "P01" in page and "The results of this round are not released yet." in page
    assert "P01" in public.get(f"/t/{t.slug}/projector/").content.decode()
    _play(rnd)
    services.round_close(round=rnd)
    # results entered and the round closed: still withheld from the public
    page = public.get(url).content.decode()
    assert "+6" not in page and "Round total" not in page
    assert "+6" in official.get(url).content.decode()
    standings = public.get(f"/t/{t.slug}/").content.decode()
    assert "The results of round 1 are not released yet." in standings and 'id="unranked"' in standings
    assert 'id="unranked"' not in official.get(f"/t/{t.slug}/").content.decode()
    import csv
    import io

    rows = list(csv.reader(io.StringIO(public.get(f"/t/{t.slug}/standings.csv").content.decode())))[1:]
    assert len(rows) == 4 and all(r[0] == "" and r[3] == "0" for r in rows)     # nobody ranked yet
    rows = list(csv.reader(io.StringIO(official.get(f"/t/{t.slug}/standings.csv").content.decode())))[1:]
    assert rows[0][0] == "1" and all(r[3] == "4" for r in rows)                  # the organiser sees them
    assert public.get(f"/t/{t.slug}/results.csv").content.decode().count("\n") == 1   # the header only
    wall = public.get(f"/t/{t.slug}/projector/").content.decode()
    assert "After the first round." in wall
    assert official.post(desk, {"action": "release-results"}).status_code == 302
    standings = public.get(f"/t/{t.slug}/").content.decode()
    assert 'id="withheld"' not in standings and 'id="unranked"' not in standings
    assert public.get(f"/t/{t.slug}/results.csv").content.decode().count("\n") == 17  # 4 games x 4 seats
    assert "Standings after round 1" in public.get(f"/t/{t.slug}/projector/").content.decode()
    # withholding the draw withholds the results too; results need the draw
    official.post(desk, {"action": "withhold-draw"})
    rnd.refresh_from_db()
    assert (rnd.draw_released, rnd.results_released) == (False, False)
    refused = official.post(desk, {"action": "release-results"})
    assert refused.status_code == 400 and "release round 1&#x27;s draw before its results" in refused.content.decode()


def test_a_tournament_not_released_by_hand_shows_everything_at_once(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="open")
    assert Round.objects.get(pk=rnd.pk).draw_released and rnd.results_released
    _play(rnd)
    assert "+6" in Client().get(f"/t/{t.slug}/round/1/").content.decode()


def test_release_by_hand_is_chosen_on_the_new_tournament_form(official):
    from league.models import Tournament

    assert 'name="release_by_hand"' in official.get("/tournaments/new/").content.decode()
    official.post("/tournaments/new/", {"variant": "sabra", "name": "Held", "table_size": "4", "rounds": "2",
                                        "seating_method": "random", "release_by_hand": "on"})
    assert Tournament.objects.get(name="Held").release_by_hand
