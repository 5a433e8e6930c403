"""Public pages, CSV export and the officials' admin, through the test client."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from league import services
from league.models import Result, ResultEvent, Round, TableGame

RACKS = ["", "R5", "K10 O6", "B3"]


@pytest.fixture
def played(make_tournament):
    """A 4-player tournament with round 1 played from score sheets."""
    t = make_tournament(4, rounds=2, name="Spring open")
    rnd = services.round_seat(tournament=t, seed="p")
    for k, game in enumerate(TableGame.objects.filter(table__round=rnd).order_by("number")):
        services.result_record_score_sheet(game=game, racks=RACKS[-k:] + RACKS[:-k] if k else RACKS)
    services.round_close(round=rnd)
    return t


@pytest.fixture
def official(client, db):
    user = get_user_model().objects.create_superuser("official", "o@example.invalid", "pw")
    client.force_login(user)
    return client


def test_public_standings_page(client, played):
    html = client.get(reverse("league:tournament", args=[played.slug])).content.decode()
    assert "Spring open" in html and "Games won" in html
    for i in range(1, 5):
        assert f"P0{i}" in html
    assert "Round 1</a> (closed)" in html


def test_round_page_shows_seating_and_results(client, played):
    rnd = played.round_set.get(number=1)
    html = client.get(reverse("league:round", args=[played.slug, 1])).content.decode()
    assert f"<code>{rnd.seed}</code>" in html
    assert "Table 1" in html and "Round total" in html
    assert "<b>+24</b>" in html  # the winner's score of a game, in bold


def test_player_club_league_and_ratings_pages(client, played):
    player = played.entries.first().player
    html = client.get(reverse("league:player", args=[player.pk])).content.decode()
    assert player.name in html and "4 games" in html
    html = client.get(reverse("league:club", args=[player.club.slug])).content.decode()
    assert "<svg" in html and "Places over rounds" in html and "<polyline" in html
    assert client.get(reverse("league:ratings")).status_code == 200
    assert client.get(reverse("league:index")).status_code == 200
    assert client.get("/t/no-such-tournament/").status_code == 404


def test_csv_exports(client, played):
    body = client.get(reverse("league:standings-csv", args=[played.slug])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:4] == ["rank", "player", "club", "games"]
    assert len(rows) == 5 and sum(int(r[5]) for r in rows[1:]) == 0  # points, zero-sum
    body = client.get(reverse("league:results-csv", args=[played.slug])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert len(rows) == 1 + 4 * 4  # 4 games x 4 seats
    assert {r[7] for r in rows[1:]} == {"score_sheet"}


def test_csv_cells_are_never_formulas(client, played):
    # OWASP's CSV injection advice: a cell starting with = + - @ TAB or CR
    # is written after an apostrophe; numbers (negative ones too) stay numbers
    from league.models import Club, Player

    names = ['=HYPERLINK("http://evil.example/","x")', "@SUM(A1:A9)", "\tTab", "-2+3"]
    players = list(Player.objects.filter(pk__in=played.entries.values("player")).order_by("pk"))
    assert len(players) == len(names)
    for player, name in zip(players, names):
        Player.objects.filter(pk=player.pk).update(name=name)
    for player, name in zip(players, ("+cmd|' /C calc'!A0", "\rReturn")):
        Player.objects.filter(pk=player.pk).update(club=Club.objects.create(name=name))

    def rows(url):
        body = client.get(reverse(url, args=[played.slug])).content.decode()
        return list(csv.reader(io.StringIO(body, newline="")))[1:]

    standings, results = rows("league:standings-csv"), rows("league:results-csv")
    assert {r[1] for r in standings} == {"'" + n for n in names}
    assert {r[4] for r in results} == {"'" + n for n in names}
    assert {"'+cmd|' /C calc'!A0", "'\rReturn"} <= {r[2] for r in standings}
    for cell in (c for r in standings + results for c in r):
        assert cell[:1] not in ("=", "+", "@", "\t", "\r"), cell
        assert cell[:1] != "-" or cell[1:].isdigit(), cell
    scores = [int(r[5]) for r in results]  # negative scores are still numbers
    assert min(scores) < 0 and sum(scores) == 0


def test_admin_seats_enters_sheet_refuses_bad_one_and_closes(official, played):
    change = reverse("admin:league_tournament_change", args=[played.pk])
    assert "Seat the next round" in official.get(change).content.decode()
    official.post(reverse("admin:league_tournament_seat", args=[played.pk]))
    rnd = played.round_set.get(number=2)
    assert rnd.status == Round.Status.SEATED
    game = TableGame.objects.filter(table__round=rnd).order_by("number").first()
    url = reverse("admin:league_game_sheet", args=[game.pk])
    bad = official.post(url, {"rack_0": "", "rack_1": "R5", "rack_2": "Q3", "rack_3": "B3"})
    assert "seat 3: unknown tile &#x27;Q3&#x27;" in bad.content.decode()
    assert not ResultEvent.objects.filter(game=game).exists()
    ok = official.post(url, {"rack_0": "", "rack_1": "R5", "rack_2": "K3", "rack_3": "B3"})
    assert ok.status_code == 302
    assert Result.objects.get(game=game, status="confirmed").scores == [11, -5, -3, -3]
    # Closing with games missing is refused with the reason.
    close = reverse("admin:league_round_close", args=[rnd.pk])
    page = official.post(close, follow=True).content.decode()
    assert "round 2 cannot close: 3 games have no result" in page.lower()
    # A correction from the same form supersedes.
    official.post(url, {"rack_0": "", "rack_1": "R6", "rack_2": "K3", "rack_3": "B3"})
    assert Result.objects.get(game=game, status="confirmed").scores == [12, -6, -3, -3]
    assert ResultEvent.objects.filter(game=game).count() == 2
    standings = official.get(reverse("admin:league_tournament_standings", args=[played.pk]))
    assert "Games won" in standings.content.decode()


def test_admin_needs_login(client, played):
    response = client.get(reverse("admin:league_tournament_standings", args=[played.pk]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_demo_command_small(db, capsys):
    call_command("demo", players=4, rounds=1, no_admin=True, contract_players=0, okey_players=0, international_players=0)
    out = capsys.readouterr().out
    assert "Round 1 closed." in out and "/t/demo-night/" in out
    for link in ("/t/demo-night/check-in/", "/t/demo-night/round/1/print/", "/t/demo-night/projector/",
                 "/players/import/", "/games/new/"):
        assert link in out                 # the organiser's links, and where to play
    results = Result.objects.filter(status="confirmed")
    assert results.count() == 4
    assert all(r.source == "moves" and sum(r.scores) == 0 for r in results)
    # Run again: nothing new, the same standings.
    call_command("demo", players=4, rounds=1, no_admin=True, contract_players=0, okey_players=0, international_players=0)
    assert "already been played" in capsys.readouterr().out
    assert Result.objects.count() == 4


def test_admin_tournament_form_checks_variant_rules_and_tiebreaks(official, db):
    from league.models import Tournament

    url = reverse("admin:league_tournament_add")
    base = {"name": "Form test", "slug": "form-test", "status": "draft", "family": "x",
            "variant": "sabra", "rules": "{}", "rounds": 2, "table_size": 4,
            "seating_method": "random", "tiebreaks": '["wins", "points"]',
            "ai_level": "random", "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0}
    page = official.post(url, {**base, "variant": "canasta"}).content.decode()
    assert "canasta is not one of the available choices" in page  # the variants are a list now
    page = official.post(url, {**base, "rules__initial_meld": "many"}).content.decode()
    assert "Initial meld (points): a whole number from 0 to 500" in page    # the rule options are fields
    assert not Tournament.objects.filter(slug="form-test").exists()
    page = official.post(url, {**base, "tiebreaks": '["wins", "coin"]'}).content.decode()
    assert "unknown tie-break(s) coin" in page
    page = official.post(url, {**base, "table_size": 7}).content.decode()
    assert "takes 2 to 4 players" in page
    assert official.post(url, base).status_code == 302
    assert Tournament.objects.get(slug="form-test").family == "rummikub"
