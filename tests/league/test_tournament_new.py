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
    assert '<option value="okey" selected>Okey</option>' in page
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


def test_rounds_zero_is_refused_on_its_field(official):
    response = official.post("/tournaments/new/", {
        "variant": "sabra", "name": "No rounds", "table_size": "4", "rounds": "0",
        "seating_method": "random"})
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="row-rounds".*?<ul class="errorlist"><li>a tournament has 1 to 99 rounds, not 0',
                     page, re.S)
    assert not Tournament.objects.exists()


def test_a_tournament_without_rounds_says_why_it_cannot_seat(make_tournament):
    from league import services
    from league.services import LeagueError

    t = make_tournament(4, rounds=0)
    with pytest.raises(LeagueError, match="has no rounds"):
        services.round_seat(tournament=t)


def test_tie_break_positions_are_kept_after_an_error(official):
    response = official.post("/tournaments/new/", {
        "variant": "sabra", "name": "Kept", "table_size": "9", "rounds": "3", "seating_method": "random",
        "tiebreaks__points": "1", "tiebreaks__wins": "2", "tiebreaks__best": "3", "tiebreaks__h2h": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'name="tiebreaks__points" id="id_tiebreaks__points" value="1"' in page
    assert 'name="tiebreaks__wins" id="id_tiebreaks__wins" value="2"' in page
    assert 'name="tiebreaks__best" id="id_tiebreaks__best" value="3"' in page
    assert 'name="tiebreaks__h2h" id="id_tiebreaks__h2h" value=""' in page
    # the rows in the order typed: points, games won, best, then the rest
    rows = re.findall(r'<tr data-metric="(\w+)">', page)
    assert rows[:3] == ["points", "wins", "best"]
    # a position typed wrong stays as typed, with its error
    bad = official.post("/tournaments/new/", {
        "variant": "sabra", "name": "Kept", "table_size": "4", "rounds": "3", "seating_method": "random",
        "tiebreaks__points": "1", "tiebreaks__wins": "1"}).content.decode()
    assert "two tie-breaks have the same position" in bad
    assert 'name="tiebreaks__wins" id="id_tiebreaks__wins" value="1"' in bad


def test_a_rule_option_error_is_shown_beside_its_own_option(official):
    response = official.post("/tournaments/new/", {
        "variant": "okey", "name": "Bad", "rules__start_points": "0", "rules__win_points": "2",
        "table_size": "4", "rounds": "3", "seating_method": "random"})
    assert response.status_code == 400
    page = response.content.decode()
    option = re.search(r'<div class="rule-option has-error" data-option="(\w+)">(.*?)</div></div>', page, re.S)
    assert option and option.group(1) == "start_points"
    assert 'id="id_rules__start_points_error"' in option.group(2) and "not 0" in option.group(2)
    # listed once: not again under the whole block
    assert page.count("not 0</li>") == 1
    others = re.findall(r'data-option="(\w+)"', page)
    assert "win_points" in others and page.count('class="rule-option has-error"') == 1


def test_the_organisers_club_is_made_on_the_form(official):
    response = official.post("/tournaments/new/", {
        "variant": "sabra", "name": "First night", "new_club": "  De  Joker ", "table_size": "4",
        "rounds": "3", "seating_method": "random"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="First night")
    assert t.club.name == "De Joker" and t.club.slug == "de-joker"
    # the same name again (any case) is the same club; a club chosen and a new one named is refused
    official.post("/tournaments/new/", {"variant": "sabra", "name": "Second", "new_club": "de joker",
                                        "table_size": "4", "rounds": "3", "seating_method": "random"})
    assert Tournament.objects.get(name="Second").club == t.club and Club.objects.count() == 1
    both = official.post("/tournaments/new/", {"variant": "sabra", "name": "Both", "club": t.club.pk,
                                               "new_club": "Other", "table_size": "4", "rounds": "3",
                                               "seating_method": "random"})
    assert both.status_code == 400
    assert re.search(r'id="row-new_club".*?choose a club from the list or name a new one, not both',
                     both.content.decode(), re.S)
    assert not Club.objects.filter(name="Other").exists()


def test_the_date_is_a_date_input_and_the_ai_level_a_list_of_the_familys_levels(official):
    page = official.get("/tournaments/new/?variant=sabra").content.decode()
    assert re.search(r'<input type="date" name="date"', page)
    select = re.search(r'<select name="ai_level"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="(\w+)"', select) == ["random", "greedy", "strong", "expert"]
    assert "Beginner (random legal moves)" in select and '<option value="random" selected>' in select
    # the game's names for people, not the engine's keys
    assert ">Rummikub (Sabra rules)</option>" in page and "rummikub · sabra" not in page
    bad = official.post("/tournaments/new/", {"variant": "sabra", "name": "X", "table_size": "4", "rounds": "3",
                                              "seating_method": "random", "ai_level": "genius"})
    assert bad.status_code == 400 and re.search(r'id="row-ai_level".*?errorlist', bad.content.decode(), re.S)
    assert not Tournament.objects.exists()


def test_a_sign_in_link_on_the_pages_and_the_organisers_pages_send_to_it():
    anonymous = Client()
    page = anonymous.get("/").content.decode()
    assert re.search(r'<a id="sign-in" href="/accounts/login/\?next=/"', page)
    to_login = anonymous.get("/tournaments/new/")
    assert to_login.status_code == 302 and to_login["Location"].startswith("/accounts/login/?next=")
    form = anonymous.get("/accounts/login/?next=/tournaments/new/").content.decode()
    assert 'id="sign-in-form"' in form and 'name="next" value="/tournaments/new/"' in form
    get_user_model().objects.create_user("desk", password="a-long-pass-1", is_staff=True)
    signed = anonymous.post("/accounts/login/", {"username": "desk", "password": "a-long-pass-1",
                                                 "next": "/tournaments/new/"})
    assert signed.status_code == 302 and signed["Location"] == "/tournaments/new/"
    home = anonymous.get("/").content.decode()
    assert 'id="sign-out"' in home and "Sign out (desk)" in home and 'id="sign-in"' not in home


def test_site_url_is_shown_on_the_desks_and_used_by_the_qr_codes(official, make_tournament, settings):
    from league import services

    t = make_tournament(4, rounds=1)
    services.round_seat(tournament=t, seed="site")
    desk = official.get(f"/t/{t.slug}/check-in/").content.decode()
    assert 'id="site-url">http://testserver</code>' in desk and "SITE_URL is not set" in desk
    settings.SITE_URL = "https://club.example.org"
    desk = official.get(f"/t/{t.slug}/round/1/desk/").content.decode()
    assert 'id="site-url">https://club.example.org</code>' in desk and "SITE_URL is not set" not in desk
    paper = official.get(f"/t/{t.slug}/round/1/print/").content.decode()
    link = re.search(r"<small>(https://club\.example\.org/s/[\w-]+/)</small>", paper)  # a code is URL-safe base64
    assert link and "testserver" not in paper.split('class="qr"')[1]


def test_site_url_is_checked():
    from django.core.exceptions import ImproperlyConfigured

    from config.settings import env_site_url

    import os
    os.environ["TK_TEST_SITE_URL"] = "https://club.example.org/"
    try:
        assert env_site_url("TK_TEST_SITE_URL") == "https://club.example.org"
        os.environ["TK_TEST_SITE_URL"] = "club.example.org"
        with pytest.raises(ImproperlyConfigured, match="not an http"):
            env_site_url("TK_TEST_SITE_URL")
    finally:
        del os.environ["TK_TEST_SITE_URL"]


@pytest.mark.parametrize("variant", ["sabra", "american", "okey", "contract"])
def test_a_tournament_may_seat_expert_ai(official, variant):
    response = official.post("/tournaments/new/", {
        "variant": variant, "name": f"Expert {variant}", "table_size": "3", "rounds": "1",
        "seating_method": "random", "ai_level": "expert"})
    assert response.status_code == 302, response.content.decode()[:1500]
    assert Tournament.objects.get(name=f"Expert {variant}").ai_level == "expert"
