"""The demo's contract rummy tournament: played by AI seats through the
games app, every stream audited clean, standings by games won then fewest
points on its public page."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.audit import audit_game
from league import selectors
from league.models import Result, TableGame, Tournament


@pytest.mark.django_db
def test_demo_plays_a_recorded_contract_tournament(client, capsys):
    call_command("demo", players=4, rounds=1, contract_players=4, contract_rounds=1, no_admin=True,
                 okey_players=0, international_players=0)
    out = capsys.readouterr().out
    assert "Contract rummy (international, seven hands a game):" in out
    assert "Standings (games won, then fewest points):" in out and "/t/demo-contract/" in out
    t = Tournament.objects.get(slug="demo-contract")
    assert (t.family, t.status, t.table_size) == ("contract", "finished", 3)
    games = list(TableGame.objects.filter(table__round__tournament=t).select_related("stream"))
    # four players at tables of three: two tables, one filled with AI seats
    assert len(games) == 2
    for game in games:
        assert game.stream.status == "finished" and game.stream.family == "contract"
        assert audit_game(game.stream).ok
        result = Result.objects.get(game=game, status="confirmed")
        assert result.source == "moves" and result.scores == [-s for s in game.stream.scores]
    rows = selectors.tournament_standings(t)
    assert len(rows) == 4
    keyed = [(-r.metrics["wins"], r.metrics["penalty"]) for r in rows]
    assert keyed == sorted(keyed)           # games won, then fewest points
    html = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    names = [selectors.players_by_id([r.player])[r.player].name for r in rows]
    positions = [html.index(f">{name}</a>") for name in names]
    assert positions == sorted(positions)
    assert "fewer is better" in html and "seven hands" in html
    for r in rows:
        assert re.search(rf">{names[rows.index(r)]}</a>.*?<td>{r.metrics['penalty']}</td>", html, re.S)
    # running it again plays nothing new
    call_command("demo", players=4, rounds=1, contract_players=4, contract_rounds=1, no_admin=True,
                 okey_players=0, international_players=0)
    assert "demo contract tournament has already been played" in capsys.readouterr().out
    assert Result.objects.filter(game__table__round__tournament=t).count() == 2


@pytest.mark.django_db
def test_demo_prints_the_organisers_links_and_its_development_login(capsys, settings):
    """With DEBUG the demo makes its development admin (admin / admin) and
    says so next to the organiser's links, also on a second run."""
    from django.contrib.auth import get_user_model

    settings.DEBUG = True
    call_command("demo", players=4, rounds=1, contract_players=0, okey_players=0, international_players=0)
    out = capsys.readouterr().out
    assert "The organiser's evening (staff, signed in (demo login admin / admin: development only)):" in out
    for link in ("/accounts/login/?next=/t/demo-night/check-in/", "/tournaments/new/", "/t/demo-night/check-in/",
                 "/t/demo-night/round/1/desk/", "/t/demo-night/round/1/print.pdf", "/t/demo-night/projector/"):
        assert link in out, link
    assert get_user_model().objects.get(username="admin").check_password("admin")
    call_command("demo", players=4, rounds=1, contract_players=0, okey_players=0, international_players=0)
    assert "demo login admin / admin" in capsys.readouterr().out
