"""Event store speed on SQLite and PostgreSQL.

Prints, per database:

- appends/s: moves recorded through ``games.services.game_record_move``, one
  move per transaction as play does (load the projection, check the move in
  the engine, append the event, update the projection, commit), and raw
  ``eventstore.append`` of one event per transaction; each with its ratio
  to a reference run in the same process: a bare one-row INSERT per
  transaction on the same database (the most any store could do).
- replay events/s: whole streams loaded and rebuilt through the engine
  (every event, no snapshot), with its ratio to replaying the same games
  from their text records with :mod:`engine.records` in memory (the engine
  alone, no database).

- moves/s through the service by 4 writers at once, each its own games and
  connection, as a server records the moves of many games at a time.

- what a move costs besides the commit: the CPU time per move of this
  process and (PostgreSQL on this machine) of the database process that
  served it, over the one-writer run; and the statements a move sends
  (their first words, as Django runs them: a COMMIT, and on PostgreSQL a
  BEGIN, goes through the driver and is not counted), over three more
  games, untimed.

Targets: moves >= 1,000/s on PostgreSQL with one writer and with 4, replay
>= 20,000 events/s. DEBUG is off, and the tasks a move queues (a finished
game's analysis) go to a broker nothing consumes (``memory://``), as a
deployment hands them to its workers: the figures are the store's.

    .venv/bin/python bench/eventstore.py [--games 20] [--pg postgres://postgres@127.0.0.1:5432/tablekeeper_bench]

The PostgreSQL run uses its own database (created and dropped here).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRITERS = 4  # concurrent writers of the parallel move measurement
sys.path.insert(0, str(ROOT))


def _games(n: int, players: int = 3):
    """``n`` seeded Sabra games played by random AI, as move lists."""
    from engine.rummikub.ai.random_player import RandomPlayer
    from engine.registry import find_variant

    cls = find_variant("sabra")
    out = []
    for i in range(n):
        game = cls.new(players, seed=f"bench-{i}")
        ai = RandomPlayer(i)
        moves = []
        while not game.is_over:
            move = ai.choose(game)
            moves.append(str(move))
            game.push(move)
        out.append(moves)
    return out


def run_backend(n_games: int) -> dict:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from engine.records import replay_text, write_game
    from games import eventstore as es
    from games import services
    from games.models import Game

    call_command("migrate", verbosity=0)
    plays = _games(n_games)

    # reference: one bare INSERT per transaction
    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS bench_ref")
        cur.execute("CREATE TABLE bench_ref (id integer PRIMARY KEY, body text)")
    body = json.dumps({"seat": 1, "move": "play R10 R11 R12 -> [R10 R11 R12]", "outcome": "played"})
    n_ref = 1500
    t = time.perf_counter()
    for i in range(n_ref):
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute("INSERT INTO bench_ref (id, body) VALUES (%s, %s)", [i, body])
    ref_rate = n_ref / (time.perf_counter() - t)

    # raw event store appends, one event per transaction
    stream = Game.objects.create(family="bench", variant="sabra", players=2)
    n_raw = 1500
    t = time.perf_counter()
    for v in range(n_raw):
        es.append(stream.pk, expected_version=v, events=[("BenchNoted", {"seat": v % 3, "move": "draw"})])
    raw_rate = n_raw / (time.perf_counter() - t)

    # moves through the service, one per transaction
    games = [services.game_create(variant="sabra", players=3) for _ in plays]
    # replay the secret seeds' games? the service shuffles from its own
    # secret seed, so re-derive each game's moves for its own deal:
    from engine.rummikub.ai.random_player import RandomPlayer

    scripts = []
    for i, game in enumerate(games):
        state = services.load_state(game)
        ai = RandomPlayer(i)
        moves = []
        while not state.is_over:
            move = ai.choose(state)
            moves.append(str(move))
            state.push(move)
        scripts.append(moves)
    backend_cpu = _backend_cpu(connection)
    n_moves = 0
    cpu, db_cpu = time.process_time(), backend_cpu()
    t = time.perf_counter()
    for game, moves in zip(games, scripts):
        version = game.version
        for move in moves:
            version = services.game_record_move(game=game.pk, move=move, expected_version=version).version
            n_moves += 1
    move_rate = n_moves / (time.perf_counter() - t)
    cpu_ms = (time.process_time() - cpu) / n_moves * 1000
    db_cpu_ms = None if db_cpu is None else (backend_cpu() - db_cpu) / n_moves * 1000

    # what a move sends: the statements of each move of a few more games
    # (not timed), by their first word, the most common shapes first
    from collections import Counter

    shapes: Counter = Counter()
    seen: list[str] = []

    def count(execute, sql, params, many, context):
        seen.append(sql.split(None, 1)[0].upper())
        return execute(sql, params, many, context)

    for i in range(3):
        game = services.game_create(variant="sabra", players=3)
        state, ai, version = services.load_state(game), RandomPlayer(200 + i), game.version
        while not state.is_over:
            move = ai.choose(state)
            state.push(move)
            seen.clear()
            with connection.execute_wrapper(count):
                version = services.game_record_move(game=game.pk, move=str(move), expected_version=version).version
            shapes[" ".join(seen)] += 1

    # the same through several writers at once (a server records moves of
    # many games at a time): WRITERS threads, each its own games and connection
    import threading

    from django.db import connection as conn_of_thread

    more = [services.game_create(variant="sabra", players=3) for _ in plays]
    more_scripts = []
    for i, game in enumerate(more):
        state = services.load_state(game)
        ai = RandomPlayer(100 + i)
        moves = []
        while not state.is_over:
            move = ai.choose(state)
            moves.append(str(move))
            state.push(move)
        more_scripts.append((game, moves))
    n_par = sum(len(m) for _, m in more_scripts)

    def writer(k):
        try:
            for game, moves in more_scripts[k::WRITERS]:
                version = game.version
                for move in moves:
                    version = services.game_record_move(game=game.pk, move=move, expected_version=version).version
        finally:
            conn_of_thread.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(WRITERS)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    par_rate = n_par / (time.perf_counter() - t)

    # replay whole streams through the engine (no snapshots)
    n_events = sum(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("version", flat=True))
    t = time.perf_counter()
    for game in games:
        services.state_from_stream(game, use_snapshots=False)
    replay_rate = n_events / (time.perf_counter() - t)
    # reference: the same games replayed from their records, in memory
    texts = [write_game(services.state_from_stream(g, use_snapshots=False)) for g in games]
    t = time.perf_counter()
    for text in texts:
        replay_text(text)
    engine_rate = n_events / (time.perf_counter() - t)

    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS bench_ref")
    return {"vendor": connection.vendor, "ref_inserts": ref_rate, "raw_appends": raw_rate,
            "move_appends": move_rate, "moves": n_moves, "parallel_moves": par_rate,
            "cpu_ms": cpu_ms, "db_cpu_ms": db_cpu_ms, "shapes": shapes.most_common(), "replay": replay_rate, "events": n_events,
            "engine_replay": engine_rate}


def _backend_cpu(connection):
    """A function giving the CPU seconds used so far by the database
    process serving ``connection`` (PostgreSQL on this machine: its
    backend's /proc entry), or giving ``None`` where that cannot be read."""
    if connection.vendor != "postgresql":
        return lambda: None
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        stat = Path(f"/proc/{cur.fetchone()[0]}/stat")
    tick = os.sysconf("SC_CLK_TCK")

    def used():
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / tick  # utime + stime

    return used if used() is not None else (lambda: None)


def child(url: str, n_games: int) -> dict:
    import secrets

    # production mode: DEBUG off (Django records every query when it is on)
    env = dict(os.environ, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0",
               SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="localhost")
    # the tasks a move queues (the finished game's analysis) go to a broker,
    # as in a deployment, and are not run inside the timed moves: an
    # in-process broker that nothing consumes
    env["CELERY_BROKER_URL"] = "memory://"
    proc = subprocess.run([sys.executable, __file__, "--child", "--games", str(n_games)],
                          env=env, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark on {url} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per database (default 20)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/tablekeeper_bench",
                        help="PostgreSQL URL of a database this bench may create and drop")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_backend(args.games)))
        return 0
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        results.append(child(f"sqlite:///{tmp}/bench.sqlite3", args.games))
    if not args.no_pg:
        import psycopg
        from dj_database_url import parse

        cfg = parse(args.pg)
        admin = dict(host=cfg["HOST"] or "127.0.0.1", port=cfg["PORT"] or 5432, user=cfg["USER"] or "postgres",
                     password=cfg["PASSWORD"] or None, dbname="postgres", autocommit=True)
        name = cfg["NAME"]
        if name in ("postgres", "test", "root", "template0", "template1"):
            raise SystemExit(f"refusing to use the shared database {name!r}: give a bench database")
        with psycopg.connect(**admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            results.append(child(args.pg, args.games))
        finally:
            with psycopg.connect(**admin) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"{'database':<11}{'bare INSERT/s':>14}{'append/s':>10}{'ratio':>7}{'move/s':>9}{'ratio':>7}"
          f"{f'{WRITERS} writers':>11}{'ratio':>7}{'replay ev/s':>13}{'engine ev/s':>13}{'ratio':>7}")
    for r in results:
        print(f"{r['vendor']:<11}{r['ref_inserts']:>14.0f}{r['raw_appends']:>10.0f}"
              f"{r['raw_appends'] / r['ref_inserts']:>7.2f}{r['move_appends']:>9.0f}"
              f"{r['move_appends'] / r['ref_inserts']:>7.2f}{r['parallel_moves']:>11.0f}"
              f"{r['parallel_moves'] / r['ref_inserts']:>7.2f}{r['replay']:>13.0f}{r['engine_replay']:>13.0f}"
              f"{r['replay'] / r['engine_replay']:>7.2f}")
    print(f"({results[0]['moves']} moves in {args.games} games per database; targets: PostgreSQL moves "
          f">= 1,000/s with one writer and with {WRITERS} (a server's many games), replay >= 20,000 events/s; "
          f"DEBUG off, tasks to a broker nothing consumes)")
    for r in results:
        db_cpu = "" if r["db_cpu_ms"] is None else f", the database's process {r['db_cpu_ms']:.3f} ms"
        print(f"{r['vendor']}: CPU per move with one writer: this process {r['cpu_ms']:.3f} ms{db_cpu}")
        total = sum(n for _, n in r["shapes"])
        for shape, n in r["shapes"][:4]:
            print(f"  {n / total:6.1%} of moves send: {shape}")
    if len(results) == 2:
        s, p = results
        print(f"PostgreSQL/SQLite: append {p['raw_appends'] / s['raw_appends']:.2f}, "
              f"move {p['move_appends'] / s['move_appends']:.2f}, replay {p['replay'] / s['replay']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
