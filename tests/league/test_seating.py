"""Seating: a pure algorithm, no database."""

from itertools import combinations

import pytest

from league.seating import SeatingError, meetings, seat_round, table_sizes


def play_rounds(n, rounds, *, table_size=4, method="random", allow_ai=False,
                seed="s"):
    history = []
    for r in range(rounds):
        seating = seat_round(list(range(n)), table_size=table_size,
                             seed=f"{seed}-{r}", history=history,
                             method=method, allow_ai=allow_ai)
        history.append(seating.tables)
    return history


def repeat_pairs(history):
    pairs, _ = meetings(history)
    return {p: c for p, c in pairs.items() if c > 1}


def test_everyone_seated_once_per_round():
    for tables in play_rounds(13, 3):
        seated = [p for t in tables for p in t]
        assert sorted(seated) == list(range(13))


@pytest.mark.parametrize("n,table_size,rounds", [
    (16, 4, 3),   # 16 players, tables of 4: three rounds with no rematch
    (9, 3, 4),    # 9 players, tables of 3: the affine plane, four rounds
    (20, 4, 3),
    (13, 4, 3),   # mixed sizes 4+3+3+3
])
def test_no_repeat_table_mates_where_possible(n, table_size, rounds):
    history = play_rounds(n, rounds, table_size=table_size)
    assert repeat_pairs(history) == {}


def test_unavoidable_rematch_is_kept_minimal():
    # 8 players at two tables of 4: in round 2 each new table takes players
    # from both old tables, so at least 2 + 2 pairs meet again, and no more.
    history = play_rounds(8, 2)
    second = seat_round(list(range(8)), seed="x", history=history[:1])
    assert second.repeat_mates == 4


def test_random_round_one_is_reproducible_from_its_seed():
    a = seat_round(list("ABCDEFGH"), seed="club-night")
    b = seat_round(list("ABCDEFGH"), seed="club-night")
    c = seat_round(list("ABCDEFGH"), seed="other-night")
    assert a.tables == b.tables
    assert a.tables != c.tables


@pytest.mark.parametrize("n,expected", [
    (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]), (11, [4, 4, 3]),
    (13, [4, 3, 3, 3]), (7, [4, 3]), (3, [3]),
])
def test_mixed_table_sizes(n, expected):
    assert [h for h, ai in table_sizes(n, 4)] == expected
    tables = seat_round(list(range(n)), seed="m").tables
    assert sorted((len(t) for t in tables), reverse=True) == expected


@pytest.mark.parametrize("n", [1, 2, 5])
def test_counts_that_cannot_be_split_are_refused(n):
    with pytest.raises(SeatingError, match="allow AI seats"):
        seat_round(list(range(n)), seed="x")


def test_ai_seats_fill_short_tables():
    seating = seat_round(list(range(5)), seed="ai", allow_ai=True)
    assert [len(t) for t in seating.tables] == [4, 4]
    assert sum(p is None for t in seating.tables for p in t) == 3
    assert all(any(p is not None for p in t) for t in seating.tables)
    assert table_sizes(10, 4, allow_ai=True) == [(4, 0), (3, 1), (3, 1)]


def test_standings_method_groups_similar_ranks():
    ranked = [f"P{i:02}" for i in range(16)]
    seating = seat_round(ranked, seed="r", method="standings")
    tables = [sorted(t) for t in seating.tables]
    assert tables[0] == ranked[:4]
    assert tables[3] == ranked[12:]


def test_standings_method_avoids_rematches_before_rank_order():
    ranked = list(range(16))
    history = [seat_round(ranked, seed="r1", method="standings").tables]
    second = seat_round(ranked, seed="r2", method="standings", history=history)
    assert second.repeat_mates == 0
    # No rematch forces one player from each first-round table onto every
    # table; still by rank: table 1 holds the best of each, the last the worst.
    assert sorted(second.tables[0]) == [0, 4, 8, 12]
    assert sorted(second.tables[-1]) == [3, 7, 11, 15]


def test_repeat_seats_are_spread():
    # 4 players at one table for 4 rounds: each seat once per player.
    history = []
    for r in range(4):
        history.append(seat_round(list("ABCD"), seed=f"q{r}", history=history).tables)
    _, seats = meetings(history)
    assert all(seats[(p, s)] == 1 for p in "ABCD" for s in range(4))


def test_bad_input_named():
    with pytest.raises(SeatingError, match="listed twice: A"):
        seat_round(["A", "A", "B", "C"], seed="x")
    with pytest.raises(SeatingError, match="unknown seating method 'swiss'"):
        seat_round(list("ABCD"), seed="x", method="swiss")
    with pytest.raises(SeatingError, match="table size must be at least 2"):
        table_sizes(4, 1)


def test_pairs_counted_from_history():
    pairs, seats = meetings([[("A", "B", None)], [("B", "A", "C")]])
    assert pairs[frozenset("AB")] == 2
    assert pairs[frozenset("AC")] == 1
    assert seats[("A", 0)] == 1 and seats[("A", 1)] == 1
    assert all(None not in k for k in pairs)
    assert list(combinations("AB", 2))  # sanity of the helper import
