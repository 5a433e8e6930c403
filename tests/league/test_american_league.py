"""American and International Rummikub in the league: a round is one game
per seat at each table (the start passing on), played by computer seats
through the games app or written on a score sheet: the racks left, and for
International how the game was won, who had melded and the joker's double;
the points follow the engine's scoring, bad sheets are refused in words."""

from __future__ import annotations

import pytest

from league import selectors, services
from league.models import Result, TableGame

pytestmark = pytest.mark.django_db


def test_an_american_round_is_a_game_per_seat_played_by_computer_seats(make_tournament):
    t = make_tournament(3, rounds=1, family="american", variant="american", table_size=3, ai_level="greedy")
    rnd = services.round_seat(tournament=t, seed="am")
    games = list(TableGame.objects.filter(table__round=rnd).order_by("number"))
    assert len(games) == 3 and [g.first for g in games] == [0, 1, 2]
    for g in games:
        services.table_game_play_ai(game=services.table_game_open_stream(game=g, all_ai=True))
    results = Result.objects.filter(game__table__round=rnd, status="confirmed")
    assert results.count() == 3 and all(sum(r.scores) == 0 for r in results)
    services.round_close(round=rnd)
    rows = selectors.tournament_standings(t)
    assert sum(r.metrics["wins"] for r in rows) >= 3 - sum(1 for r in results if len(r.winners) != 1)


def test_an_american_score_sheet(make_tournament):
    t = make_tournament(3, rounds=1, family="american", variant="american", table_size=3,
                        rules={"joker_penalty": 25})
    rnd = services.round_seat(tournament=t, seed="sheet")
    game = TableGame.objects.filter(table__round=rnd).order_by("number").first()
    result = services.result_record_score_sheet(game=game, racks=["", "R1 K13 J", "B2"])
    assert result.scores == [41, -39, -2] and result.winners == [0]      # a 1 counts 1, the joker 25
    second = TableGame.objects.filter(table__round=rnd).order_by("number")[1]
    with pytest.raises(services.LeagueError, match="appears 3 times"):
        services.result_record_score_sheet(game=second, racks=["R1 R1", "R1", ""])
    pool_empty = services.result_record_score_sheet(game=second, racks=["R2", "R9", "K4"])
    assert pool_empty.scores == [9, -7, -2] and pool_empty.winners == [0]


def test_an_international_score_sheet_says_how_the_game_was_won(make_tournament):
    t = make_tournament(3, rounds=1, family="american", variant="international-rummikub", table_size=3)
    rnd = services.round_seat(tournament=t, seed="intl")
    g1, g2, g3 = TableGame.objects.filter(table__round=rnd).order_by("number")
    with pytest.raises(services.LeagueError, match="say how the game was won"):
        services.score_sheet_check(game=g1, racks=["", "R12 K5", "B3"])
    with pytest.raises(services.LeagueError, match="type, 1-40"):
        services.score_sheet_check(game=g1, racks=["", "R12 K5", "B3"], american={"how": "closed"})
    # open: seat 2 had not melded (100); seat 1 had (R12 counts 10, K5 5); a joker discard doubles
    open_ = services.result_record_score_sheet(game=g1, racks=["", "R12 K5", "B3"], american={
        "how": "open", "melded": [True, True, False], "joker_discard": True})
    assert open_.scores == [200, -30, -200] and open_.winners == [0]
    # closed, seven pairs (type 35) with one joker: 1500; nobody else melded loses it
    closed = services.result_record_score_sheet(game=g2, racks=["K1 K2", "", "O4"], american={
        "how": "closed", "closed_type": 35, "closed_jokers": 1, "melded": [True, False, False]})
    assert closed.scores == [-12, 1500, -1500]              # a melded loser: 1 counts 10, 2 face value
    nobody = services.result_record_score_sheet(game=g3, racks=["K1", "R5 R6", "B9"],
                                                american={"melded": [True, True, False]})
    assert nobody.scores == [-10, -11, -100] and nobody.winners == []
    with pytest.raises(services.LeagueError, match="unknown sheet field"):
        services.score_sheet_check(game=g3, racks=["", "R5", "B9"], american={"how": "open", "bonus": 5})


def test_the_sheet_form_in_the_admin_and_on_the_phone(make_tournament, django_user_model):
    from django.test import Client
    from django.urls import reverse

    from league import table_entry

    t = make_tournament(3, rounds=1, family="american", variant="international-rummikub", table_size=3)
    rnd = services.round_seat(tournament=t, seed="forms")
    g1, g2 = TableGame.objects.filter(table__round=rnd).order_by("number")[:2]
    official = Client()
    official.force_login(django_user_model.objects.create_superuser("desk", "d@example.invalid", "pw"))
    url = reverse("admin:league_game_sheet", args=[g1.pk])
    page = official.get(url).content.decode()
    assert 'name="how"' in page and 'name="closed_type"' in page and "35. Seven pairs" in page
    response = official.post(url, {"rack_0": "", "rack_1": "R12 K5", "rack_2": "B3", "how": "open",
                                   "closed_jokers": "0", "melded_1": "on", "joker_discard": "on"})
    assert response.status_code == 302
    assert Result.objects.get(game=g1, status="confirmed").scores == [200, -30, -200]
    bad = official.post(url.replace(str(g1.pk), str(g2.pk)), {"rack_0": "", "rack_1": "R5", "rack_2": "B3",
                                                               "how": "closed", "closed_jokers": "0"})
    assert bad.status_code == 200 and "type, 1-40" in bad.content.decode()
    assert not Result.objects.filter(game=g2).exists()
    # the table's phone page offers the same sheet
    code = table_entry.table_entry_code(table=g1.table)
    phone = Client().get(f"/s/{code}/").content.decode()
    assert 'name="how"' in phone and "had melded" in phone


def test_the_demo_plays_an_international_tournament(capsys):
    from django.core.management import call_command

    from games.audit import audit_game
    from league.models import Tournament

    call_command("demo", players=4, rounds=1, no_admin=True, contract_players=0, okey_players=0,
                 international_players=4)
    out = capsys.readouterr().out
    assert "International Rummikub (a game per seat at each table and round):" in out
    assert "/t/demo-international/" in out
    t = Tournament.objects.get(slug="demo-international")
    assert (t.family, t.variant, t.status) == ("american", "international-rummikub", "finished")
    games = TableGame.objects.filter(table__round__tournament=t).select_related("stream")
    assert games.count() == 2 * 2 * 3                     # two rounds, two tables of three (AI filled)
    for g in games:
        assert g.stream.status == "finished" and audit_game(g.stream).ok
        assert Result.objects.get(game=g, status="confirmed").source == "moves"
