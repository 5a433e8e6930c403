"""Messages an organiser meets on the translated pages come from the
catalogue: a rule option's range error, a table size the game does not
take, the walk-in's refusal, the refused close of a round, the released
draw, the sign-in page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def official():
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    return client


def test_the_new_tournament_form_refuses_in_turkish(official):
    page = official.post("/tournaments/new/", {
        "variant": "okey", "name": "Kötü", "rules__start_points": "0", "rules__win_points": "2",
        "table_size": "6", "rounds": "0", "seating_method": "random"}).content.decode()
    assert "arası, 0 değil</li>" in page          # the start points option, beside it
    assert "masada 2 ile 4 oyuncuyla oynanır" in page
    assert "bir turnuvada 1 ile 99 arası tur olur, 0 değil" in page
    assert "takes 2 to 4 players" not in page and "not 0" not in page


def test_the_desks_refuse_in_turkish(official, make_tournament):
    t = make_tournament(4, rounds=1)
    walk_in = official.post(f"/t/{t.slug}/check-in/", {"action": "walk-in", "name": "  "})
    assert walk_in.status_code == 400 and "sonradan gelen oyuncunun adını yazın" in walk_in.content.decode()
    services.round_seat(tournament=t, seed="tr")
    close = official.post(f"/t/{t.slug}/round/1/desk/", {"action": "close"})
    text = close.content.decode()
    assert close.status_code == 400 and "1. tur kapanamaz: 4 oyunun henüz sonucu yok" in text
    assert "cannot close" not in text and "have no result" not in text
    released = official.post(f"/t/{t.slug}/round/1/desk/", {"action": "withhold-draw"}, follow=True)
    assert "1. turun oturma düzeni herkese açık sayfalardan ve projeksiyondan geri çekildi" in \
        released.content.decode()


def test_the_sign_in_page_and_the_link_in_dutch_and_german():
    nl = Client(HTTP_ACCEPT_LANGUAGE="nl").get("/accounts/login/").content.decode()
    assert "Aanmelden" in nl and "Wachtwoord" in nl
    de = Client(HTTP_ACCEPT_LANGUAGE="de").get("/").content.decode()
    assert ">Anmelden</a>" in de


def test_the_chart_speaks_the_language():
    from league.charts import Series, places_chart

    svg = places_chart([Series("Ann", [(1, 1), (2, 2)]), Series("Ben", [(1, 2), (2, 1)])],
                       labels={"legend": "Son sıra", "round": "T%(n)s", "y": "sıra", "x": "tur"})
    assert "Son sıra" in svg and ">T2</text>" in svg and "Final place" not in svg and ">R1<" not in svg
    assert "Final place" in places_chart([Series("Ann", [(1, 1)])])           # English by default


def test_the_standings_chart_in_turkish(make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="chart")
    for game in rnd.tables.get().games.all():
        services.result_record_score_sheet(game=game, racks=["", "R1", "R2", "R3"], actor="test")
    page = Client(HTTP_ACCEPT_LANGUAGE="tr").get(f"/t/{t.slug}/").content.decode()
    assert "Son sıra" in page and ">T1</text>" in page and "Final place" not in page
