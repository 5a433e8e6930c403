"""Fair standings: players without a game are listed apart (never ranked
above players who played), withdrawals are marked, and a tournament may
rank by a rate fair across tables of 4 and 3 (games won per game played,
points per game, the table score), its tie-breaks following.

The evening: 17 players entered. Q never comes (a no-show). Round 1 seats
the other 16 at four tables of 4; P withdraws after it; round 2 seats 15 at
tables of 4, 4, 4 and 3. At every table the first seat goes out in games 1
and 2, the second in game 3, the third in game 4 (a table of 3 plays three
games: the first seat in games 1 and 2, the second in game 3); every other
rack holds one 5 (R5, B5, K5: -5 each; the winner takes 15 at a table of 4, 10 at a
table of 3). The expected table below is worked out by hand in the
comments, not by the code under test."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from league import selectors, services
from league.models import Club, Entry, Player, Round, Seat, Table, TableGame, Tournament
from league.standings import GameResult, compute_standings, ranked_precedence

pytestmark = pytest.mark.django_db

ROUND_1 = ["ABCD", "EFGH", "IJKL", "MNOP"]
ROUND_2 = ["AEIB", "FJCG", "KDHL", "MNO"]
#: who goes out in each game, by seat position, for a table of 4 and of 3
OUT = {4: [0, 0, 1, 2], 3: [0, 0, 1]}


def _seat_round(t, number, tables, entries):
    rnd = Round.objects.create(tournament=t, number=number, seed=f"hand-{number}",
                               seating_method="random", status=Round.Status.SEATED)
    t.status = Tournament.Status.RUNNING
    t.save(update_fields=["status"])
    for i, names in enumerate(tables):
        table = Table.objects.create(round=rnd, number=i + 1)
        for pos, name in enumerate(names):
            Seat.objects.create(table=table, position=pos, entry=entries[name])
        for k in range(len(names)):
            game = TableGame.objects.create(table=table, number=k + 1, first=k)
            out = OUT[len(names)][k]
            fives = iter(["R5", "B5", "K5"])
            racks = ["" if pos == out else next(fives) for pos in range(len(names))]
            services.result_record_score_sheet(game=game, racks=racks, actor="official")
    return services.round_close(round=rnd)


@pytest.fixture
def evening():
    club = Club.objects.create(name="Fair club")
    t = Tournament.objects.create(name="Fair night", club=club, rounds=3, variant="sabra")
    entries = {}
    for name in "ABCDEFGHIJKLMNOPQ":
        player = Player.objects.create(name=name, club=club)
        entries[name] = services.tournament_enter(tournament=t, player=player, checked_in=name != "Q")
    _seat_round(t, 1, ROUND_1, entries)
    services.entry_withdraw(entry=entries["P"])
    _seat_round(t, 2, ROUND_2, entries)
    return t


# Per seat: (games, wins, points, sum of the share of the table outscored).
# A table of 4, losers tied at -5: a winner outscores all 3 (share 1), a
# loser ties 2 and beats none (share 1/3). Seat 1: 2 wins, 15+15-5-5 = 20,
# share 1+1+1/3+1/3 = 8/3; seats 2 and 3: 1 win, 0, share 2; seat 4: no
# win, -20, share 4/3. A table of 3: seat 1 2 wins 10+10-5 = 15, share
# 1+1+1/4 = 9/4; seat 2 1 win, 0, share 3/2; seat 3 -15, share 3/4.
# A: 1st twice, 8 games, 4 wins, 40, share 16/3 -> table score 66.7
# M: 1st at a 4 then 1st at a 3: 7 games, 4 wins, 35, share 8/3+9/4 -> 70.2
# E, F, I, K: a 1st and a 2nd/3rd: 8 games, 3 wins, 20, share 14/3 -> 58.3
# C, J: 2nd/3rd twice: 2 wins, 0, share 4 -> 50.0; N: 2nd at a 4 and at a 3:
#   7 games, 2 wins, 0, share 7/2 -> 50.0
# B, D, G, H: a 2nd/3rd and a 4th: 1 win, -20, share 10/3 -> 41.7
# O: 3rd at a 4 then 3rd at a 3: 7 games, 1 win, -15, share 11/4 -> 39.3
# L: 4th twice: 0 wins, -40, share 8/3 -> 33.3; P: 4th once, withdrew:
#   4 games, 0 wins, -20, share 4/3 -> 33.3.  Q: no game.
#
# Head-to-head (games where tied players met, others outscored):
# E, F, I, K: round 1 E beat F in games 1-2, F beat E in game 3 (game 4
#   both -5): E 2, F 1; I beat K in 1-2, K beat I in 4: I 2, K 1; round 2
#   E and I at one table: E won game 3, I game 4: E 3, I 3, F 1, K 1. Every
#   one of them lost 5 racks: penalty 25 each, still level.
# C, J, N: C and J met in round 2 (J won game 3, C game 4): 1 each, N 0;
#   C and J both lost 6 racks (30): level.
# B, D, G, H: one each (B over D in round 1, G over H, D and H one each in
#   round 2), B 1, D 1, G 1, H 1... every one lost 7 racks (35): level.
TABLE_SCORE = [  # rank label, player, games, wins, points, table score
    ("1", "M", 7, 4, 35, 70.2), ("2", "A", 8, 4, 40, 66.7),
    ("3=", "E", 8, 3, 20, 58.3), ("3=", "I", 8, 3, 20, 58.3),
    ("5=", "F", 8, 3, 20, 58.3), ("5=", "K", 8, 3, 20, 58.3),
    ("7=", "C", 8, 2, 0, 50.0), ("7=", "J", 8, 2, 0, 50.0), ("9", "N", 7, 2, 0, 50.0),
    ("10=", "B", 8, 1, -20, 41.7), ("10=", "D", 8, 1, -20, 41.7),
    ("10=", "G", 8, 1, -20, 41.7), ("10=", "H", 8, 1, -20, 41.7),
    ("14", "O", 7, 1, -15, 39.3),
    ("15", "P", 4, 0, -20, 33.3), ("16", "L", 8, 0, -40, 33.3),
]
# Games won first (the old way): A's 4 wins in 8 games and M's 4 in 7 tie,
# points put A (40) over M (35); O's 1 win and -15 comes before B, D, G, H.
WINS = [("1", "A"), ("2", "M"), ("3=", "E"), ("3=", "I"), ("5=", "F"), ("5=", "K"),
        ("7=", "C"), ("7=", "J"), ("9", "N"), ("10", "O"), ("11=", "B"), ("11=", "D"),
        ("11=", "G"), ("11=", "H"), ("15", "P"), ("16", "L")]


def _named(rows):
    names = selectors.players_by_id(r.player for r in rows)
    return names


def _by_rank(rows):
    """Rows in rank order, a shared rank's players by name (the standings
    order them by id)."""
    return sorted(rows, key=lambda row: (row[0].rstrip("=").zfill(3), row[1]))


def test_the_table_score_ranks_the_hand_computed_table(evening):
    evening.ranking = Tournament.Ranking.TABLE_SCORE
    evening.save()
    assert evening.precedence == ["table_score", "wins", "points", "h2h", "penalty"]
    rows = selectors.tournament_standings(evening)
    names = _named(rows)
    ranked = [(r.rank_label, names[r.player].name, r.record.played, r.metrics["wins"],
               r.metrics["points"], r.metrics["table_score"]) for r in rows if r.ranked]
    assert _by_rank(ranked) == TABLE_SCORE
    # the no-show is listed apart, after everyone who played, unranked
    assert [(names[r.player].name, r.rank, r.rank_label) for r in rows if not r.ranked] == [("Q", None, "–")]
    assert rows[-1].player == Player.objects.get(name="Q").pk


def test_games_won_first_favours_the_tables_of_four(evening):
    rows = selectors.tournament_standings(evening)
    names = _named(rows)
    assert _by_rank([(r.rank_label, names[r.player].name) for r in rows if r.ranked]) == WINS
    assert not rows[-1].ranked and names[rows[-1].player].name == "Q"


def test_games_won_per_game_played_and_points_per_game(evening):
    evening.ranking = Tournament.Ranking.WIN_RATE
    evening.save()
    rows = selectors.tournament_standings(evening)
    names = _named(rows)
    # M 4/7 = 0.571 over A 4/8 = 0.5; E, F, I, K 3/8 = 0.375; N 2/7 = 0.286
    top = _by_rank([(r.rank_label, names[r.player].name, r.metrics["win_rate"]) for r in rows[:7]])
    assert top == [("1", "M", 0.571), ("2", "A", 0.5), ("3=", "E", 0.375), ("3=", "I", 0.375),
                   ("5=", "F", 0.375), ("5=", "K", 0.375), ("7", "N", 0.286)]
    evening.ranking = Tournament.Ranking.POINTS_PER_GAME
    evening.save()
    rows = selectors.tournament_standings(evening)
    # A 40/8 = 5.0 and M 35/7 = 5.0 level; wins level (4); points: A 40 > M 35
    assert [(r.rank_label, names[r.player].name, r.metrics["avg"]) for r in rows[:2]] == [
        ("1", "A", 5.0), ("2", "M", 5.0)]
    assert evening.precedence == ["avg", "wins", "points", "h2h", "penalty"]


def test_the_standings_page_and_csv_show_the_basis_the_withdrawal_and_the_no_show(evening):
    evening.ranking = Tournament.Ranking.TABLE_SCORE
    evening.save()
    page = Client().get(f"/t/{evening.slug}/").content.decode()
    assert 'id="ranking"' in page and "Ranked by table score" in page
    assert "withdrew after round 1" in page
    unranked = page.split('id="unranked"')[1]
    assert ">Q</a>" in unranked and "not checked in" in unranked
    assert ">Q</a>" not in page.split('id="unranked"')[0]
    response = Client().get(f"/t/{evening.slug}/standings.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "player", "club", "games", "Table score", "Games won", "Points",
                       "Head-to-head", "Fewest penalty points", "note"]
    assert rows[1][:5] == ["1", "M", "Fair club", "7", "70.2"]
    by_name = {r[1]: r for r in rows[1:]}
    assert by_name["P"][0] == "15" and by_name["P"][-1] == "withdrew after round 1"
    assert rows[-1][:4] == ["", "Q", "Fair club", "0"] and rows[-1][-1] == "not checked in"


def test_a_late_arrival_not_yet_seated_is_listed_apart():
    results = [GameResult(game=1, round=1, scores={"A": 5, "B": -5}),
               GameResult(game=2, round=1, scores={"A": -7, "B": 7})]
    rows = compute_standings(results, players=["A", "B", "Late"],
                             precedence=ranked_precedence("table_score", []))
    assert [(r.player, r.rank_label) for r in rows] == [("B", "1"), ("A", "2"), ("Late", "–")]
    assert rows[0].metrics["table_score"] == 50.0


def test_the_ranking_is_chosen_on_the_new_tournament_form(django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_user("desk", password="pw", is_staff=True))
    page = client.get("/tournaments/new/").content.decode()
    assert 'name="ranking"' in page and 'value="table_score"' in page
    response = client.post("/tournaments/new/", {
        "variant": "sabra", "name": "Fair", "table_size": "4", "rounds": "3",
        "seating_method": "random", "ranking": "win_rate"})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Fair").ranking == "win_rate"
    bad = client.post("/tournaments/new/", {
        "variant": "sabra", "name": "Bad", "table_size": "4", "rounds": "3",
        "seating_method": "random", "ranking": "luck"})
    assert bad.status_code == 400 and not Tournament.objects.filter(name="Bad").exists()
