"""The post-game analyses summed per player on the tournament and the
player pages (league.analysis)."""

import pytest
from django.urls import reverse

from games.models import GameAnalysisRow
from league import analysis, handlers
from league.models import Seat, TableGame, Tournament


@pytest.fixture
def played(make_tournament):
    tournament = make_tournament(3, rounds=2, table_size=3, ai_level="random", rules={"rack_size": 7})
    handlers.tournament_autoplay_start(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def by_hand(tournament):
    """Each player's figures summed from the stored summaries, seat by seat."""
    sums = {}
    for game in TableGame.objects.filter(table__round__tournament=tournament):
        data = GameAnalysisRow.objects.get(game_id=game.stream_id).data
        seats = dict(Seat.objects.filter(table=game.table).values_list("position", "entry__player_id"))
        for s in data["summary"]:
            player = seats.get(s["seat"])
            if player is None:
                continue
            mine = sums.setdefault(player, {"games": 0, "misses": 0, "inaccuracies": 0, "placed": 0, "possible": 0})
            mine["games"] += 1
            for key in ("misses", "inaccuracies", "placed", "possible"):
                mine[key] += s[key]
    return sums


def test_every_finished_tournament_game_is_analysed_and_summed_per_player(played, client):
    review = analysis.tournament_analysis(played)
    assert review["games_pending"] == 0
    expected = by_hand(played)
    assert {p.player_id: {"games": p.games, "misses": p.misses, "inaccuracies": p.inaccuracies,
                          "placed": p.placed, "possible": p.possible} for p in review["players"]} == expected
    order = [(-p.accuracy, p.misses) for p in review["sharpest"]]
    assert order == sorted(order) and len(review["sharpest"]) == 3

    # the pages (one tournament played out serves the page checks too: it is slow)
    html = client.get(reverse("league:tournament", args=[played.slug])).content.decode()
    assert 'id="sharpest"' in html
    top = review["sharpest"][0]
    assert f'<tr data-player="{top.player_id}"><td>1</td>' in html and f"{top.percent} %" in html
    page = client.get(reverse("league:player", args=[top.player_id])).content.decode()
    # the player played only this tournament: the same figures
    assert 'id="analysis-figures"' in page and f"<td>{top.percent} %</td><td>{top.misses}</td>" in page

    # a game whose analysis is not stored yet is counted as pending
    first = TableGame.objects.filter(table__round__tournament=played).first()
    GameAnalysisRow.objects.filter(game_id=first.stream_id).delete()
    assert analysis.tournament_analysis(played)["games_pending"] == 1


def test_a_withheld_rounds_analyses_stay_off_the_public_pages(played, client, django_user_model):
    """An analysis says who played well, which is a result: while a round's
    results are withheld its games are left out of the public figures (the
    sharpest players, a player's page); the organiser sees them all."""
    everything = analysis.tournament_analysis(played)
    played.round_set.update(results_released=False)
    assert analysis.tournament_analysis(played, released_only=True)["players"] == []
    html = client.get(reverse("league:tournament", args=[played.slug])).content.decode()
    assert 'id="sharpest"' not in html
    top = everything["sharpest"][0]
    page = client.get(reverse("league:player", args=[top.player_id])).content.decode()
    assert 'id="analysis-figures"' not in page

    official = django_user_model.objects.create_user("desk", password="pw", is_staff=True)
    client.force_login(official)
    assert 'id="sharpest"' in client.get(reverse("league:tournament", args=[played.slug])).content.decode()
    assert 'id="analysis-figures"' in client.get(reverse("league:player", args=[top.player_id])).content.decode()
    client.logout()

    # one round released: the public figures are that round's games only
    first = played.round_set.get(number=1)
    first.results_released = True
    first.save(update_fields=["results_released"])
    public = analysis.tournament_analysis(played, released_only=True)
    games = {p.player_id: p.games for p in public["players"]}
    assert games and all(n < next(p.games for p in everything["players"] if p.player_id == pk)
                         for pk, n in games.items())
