"""Adding a family (docs/architecture.md): a new family writes its own
package and nothing else. Tally (``tests/families/tally/``: a game, its
description, its computer player) is registered from here and then plays
through the event store, the league's rounds and score sheets, AI seats and
the pages, none of which was told about it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from django.urls import reverse

sys.path.insert(0, str(Path(__file__).with_name("families")))
import tally  # noqa: E402  (registers the variant and the family)

from engine.registry import families, family_for, find_variant  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_the_family_is_found_through_the_registry():
    assert family_for("tally") is tally.FAMILY
    assert find_variant("tally-test") is tally.TallyGame
    assert families()[-1] is tally.FAMILY and families()[0].name == "rummikub"
    assert tally.FAMILY.games_per_table(3) == 3
    assert list(tally.FAMILY.ai_levels()) == ["first"]
    assert tally.FAMILY.variants() == [tally.TallyGame]
    assert not tally.FAMILY.analyses and family_for("okey").analyses


def test_league_and_games_never_name_it():
    for tree in ("league", "games", "templates"):
        for path in (ROOT / tree).rglob("*"):
            if path.suffix in (".py", ".html", ".js"):
                assert not re.search(r"""["']tally["']|Tally""", path.read_text(encoding="utf-8")), path


def _play_out(game_id: int) -> None:
    from games import services
    from games.models import Game

    while True:
        game = Game.objects.get(pk=game_id)
        state = services.load_state(game)
        if state.is_over:
            return
        version = game.version
        services.game_record_move(game=game_id, move=str(state.legal_moves()[0]), expected_version=version,
                                  seat=state.to_move)


def test_a_game_plays_through_the_event_store_and_is_drawn_on_the_pages(db, client):
    from games import services

    game = services.game_create(variant="tally", players=2, title="Tally night")
    token = services.seat_take(game=game, index=0, name="Ann")
    services.seat_take(game=game, index=1, name="Bo")
    client.post(reverse("games:play-enter"), {"token": token})
    page = client.get(reverse("games:play", args=[game.pk]))
    assert page.status_code == 200
    own = services.load_state(game).racks[0]
    rack = re.search(r'data-seat="0">.*?</tr>', page.content.decode(), re.S).group(0)
    assert [int(t) for t in re.findall(r'class="chip tile black" title="(\d+)"', rack)] == own
    assert 'placeholder="draw  or  play 7"' in page.content.decode()

    _play_out(game.pk)
    game.refresh_from_db()
    assert game.is_over and sum(game.scores) == 0
    detail = client.get(reverse("games:detail", args=[game.pk]))
    assert detail.status_code == 200 and "Tally night" in detail.content.decode()
    replay = client.get(reverse("games:detail", args=[game.pk]) + "?at=3")
    assert replay.status_code == 200 and 'class="board" data-family="tally"' in replay.content.decode()


def test_a_tournament_plays_its_rounds_and_reads_its_sheets(make_tally_tournament, client):
    from league import selectors, services
    from league.models import TableGame

    tournament = make_tally_tournament(6)
    rnd = services.round_seat(tournament=tournament, seed="tally-1")
    games = list(TableGame.objects.filter(table__round=rnd).order_by("table__number", "number"))
    assert len(games) == 6        # two tables of three, one game per seat

    # a sheet from a real table: read by the family, in one call
    result = services.result_record_score_sheet(game=games[0], sheet={"racks": ["", "5, 12", "3"]}, actor="ann")
    assert result.scores == [20, -17, -3] and result.winners == [0]
    with pytest.raises(services.LeagueError, match="tiles are 1 to 12"):
        services.score_sheet_check(game=games[1], sheet={"racks": ["", "13", "1"]})
    with pytest.raises(services.LeagueError, match="gives the racks, not hands"):
        services.score_sheet_check(game=games[1], sheet={"racks": ["", "1", "2"], "hands": [["1"]]})

    # the others by the family's computer player, through the games app
    for game in games[1:]:
        game = services.table_game_open_stream(game=game, all_ai=True)
        assert services.table_game_play_ai(game=game).scores is not None
    services.round_close(round=rnd)
    rows = selectors.tournament_standings(tournament)
    assert len(rows) == 6 and sum(r.metrics["wins"] for r in rows) >= 2

    assert client.get(reverse("league:tournament", args=[tournament.slug])).status_code == 200
    assert client.get(reverse("league:round", args=[tournament.slug, 1])).status_code == 200
    printed = client.get(reverse("league:round-print", args=[tournament.slug, 1])).content.decode()
    assert printed.count('<section class="page sheet"') == 2 and "Tally" in printed


@pytest.fixture
def make_tally_tournament(db):
    from league import services
    from league.models import Club, Player, Tournament

    def make(n: int) -> Tournament:
        club = Club.objects.create(name="Tally club")
        tournament = Tournament.objects.create(name="Tally cup", slug="tally-cup", club=club, family="tally",
                                               variant="tally", table_size=3, rounds=1, ai_level="first")
        for i in range(n):
            player = Player.objects.create(name=f"T{i + 1}", club=club)
            services.tournament_enter(tournament=tournament, player=player, checked_in=True)
        return tournament

    return make
