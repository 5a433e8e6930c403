"""The round desk (staff): every table's state on one screen (waiting,
playing, game over, result in, disputed), the round's clock, closing the
round; refusals in words, strangers sent to sign in."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import disputes
from games.ai_seats import ai_seats_play
from games.models import Event
from league import services
from league.models import Round, TableGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def official(client):
    user = get_user_model().objects.create_superuser("desk", "d@example.invalid", "pw")
    client.force_login(user)
    return client


def states(page: str) -> dict[int, str]:
    return {int(n): s for n, s in re.findall(r'<tr data-table="(\d+)" data-state="([a-z ]+)">', page)}


def test_the_desk_follows_each_table_and_the_round_clock(official, make_tournament):
    t = make_tournament(16, rounds=1, family="okey", variant="okey", table_size=4,
                        rules={"start_points": 2}, ai_level="greedy")
    rnd = services.round_seat(tournament=t, seed="desk")
    url = f"/t/{t.slug}/round/1/desk/"
    page = official.get(url).content.decode()
    assert states(page) == {1: "waiting", 2: "waiting", 3: "waiting", 4: "waiting"}
    assert 'http-equiv="refresh" content="15"' in page and "4 waiting" in page
    g1, g2, g3, g4 = TableGame.objects.filter(table__round=rnd).order_by("table__number")
    services.table_game_open_stream(game=g1)                      # people's seats, no move yet
    for g in (g2, g4):
        g = services.table_game_open_stream(game=g, all_ai=True)
        assert ai_seats_play(game_id=g.stream_id).status == "game-over"   # no result recorded yet
    services.table_game_play_ai(game=services.table_game_open_stream(game=g3, all_ai=True))
    g4.refresh_from_db()
    finish = Event.objects.filter(game_id=g4.stream_id, type="MoveRecorded",
                                  payload__move__startswith="finish").latest("version")
    disputes.dispute_open(game=g4.stream_id, move_version=finish.version, kind="winning_hand")
    page = official.get(url).content.decode()
    assert states(page) == {1: "playing", 2: "game over", 3: "result in", 4: "disputed"}
    assert "1 disputed" in page and "0 of 1 with a result" in page and "1 of 1 with a result" in page
    g3.refresh_from_db()
    assert f'href="/games/{g3.stream_id}/"' in page

    # the round's clock
    assert 'id="round-clock"' not in page
    response = official.post(url, {"action": "start"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.started_at is not None
    page = official.get(response["Location"]).content.decode()
    assert 'id="round-clock"' in page and "clock started" in page and 'id="start-clock"' not in page
    started = rnd.started_at
    official.post(url, {"action": "start"})                        # again: the same start
    rnd.refresh_from_db()
    assert rnd.started_at == started

    # closing is refused in words while tables have no result
    refused = official.post(url, {"action": "close"})
    assert refused.status_code == 400
    assert "cannot close: 3 game(s) have no result yet" in refused.content.decode()
    assert Round.objects.get(pk=rnd.pk).status != Round.Status.CLOSED
    assert official.post(url, {"action": "shuffle"}).status_code == 400


def test_strangers_are_sent_to_sign_in(make_tournament):
    t = make_tournament(4, rounds=1)
    services.round_seat(tournament=t, seed="x")
    response = Client().get(f"/t/{t.slug}/round/1/desk/")
    assert response.status_code == 302 and "/login/" in response["Location"]
