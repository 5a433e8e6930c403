"""A tournament game's seat page offers the next game of the round at that
table (its stream opened by the first seat that asks), and nothing after
the round's last game there."""

from __future__ import annotations

import pytest

from games import next_game
from games import services as game_services
from games.ai_seats import ai_seats_play
from games.models import Game
from league import services
from league.models import TableGame

pytestmark = pytest.mark.django_db


def test_the_next_game_of_a_round_follows_a_tournament_game(make_tournament):
    t = make_tournament(3, rounds=1, variant="sabra", table_size=3, ai_level="greedy")
    rnd = services.round_seat(tournament=t, seed="next")
    games = list(TableGame.objects.filter(table__round=rnd).order_by("number"))
    assert len(games) == 3  # a Rummikub round: one game per seat
    first = services.table_game_open_stream(game=games[0], all_ai=True)
    assert ai_seats_play(game_id=first.stream_id).status == "game-over"
    stream = Game.objects.get(pk=first.stream_id)
    assert next_game.next_game_kind(stream) == "round"
    nxt = next_game.game_next(game=stream)
    games[1].refresh_from_db()
    assert nxt is not None and nxt.pk == games[1].stream_id and nxt.first == games[1].first
    assert "game 2" in nxt.title and nxt.variant == "sabra"
    assert next_game.game_next(game=stream).pk == nxt.pk  # asked again: the same game
    # the round's last game at the table has no next game
    last = services.table_game_open_stream(game=games[-1], all_ai=True)
    assert ai_seats_play(game_id=last.stream_id).status == "game-over"
    assert next_game.game_next(game=Game.objects.get(pk=last.stream_id)) is None


def test_a_game_outside_a_tournament_is_a_rematch():
    game = game_services.game_create(variant="okey", players=4)
    assert next_game.next_game_kind(game) == "rematch"


def test_the_round_page_shows_the_tables_in_play_in_miniature(client, make_tournament):
    t = make_tournament(3, rounds=1, variant="sabra", table_size=3, ai_level="greedy")
    rnd = services.round_seat(tournament=t, seed="live")
    assert 'id="round-live"' not in client.get(f"/t/{t.slug}/round/1/").content.decode()  # nothing in play
    games = list(TableGame.objects.filter(table__round=rnd).order_by("number"))
    opened = services.table_game_open_stream(game=games[0])
    page = client.get(f"/t/{t.slug}/round/1/").content.decode()
    assert page.count('class="mini-table"') == 1
    assert f'data-game="{opened.stream_id}"' in page and f"/ws/games/\" + id + \"/watch/" in page
    assert "Table 1, game 1" in page
