"""The league's refusals an organiser meets on the translated pages come
from the catalogue, values and all: the seating's (no players, too few for
a table, no split into tables) at the check-in and at the round desk's
reseat, a walk-in to a finished tournament, the desk's accept and send-back
of a sheet entry once the game has its result, and the new tournament
form's tie-breaks. In English the sentences are as they were."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import services, table_entry
from league.models import Tournament

pytestmark = pytest.mark.django_db


def _desk(lang: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(get_user_model().objects.get_or_create(username="desk", is_staff=True)[0])
    return client


@pytest.fixture
def turkish():
    return _desk("tr")


@pytest.fixture
def dutch():
    return _desk("nl")


def _refused(response) -> str:
    assert response.status_code == 400
    return response.content.decode()


def test_the_check_in_refuses_a_seating_in_turkish_and_dutch(turkish, dutch, make_tournament):
    nobody = make_tournament(0, rounds=1)
    text = _refused(turkish.post(f"/t/{nobody.slug}/check-in/", {"action": "seat"}))
    assert "1. tur: yerleştirilecek oyuncu yok: önce oyuncuların girişini yapın" in text
    assert "no players to seat" not in text and "round 1:" not in text

    two = make_tournament(2, name="Two", rounds=1)
    text = _refused(dutch.post(f"/t/{two.slug}/check-in/", {"action": "seat"}))
    assert ("ronde 1: 2 speler(s) vullen geen tafel van minstens 3; sta AI-stoelen toe of wacht op "
            "meer spelers") in text
    assert "cannot fill a table" not in text

    english = _refused(_desk("en").post(f"/t/{two.slug}/check-in/", {"action": "seat"}))
    assert ("round 1: 2 player(s) cannot fill a table of at least 3; allow AI seats or wait for more "
            "players") in english


def test_the_desk_refuses_a_reseat_in_dutch(dutch, make_tournament):
    t = make_tournament(6, rounds=1)
    services.round_seat(tournament=t, seed="reseat")
    gone = t.entries.get(player__name="P06")
    assert dutch.post(f"/t/{t.slug}/check-in/", {"action": "out", "entry": gone.pk}).status_code in (200, 302)
    text = _refused(dutch.post(f"/t/{t.slug}/round/1/desk/", {"action": "reseat"}))
    assert ("ronde 1: 5 spelers zijn niet te verdelen over tafels van 3 tot 4 spelers; sta AI-stoelen toe "
            "of wijzig de tafelgrootte") in text
    assert "cannot be split" not in text


def test_a_walk_in_to_a_finished_tournament_is_refused_in_turkish(turkish, make_tournament):
    t = make_tournament(2, name="Kış gecesi", rounds=1)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    text = _refused(turkish.post(f"/t/{t.slug}/check-in/", {"action": "walk-in", "name": "Ayşe"}))
    assert "Kış gecesi bitti: yeni kayıt alınmıyor" in text and "no new entries" not in text


def test_the_desk_refuses_an_entry_of_a_game_with_its_result_in_turkish(turkish, dutch, make_tournament):
    t = make_tournament(4, rounds=1)
    rnd = services.round_seat(tournament=t, seed="entry")
    table = rnd.tables.get()
    game = table.games.get(number=1)
    seat = table.seats.get(position=0)
    entry = table_entry.sheet_entry_submit(game=game, sheet={"racks": ["", "R1", "B2", "K3"]},
                                           by=seat.entry.player.name,
                                           code=table_entry.seat_codes(table)[0])
    services.result_record_score_sheet(game=game, racks=["", "R1", "B2", "K4"], actor="desk")
    desk = f"/t/{t.slug}/round/1/desk/"

    text = _refused(turkish.post(desk, {"action": "accept", "entry": entry.pk}))
    assert f"{game_tr(game)} oyununun sonucu zaten var" in text and "has its result" not in text
    text = _refused(turkish.post(desk, {"action": "send-back", "entry": entry.pk}))
    assert f"{game_tr(game)} oyununun sonucu zaten var: bunun yerine bir düzeltme girin" in text

    entry.status = entry.Status.REPLACED
    entry.save(update_fields=["status"])
    text = _refused(dutch.post(desk, {"action": "accept", "entry": entry.pk}))
    assert f"de invoer van {seat.entry.player.name} is vervangen en wacht niet op de organisator" in text
    assert "not waiting for the organiser" not in text


def game_tr(game) -> str:
    return f"masa {game.table.number}, oyun {game.number}"


def test_the_new_tournament_form_refuses_tie_breaks_in_turkish_and_german(turkish):
    form = {"variant": "sabra", "name": "Kötü", "table_size": "4", "rounds": "1", "seating_method": "random"}
    text = turkish.post("/tournaments/new/", {**form, "tiebreaks__bogus": "1"}).content.decode()
    assert "bilinmeyen eşitlik bozucu(lar) bogus; bilinenler:" in text and "unknown tie-break" not in text
    text = turkish.post("/tournaments/new/", {**form, "tiebreaks": "[oops"}).content.decode()
    assert 'ölçüt anahtarlarının bir listesini verin, ör. [&quot;wins&quot;, &quot;points&quot;]' in text
    german = _desk("de").post("/tournaments/new/", {**form, "tiebreaks__bogus": "1"}).content.decode()
    assert "unbekannte Feinwertung(en) bogus; bekannt:" in german
