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
    assert "cannot close: 3 games have no result yet" in refused.content.decode()
    assert Round.objects.get(pk=rnd.pk).status != Round.Status.CLOSED
    assert official.post(url, {"action": "shuffle"}).status_code == 400


def test_strangers_are_sent_to_sign_in(make_tournament):
    t = make_tournament(4, rounds=1)
    services.round_seat(tournament=t, seed="x")
    response = Client().get(f"/t/{t.slug}/round/1/desk/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def _met(rnd) -> set[frozenset]:
    return {frozenset((a, b)) for table in rnd.tables.all()
            for a in table.seats.values_list("entry__player_id", flat=True)
            for b in table.seats.values_list("entry__player_id", flat=True) if a != b}


def test_two_seats_are_swapped_by_hand_with_the_cost_shown_first(official, make_tournament):
    """Before play begins the desk swaps two seats: it shows first what the
    swap does to repeat meetings (counted by hand here against round 1) and
    repeat seats, then swaps; a re-draw makes new tables; once the clock
    runs the seating is final and a swap is refused in words."""
    from league.models import Seat

    t = make_tournament(16, rounds=2)
    r1 = services.round_seat(tournament=t, seed="one")
    Round.objects.filter(pk=r1.pk).update(status=Round.Status.CLOSED)   # as if every result were in
    r2 = services.round_seat(tournament=t, seed="two")
    assert r2.repeat_mates == 0                     # 16 players at four tables of 4: no rematch needed
    met = _met(r1)
    one = list(Seat.objects.filter(table__round=r2, table__number=1).select_related("entry"))
    two = list(Seat.objects.filter(table__round=r2, table__number=2).select_related("entry"))
    a = one[0]
    b = next(s for s in two if frozenset((a.entry.player_id, s.entry.player_id)) not in met)
    # repeat meetings after the swap, counted by hand
    after = [[s.entry.player_id for s in one], [s.entry.player_id for s in two]]
    ia, ib = one.index(a), two.index(b)
    after[0][ia], after[1][ib] = b.entry.player_id, a.entry.player_id
    want = sum(1 for table in after for i, x in enumerate(table) for y in table[i + 1:]
               if frozenset((x, y)) in met)
    assert want > 0
    url = f"/t/{t.slug}/round/2/desk/"
    page = official.get(url, {"a": a.pk, "b": b.pk}).content.decode()
    assert 'id="swap-preview"' in page
    assert f'<b class="cost-mates">0 → {want}</b>' in page and "worse than the drawn seating" in page
    assert official.post(url, {"action": "swap", "seat_a": a.pk, "seat_b": b.pk}).status_code == 302
    a.refresh_from_db(); b.refresh_from_db(); r2.refresh_from_db()
    assert (a.entry.player_id, b.entry.player_id) == (after[0][ia], after[1][ib])
    assert r2.repeat_mates == want
    # bad picks: the same seat twice, a seat of another round
    bad = official.post(url, {"action": "swap", "seat_a": a.pk, "seat_b": a.pk})
    assert bad.status_code == 400 and "two different seats" in bad.content.decode()
    other = Seat.objects.filter(table__round=r1).first()
    bad = official.post(url, {"action": "swap", "seat_a": a.pk, "seat_b": other.pk})
    assert bad.status_code == 400 and "both seats must be of round 2" in bad.content.decode()
    # draw again: new tables from a new seed, no rematch
    assert official.post(url, {"action": "reseat"}).status_code == 302
    r2 = Round.objects.get(tournament=t, number=2)
    assert r2.seed != "two" and r2.repeat_mates == 0 and r2.tables.count() == 4
    assert TableGame.objects.filter(table__round=r2).count() == 16
    # the clock runs: the seating is final
    official.post(url, {"action": "start"})
    seats = list(Seat.objects.filter(table__round=r2).order_by("table__number", "position"))
    before = [s.entry_id for s in seats]
    bad = official.post(url, {"action": "swap", "seat_a": seats[0].pk, "seat_b": seats[-1].pk})
    assert bad.status_code == 400 and "clock has started: its seating is final" in bad.content.decode()
    assert [s.entry_id for s in Seat.objects.filter(table__round=r2).order_by("table__number", "position")] == before
    assert 'id="seating-change"' not in official.get(url).content.decode()


def test_the_check_in_desk_seats_the_next_round_and_the_desk_offers_the_one_after(official, make_tournament):
    t = make_tournament(8, rounds=2)
    desk = official.get(f"/t/{t.slug}/check-in/").content.decode()
    assert 'id="seat-round"' in desk and "Seat round 1" in desk
    response = official.post(f"/t/{t.slug}/check-in/", {"action": "seat"})
    assert response.status_code == 302 and response["Location"].startswith(f"/t/{t.slug}/round/1/desk/")
    assert "round%201%20seated%20at%202%20tables" in response["Location"]
    again = official.post(f"/t/{t.slug}/check-in/", {"action": "seat"})
    assert again.status_code == 400 and "round 1 is not closed yet" in again.content.decode()
    assert Round.objects.filter(tournament=t).count() == 1
    page = official.get(f"/t/{t.slug}/check-in/").content.decode()
    assert 'id="seat-round"' not in page and 'id="round-desk"' in page
    Round.objects.filter(tournament=t).update(status=Round.Status.CLOSED)
    closed = official.get(f"/t/{t.slug}/round/1/desk/").content.decode()
    assert 'id="seat-next"' in closed and "Seat round 2" in closed


def test_the_desk_opens_a_dispute_and_shows_the_verdict(official, make_tournament):
    """An Okey table played through the system: the organiser disputes the
    finishing move from the desk; the worker's verdict is shown there. A
    move that is not a finish, or no move number, is refused in words."""
    from games.models import Dispute

    t = make_tournament(4, rounds=1, family="okey", variant="okey", table_size=4,
                        rules={"start_points": 2}, ai_level="greedy")
    rnd = services.round_seat(tournament=t, seed="verdict")
    game = services.table_game_open_stream(game=TableGame.objects.get(table__round=rnd), all_ai=True)
    assert ai_seats_play(game_id=game.stream_id).status == "game-over"
    finish = Event.objects.filter(game_id=game.stream_id, type="MoveRecorded",
                                  payload__move__startswith="finish").latest("version")
    url = f"/t/{t.slug}/round/1/desk/"
    page = official.get(url).content.decode()
    assert 'class="open-dispute"' in page and '<option value="winning_hand">' in page
    bad = official.post(url, {"action": "dispute", "game": game.pk, "move": "", "kind": "winning_hand"})
    assert bad.status_code == 400 and "give the number of the move to dispute" in bad.content.decode()
    bad = official.post(url, {"action": "dispute", "game": game.pk, "move": finish.version - 1,
                              "kind": "winning_hand"})
    assert bad.status_code == 400 and not Dispute.objects.exists()
    response = official.post(url, {"action": "dispute", "game": game.pk, "move": finish.version,
                                   "kind": "winning_hand"})
    assert response.status_code == 302 and "dispute%20on%20move" in response["Location"]
    dispute = Dispute.objects.get()
    assert (dispute.actor, dispute.move_version) == ("desk", finish.version)
    assert states(official.get(url).content.decode()) == {1: "disputed"}
    disputes.dispute_resolve(dispute_id=dispute.pk)                  # what the worker does
    dispute.refresh_from_db()
    page = official.get(url).content.decode()
    assert f'data-dispute="{dispute.pk}" data-status="done"' in page
    assert '<b class="verdict">not upheld</b>' in page and dispute.summary in page


def test_the_desk_reads_a_round_in_as_many_queries_whatever_its_tables(make_tournament):
    """The desk's reads do not grow with the tables: the round's disputes
    and open sheet entries are one query each, the games' streams come
    with the tables."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league import selectors

    counts = []
    for players in (8, 16):
        t = make_tournament(players, rounds=1, family="okey", variant="okey", table_size=4,
                            rules={"start_points": 2}, ai_level="greedy", name=f"Desk {players}")
        rnd = services.round_seat(tournament=t, seed="desk-q")
        for g in TableGame.objects.filter(table__round=rnd):
            services.table_game_open_stream(game=g)
        with CaptureQueriesContext(connection) as ctx:
            tables = selectors.round_desk(rnd)
        assert len(tables) == players // 4 and all(t["state"] == "playing" for t in tables)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
