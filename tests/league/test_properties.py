"""Properties of the pure algorithms over many generated inputs."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from league.seating import SeatingError, meetings, seat_round, table_sizes
from league.standings import METRICS, GameResult, compute_standings


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 40), table_size=st.integers(3, 6), rounds=st.integers(1, 3),
       allow_ai=st.booleans(), method=st.sampled_from(["random", "standings"]),
       seed=st.text(max_size=8))
def test_everyone_seated_once_at_legal_tables(n, table_size, rounds, allow_ai, method, seed):
    history = []
    for r in range(rounds):
        try:
            seating = seat_round(list(range(n)), table_size=table_size, seed=f"{seed}{r}",
                                 history=history, method=method, allow_ai=allow_ai,
                                 iterations=2000)
        except SeatingError as exc:
            # Only refused when no split into tables of 3..size exists.
            assert not allow_ai and "cannot" in str(exc)
            assert all(not (3 * k <= n <= table_size * k) for k in range(1, n + 1))
            return
        people = [p for t in seating.tables for p in t if p is not None]
        assert sorted(people) == list(range(n))
        for t in seating.tables:
            assert (len(t) == table_size) if allow_ai else (3 <= len(t) <= table_size)
            assert any(p is not None for p in t)
        again = seat_round(list(range(n)), table_size=table_size, seed=f"{seed}{r}",
                           history=history, method=method, allow_ai=allow_ai,
                           iterations=2000)
        assert again.tables == seating.tables  # the seed decides
        before, _ = meetings(history)
        now, _ = meetings([seating.tables])
        # Each pair sharing a table now counts the times it met before.
        assert seating.repeat_mates == sum(before.get(pair, 0) for pair in now)
        history.append(seating.tables)
    assert sum(h + a for h, a in table_sizes(n, table_size, allow_ai=True)) % table_size == 0


scores = st.lists(st.integers(0, 60), min_size=2, max_size=4).map(
    lambda racks: [sum(racks) - racks[0] if i == 0 else -v for i, v in enumerate(racks)])


@settings(max_examples=80, deadline=None)
@given(games=st.lists(st.tuples(st.permutations(list("ABCDEF")), scores), min_size=1,
                      max_size=25),
       precedence=st.lists(st.sampled_from(sorted(METRICS)), min_size=1, max_size=4,
                           unique=True))
def test_ranks_follow_the_precedence_and_ties_share_a_rank(games, precedence):
    results = [GameResult(game=i, round=1 + i % 3,
                          scores=dict(zip(players, sc)))
               for i, (players, sc) in enumerate(games)]
    rows = compute_standings(results, precedence=precedence)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    for a, b in zip(rows, rows[1:]):
        if a.rank == b.rank:
            assert a.tied and b.tied
            assert all(a.metrics[k] == b.metrics[k] for k in precedence
                       if not METRICS[k].group_dependent)
        else:
            assert b.rank == a.rank + sum(1 for r in rows if r.rank == a.rank)
    # Points over everyone sum to zero: every game is zero-sum.
    assert sum(r.record.points for r in rows) == 0
