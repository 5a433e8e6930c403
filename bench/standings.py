"""How long standings take for a big league: 1,000 players, 20,000 games.

Usage::

    .venv/bin/python bench/standings.py                 # temporary SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_league \\
        .venv/bin/python bench/standings.py   # PostgreSQL (a scratch database)

One tournament of 1,000 players at tables of 4 (250 tables a round, four
games a table, 20 rounds: 20,000 games), scores from a seeded RNG, zero-sum.
Prints, each with a ratio against a reference measured in this process:

- pure standings (:func:`league.standings.compute_standings`, with
  head-to-head and fewest penalty points) against a bare reference: one dict
  tally and one sort by (wins, points);
- live standings from the result projection, and the rebuild (drop the
  projection, replay the 20,000 result events, standings again), both
  against the reference of reading the same 20,000 rows raw;
- ratings (openskill) over all games, for scale.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(fn, repeat=1):
    best = None
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best, out


def fake_scores(rng, n):
    """Zero-sum scores of one game: one player out, the others' racks."""
    racks = [rng.randint(1, 60) for _ in range(n)]
    winner = rng.randrange(n)
    racks[winner] = 0
    scores = [-v for v in racks]
    scores[winner] = sum(racks)
    return scores, [winner]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20000)
    opts = parser.parse_args(argv)
    tmp = None
    if not os.environ.get("DATABASE_URL"):
        tmp = tempfile.TemporaryDirectory()
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from league import selectors, services
    from league.models import (Club, Entry, Player, Result, ResultEvent, Round,
                               Seat, Table, TableGame, Tournament)
    from league.ratings import compute_ratings
    from league.standings import GameResult, compute_standings

    call_command("migrate", verbosity=0)
    rng = random.Random(2026)
    n, table_size = opts.players, 4
    tables_per_round = n // table_size
    rounds = max(1, opts.games // (tables_per_round * table_size))
    n_games = rounds * tables_per_round * table_size
    print(f"{n} players, {rounds} rounds x {tables_per_round} tables x {table_size} games "
          f"= {n_games} games; database {connection.vendor}")

    # --- the data ---------------------------------------------------------------
    t0 = time.perf_counter()
    results: list[GameResult] = []
    with transaction.atomic():
        club = Club.objects.create(name=f"Bench club {rng.random()}")
        tournament = Tournament.objects.create(name=f"Bench {club.name}", club=club,
                                               rounds=rounds, table_size=table_size,
                                               tiebreaks=["wins", "points", "h2h", "penalty"])
        players = Player.objects.bulk_create(
            [Player(name=f"Player {i:04}", club=club) for i in range(n)])
        entries = Entry.objects.bulk_create(
            [Entry(tournament=tournament, player=p, checked_in=True) for p in players])
        game_no = 0
        for r in range(1, rounds + 1):
            rnd = Round.objects.create(tournament=tournament, number=r, seed=f"b{r}",
                                       status=Round.Status.CLOSED)
            order = list(range(n))
            rng.shuffle(order)
            tables = Table.objects.bulk_create(
                [Table(round=rnd, number=k + 1) for k in range(tables_per_round)])
            seats, games, seating = [], [], []
            for k, table in enumerate(tables):
                members = order[k * table_size:(k + 1) * table_size]
                seating.append(members)
                seats += [Seat(table=table, position=i, entry=entries[m])
                          for i, m in enumerate(members)]
                games += [TableGame(table=table, number=g + 1, first=g)
                          for g in range(table_size)]
            Seat.objects.bulk_create(seats)
            games = TableGame.objects.bulk_create(games)
            events = []
            for gi, game in enumerate(games):
                members = seating[gi // table_size]
                scores, winners = fake_scores(rng, table_size)
                events.append(ResultEvent(game=game, version=1, type=ResultEvent.RECORDED,
                                          payload={"source": "score_sheet", "scores": scores,
                                                   "winners": winners}, actor="bench"))
                game_no += 1
                results.append(GameResult(
                    game=game_no, round=r,
                    scores={players[m].pk: s for m, s in zip(members, scores)},
                    winners={players[members[w]].pk for w in winners}, order=(r, game_no)))
            ResultEvent.objects.bulk_create(events)
        services.results_rebuild(tournament=tournament)
    print(f"setup: {time.perf_counter() - t0:.1f} s")

    # --- pure standings vs a bare tally-and-sort ---------------------------------
    def reference_sort():
        wins, points = {}, {}
        for g in results:
            for p, s in g.scores.items():
                points[p] = points.get(p, 0) + s
                wins[p] = wins.get(p, 0) + (p in g.winners)
        return sorted(points, key=lambda p: (-wins[p], -points[p]))

    ref_pure, _ = timed(reference_sort, repeat=3)
    pure, rows = timed(lambda: compute_standings(
        results, precedence=["wins", "points", "h2h", "penalty"]), repeat=3)
    assert len(rows) == n
    print(f"reference tally+sort:          {ref_pure * 1000:8.1f} ms")
    print(f"pure standings (4 criteria):   {pure * 1000:8.1f} ms   "
          f"ratio {pure / ref_pure:5.1f}x reference")

    # --- from the database --------------------------------------------------------
    def read_raw():
        return list(Result.objects.filter(status="confirmed",
                                          game__table__round__tournament=tournament)
                    .values_list("game_id", "scores", "winners"))

    ref_db, raw = timed(read_raw, repeat=3)
    assert len(raw) == n_games
    live, live_rows = timed(lambda: selectors.tournament_standings(tournament), repeat=3)

    def rebuild():
        services.results_rebuild(tournament=tournament)
        return selectors.tournament_standings(tournament, from_events=True)

    rebuilt, rebuilt_rows = timed(rebuild)

    def key(rows):
        return [(r.player, r.rank, r.tied, r.metrics) for r in rows]

    same = key(live_rows) == key(rebuilt_rows) == key(
        compute_standings(results, precedence=tournament.precedence,
                          players=[p.pk for p in players]))
    print(f"reference: read {n_games} result rows: {ref_db * 1000:8.1f} ms")
    print(f"live standings (projection):   {live * 1000:8.1f} ms   "
          f"ratio {live / ref_db:5.1f}x reading the rows")
    print(f"rebuild from events + standings:{rebuilt * 1000:7.1f} ms   "
          f"ratio {rebuilt / ref_db:5.1f}x reading the rows")
    print(f"live == rebuild == pure: {same}")
    rated, _ = timed(lambda: compute_ratings(results))
    print(f"ratings (openskill, {n_games} games): {rated * 1000:8.1f} ms   "
          f"ratio {rated / ref_pure:5.1f}x reference tally+sort")
    if tmp is None:
        print("(the rows stay in that database: result events are append-only; "
              "use a scratch database)")
    if tmp is not None:
        connection.close()
        tmp.cleanup()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
