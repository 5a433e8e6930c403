"""Seating conflicts: pairs who must not sit at one table (family, a team),
entered on the round desk, kept apart by the seating and counted in the
desk's swap costs."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import seating_reads, services
from league.models import Player, SeatingConflict
from league.seating import SeatingError, seat_round, seating_conflicts

PAIRS = [(1, 2), (3, 4), (5, 6), (7, 8), (1, 3), (2, 4)]


@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e"])
def test_the_seating_keeps_every_pair_apart(seed):
    history = [[(1, 2, 3, 4), (5, 6, 7, 8)]]       # round 1 put every pair together
    seating = seat_round(list(range(1, 9)), table_size=4, seed=seed, history=history, conflicts=PAIRS)
    assert seating.conflicts == 0 and seating_conflicts(seating.tables, PAIRS) == []
    # without the conflicts, the same draw is free to put a pair together
    free = [seat_round(list(range(1, 13)), table_size=4, seed=s) for s in "abcdefgh"]
    assert any(seating_conflicts(f.tables, PAIRS) for f in free)


def test_a_pair_the_tables_cannot_separate_is_counted_and_a_bad_pair_refused():
    seating = seat_round([1, 2, 3, 4], table_size=4, seed="x", conflicts=[(1, 2)])
    assert seating.conflicts == 1
    with pytest.raises(SeatingError, match="two different players"):
        seat_round([1, 2, 3, 4], table_size=4, seed="x", conflicts=[(1, 1)])


@pytest.fixture
def official(db):
    client = Client()
    client.force_login(get_user_model().objects.create_user("desk", password="pw", is_staff=True))
    return client


def test_the_desk_enters_a_pair_the_seating_keeps_it_and_the_swap_cost_counts_it(make_tournament, official):
    t = make_tournament(8, rounds=2)
    rnd = services.round_seat(tournament=t, seed="c1")
    desk = f"/t/{t.slug}/round/1/desk/"
    # two players at one table of round 1 become a pair that must be apart
    first = rnd.tables.get(number=1)
    a, b = [s.entry.player for s in first.seats.order_by("position")[:2]]
    response = official.post(desk, {"action": "conflict-add", "player_a": a.pk, "player_b": b.pk,
                                    "reason": "sisters"})
    assert response.status_code == 302
    page = official.get(desk).content.decode()
    assert "sit together" in page and 'id="conflicts-together"' in page and "(sisters)" in page
    assert "1 pair who must not sit together shares a table" in page
    # the swap cost counts it: moving b to table 2 ends the conflict
    seat_b = first.seats.get(entry__player=b)
    other = rnd.tables.get(number=2).seats.order_by("position").first()
    cost = official.get(f"{desk}?a={seat_b.pk}&b={other.pk}").content.decode()
    assert re.search(r'class="cost-conflicts">1 → 0</b>', cost) and "better" in cost
    # a new draw of this round keeps them apart
    official.post(desk, {"action": "reseat"})
    layout, _ = seating_reads.round_layout(t.round_set.get(number=1))
    assert sum(len(table) for table in layout) == 8 and not seating_conflicts(layout, [(a.pk, b.pk)])
    assert 'id="conflicts-together"' not in official.get(desk).content.decode()
    # refused in words: the same player twice, a player not entered
    same = official.post(desk, {"action": "conflict-add", "player_a": a.pk, "player_b": a.pk})
    assert same.status_code == 400 and "choose two different players" in same.content.decode()
    stranger = Player.objects.create(name="Stranger")
    out = official.post(desk, {"action": "conflict-add", "player_a": a.pk, "player_b": stranger.pk})
    assert out.status_code == 400 and "Stranger is not entered" in out.content.decode()
    # the pair is stored once, lower id first; removed, they may meet again
    official.post(desk, {"action": "conflict-add", "player_a": b.pk, "player_b": a.pk})
    conflict = SeatingConflict.objects.get()
    assert (conflict.player_a_id, conflict.player_b_id) == tuple(sorted((a.pk, b.pk)))
    official.post(desk, {"action": "conflict-remove", "conflict": conflict.pk})
    assert not SeatingConflict.objects.exists()
