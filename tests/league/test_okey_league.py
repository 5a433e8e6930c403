"""Okey tournaments in the league: a round is one match per table of four,
played through the games app by AI seats or written on a score sheet (each
game's winner, how, the okey thrown, With Color, the Compare Stone), scored
by the engine; standings by matches won, then the points kept."""

from __future__ import annotations

import pytest

from engine.errors import RecordError
from engine.okey import OkeyRules, score_match
from league import selectors, services
from league.models import TableGame
from league.services import LeagueError


@pytest.fixture
def okey_tournament(make_tournament):
    def make(n=4, rounds=1, **fields):
        fields.setdefault("rules", {"start_points": 6})
        fields.setdefault("ai_level", "greedy")
        return make_tournament(n, rounds=rounds, family="okey", variant="okey", table_size=4, **fields)
    return make


def only_game(rnd) -> TableGame:
    games = list(TableGame.objects.filter(table__round=rnd))
    assert len(games) == 1  # one match per table and round
    return games[0]


# --- the engine's sheet ---------------------------------------------------------
SHEET = [
    {"winner": 2},                                          # 4 4 6 4
    {"winner": None, "shown": 1},                           # 3 4 5 3 (the Compare Stone)
    {"winner": 0, "okey_finish": True},                     # 3 0 1 -1 (an okey thrown: 4)
]


def test_a_match_sheet_is_scored_game_by_game():
    sheet = score_match(SHEET, 4, {"start_points": 6})
    assert [g["points"] for g in sheet.games] == [[4, 4, 6, 4], [3, 4, 5, 3], [3, 0, 1, -1]]
    assert [g["loss"] for g in sheet.games] == [2, 0, 4]
    assert sheet.points == [3, 0, 1, -1] and sheet.winners == [0]


def test_with_color_and_seven_pairs_on_a_sheet():
    rules = OkeyRules(start_points=8, seven_pairs=True, with_color=True)
    sheet = score_match([{"winner": 1, "kind": "pairs", "okey_finish": True, "coloured": True}], 4, rules)
    assert sheet.games[0]["loss"] == 16 and sheet.points == [-8, 8, -8, -8]


@pytest.mark.parametrize("games,words", [
    ([{"winner": 4}], "the winner is a seat 0-3"),
    ([{"winner": 0, "kind": "pairs"}], "play no seven pairs"),
    ([{"winner": None, "okey_finish": True}], "nobody won"),
    ([{"winner": 0}], "the match is not over"),
    ([{"winner": 0}] * 4, "the match was over after game 3"),
    ([{"winner": 0, "by": "luck"}], "unknown field(s) by"),
])
def test_a_sheet_that_cannot_be_right_is_refused_by_name(games, words):
    with pytest.raises(RecordError) as exc:
        score_match(games, 4, {"start_points": 6})
    assert words in str(exc.value)


# --- the league ---------------------------------------------------------------------
def test_a_sheet_records_the_match_and_a_correction(okey_tournament):
    t = okey_tournament()
    game = only_game(services.round_seat(tournament=t, seed="o"))
    with pytest.raises(LeagueError, match="Okey sheet gives each game"):
        services.result_record_score_sheet(game=game, racks=["R1", "", "", ""])
    with pytest.raises(LeagueError, match="the match is not over"):
        services.result_record_score_sheet(game=game, okey_games=SHEET[:1])
    assert not game.results.exists()
    result = services.result_record_score_sheet(game=game, okey_games=SHEET, actor="official")
    assert result.scores == [3, 0, 1, -1] and result.winners == [0]
    assert result.event.payload["games"][2]["loss"] == 4
    fixed = services.result_record_score_sheet(
        game=game, okey_games=SHEET[:2] + [{"winner": 1, "okey_finish": True}], actor="official",
        correction=True)
    assert fixed.scores == [-1, 4, 1, -1] and fixed.winners == [1]
    assert game.result_events.count() == 2       # a correction is an event, never an edit


def test_tables_of_two_are_seated(make_tournament):
    """The new tournament form takes Okey at tables of 2: four players sit
    at two tables of two, each with its match; five cannot be split."""
    t = make_tournament(4, rounds=1, family="okey", variant="okey", table_size=2, rules={"start_points": 6})
    rnd = services.round_seat(tournament=t, seed="two")
    assert [table.seats.count() for table in rnd.tables.order_by("number")] == [2, 2]
    assert TableGame.objects.filter(table__round=rnd).count() == 2
    five = make_tournament(5, name="Five", rounds=1, family="okey", variant="okey", table_size=2)
    with pytest.raises(LeagueError, match="round 1: 5 players cannot be split into tables of 2 to 2 players"):
        services.round_seat(tournament=five, seed="five")


def test_an_okey_match_is_played_by_ai_seats_through_the_games_app(okey_tournament):
    from games.audit import audit_game
    from games.models import Event

    t = okey_tournament()
    game = only_game(services.round_seat(tournament=t, seed="ai"))
    game = services.table_game_open_stream(game=game, all_ai=True)
    stream = game.stream
    assert set(stream.seats.values_list("ai_level", flat=True)) == {"greedy"}
    result = services.table_game_play_ai(game=game)
    stream.refresh_from_db()
    assert stream.status == "finished" and result.source == "moves"
    # not zero-sum: the points each player keeps, the most wins
    assert result.scores == [int(s) for s in stream.scores] and min(result.scores) <= 0
    assert result.winners == [i for i, s in enumerate(result.scores) if s == max(result.scores)]
    moves = Event.objects.filter(game=stream, type="MoveRecorded")
    assert moves.filter(payload__move__startswith="finish").exists()
    assert audit_game(stream).ok
    services.round_close(round=game.table.round)
    rows = selectors.tournament_standings(t)
    assert sum(r.metrics["wins"] for r in rows) == len(result.winners)
    assert sorted(r.metrics["points"] for r in rows) == sorted(result.scores)
    assert rows[0].metrics["wins"] == 1


def test_autoplay_plays_an_okey_tournament_of_two_tables(okey_tournament):
    from games.audit import audit_game
    from league import handlers
    from league.models import Tournament

    t = okey_tournament(n=8, rounds=2, rules={"start_points": 4})
    handlers.tournament_autoplay_start(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    games = list(TableGame.objects.filter(table__round__tournament=t).select_related("stream"))
    assert len(games) == 4        # two tables, two rounds, one match each
    for game in games:
        assert game.stream.is_over and audit_game(game.stream).ok
        assert game.results.get(status="confirmed").scores == [int(s) for s in game.stream.scores]
    rows = selectors.tournament_standings(t)
    assert sum(r.record.played for r in rows) == 16
    # ranked by matches won, then points
    keys = [(r.metrics["wins"], r.metrics["points"]) for r in rows]
    assert keys == sorted(keys, reverse=True)


@pytest.fixture
def official(client, db):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_superuser("official", "o@example.invalid", "pw")
    client.force_login(user)
    return client


def test_admin_okey_sheet_form(official, okey_tournament):
    from django.urls import reverse

    from league.models import Result, ResultEvent

    t = okey_tournament()
    game = only_game(services.round_seat(tournament=t, seed="adm"))
    url = reverse("admin:league_game_sheet", args=[game.pk])
    page = official.get(url).content.decode()
    assert "One line per game of the match" in page and 'name="g20_winner"' in page
    lines = {"g1_winner": "2", "g2_winner": "none", "g2_shown": "1",
             "g3_winner": "0", "g3_okey": "on", "g3_kind": "melds"}
    short = official.post(url, {"g1_winner": "2"}).content.decode()
    assert "the match is not over" in short
    assert not ResultEvent.objects.filter(game=game).exists()
    assert official.post(url, lines).status_code == 302
    assert Result.objects.get(game=game, status="confirmed").scores == [3, 0, 1, -1]
    # the correction form starts from the sheet in force
    again = official.get(url).content.decode()
    assert '<input type="checkbox" name="g3_okey" id="id_g3_okey" checked>' in again
    assert '<option value="none" selected>nobody' in again


def test_the_printed_round_has_an_okey_match_sheet_per_table(official, okey_tournament):
    t = okey_tournament(n=8)
    services.round_seat(tournament=t, seed="paper")
    html = official.get(f"/t/{t.slug}/round/1/print/").content.decode()
    assert html.count('<table class="lines">') == 2          # one sheet per table of four
    assert "Compare Stone (seat)" in html and "Okey thrown" in html
    assert html.count("<td>6</td><td>6</td><td>6</td><td>6</td></tr>") == 2  # each seat starts from 6


def test_the_demo_plays_an_okey_tournament(db, capsys):
    from django.core.management import call_command

    from league.models import Result, Tournament

    call_command("demo", players=4, rounds=1, no_admin=True, contract_players=0, okey_players=4, international_players=0)
    out = capsys.readouterr().out
    assert "Okey (a match from 6 points per table and round):" in out and "/t/demo-okey/" in out
    assert "Standings (matches won, then points kept):" in out
    t = Tournament.objects.get(slug="demo-okey")
    assert t.status == Tournament.Status.FINISHED and t.family == "okey"
    results = Result.objects.filter(game__table__round__tournament=t, status="confirmed")
    assert results.count() == 2 and all(r.source == "moves" and min(r.scores) <= 0 for r in results)
    call_command("demo", players=4, rounds=1, no_admin=True, contract_players=0, okey_players=4, international_players=0)
    assert "The demo Okey tournament has already been played." in capsys.readouterr().out
