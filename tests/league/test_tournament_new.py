"""A new tournament outside the admin (staff): the game picked first, its
rule options and tie-breaks as real fields, errors next to the field with
nothing stored, then on to the check-in desk."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from engine.registry import find_variant
from league.models import Club, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def official():
    client = Client()
    client.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    return client


def test_an_okey_tournament_in_two_steps(official):
    club = Club.objects.create(name="Kahve Club", slug="kahve")
    page = official.get("/tournaments/new/?variant=okey").content.decode()
    assert '<option value="okey" selected>Okey · okey</option>' in page
    assert 'name="rules__start_points"' in page and "Compare Stone" in page
    assert 'name="tiebreaks__wins"' in page and '<textarea' not in page
    response = official.post("/tournaments/new/", {
        "variant": "okey", "name": "Thursday Okey", "club": club.pk, "date": "2026-11-26",
        "rules__seven_pairs": "on", "rules__start_points": "10", "rules__win_points": "2",
        "rules__okey_finish_double": "on", "rules__pairs_double": "on", "rules__compare_stone": "on",
        "table_size": "4", "rounds": "3", "seating_method": "random", "ai_level": "strong",
        "tiebreaks__wins": "1", "tiebreaks__points": "2"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Thursday Okey")
    assert response["Location"].startswith(f"/t/{t.slug}/check-in/?done=")
    assert (t.family, t.variant, t.club, t.rounds, t.ai_level) == ("okey", "okey", club, 3, "strong")
    rules = find_variant("okey").rules_from_dict(t.rules)
    assert (rules.start_points, rules.seven_pairs, rules.with_color) == (10, True, False)
    assert t.tiebreaks == ["wins", "points"]
    # a second one of the same name gets its own address
    again = official.post("/tournaments/new/", {"variant": "sabra", "name": "Thursday Okey",
                                                "table_size": "4", "rounds": "2",
                                                "seating_method": "random"})
    assert again.status_code == 302 and Tournament.objects.filter(name="Thursday Okey").count() == 2


def test_errors_are_shown_next_to_the_field_and_nothing_is_stored(official):
    response = official.post("/tournaments/new/", {
        "variant": "okey", "name": "Bad", "rules__start_points": "0", "rules__win_points": "2",
        "table_size": "6", "rounds": "3", "seating_method": "random"})
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="row-rules".*?start_points.*?</ul>', page, re.S)
    assert re.search(r'id="row-table_size".*?takes 2 to 4 players at a table', page, re.S)
    assert not Tournament.objects.exists()


def test_only_staff(client):
    response = client.get("/tournaments/new/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_tournaments_page_links_staff_to_a_new_one(official, client):
    assert 'id="new-tournament"' in official.get("/").content.decode()
    assert 'id="new-tournament"' not in client.get("/").content.decode()


@pytest.mark.parametrize("variant", ["sabra", "american", "okey", "contract"])
def test_a_tournament_may_seat_expert_ai(official, variant):
    response = official.post("/tournaments/new/", {
        "variant": variant, "name": f"Expert {variant}", "table_size": "3", "rounds": "1",
        "seating_method": "random", "ai_level": "expert"})
    assert response.status_code == 302, response.content.decode()[:1500]
    assert Tournament.objects.get(name=f"Expert {variant}").ai_level == "expert"
