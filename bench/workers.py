"""AI moves per second through one Celery worker and through two.

Real services: a private redis-server on a free port (started and stopped
here) and PostgreSQL (``--database``, created and migrated if missing;
never the test database). Workers are ``celery -A config worker -P solo``
subprocesses; each run starts its workers, then creates ``--games`` games
whose seats are all AI players and times until every game has ended. Each
game is a chain of moves (one task per move, sent through the outbox), so
two workers can only help by playing different games at once.

    .venv/bin/python bench/workers.py                 # 6 games, 1 then 2 workers
    .venv/bin/python bench/workers.py --games 10 --players 4 --repeat 2

The machine is shared: run with ``--repeat`` for a steadier ratio.

Prints moves per second for each worker count and the ratio to one worker,
and how many PostgreSQL connections were opened during the run
(``pg_stat_database.sessions``; the workers should keep theirs: about one
per worker process, not one per task).

    .venv/bin/python bench/workers.py --workers 1 --pool prefork --concurrency 2
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_database(url: str) -> None:
    import psycopg

    u = urlparse(url)
    name = u.path.lstrip("/")
    admin = url.replace(f"/{name}", "/postgres", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, check=True,
                   env={**os.environ, "DATABASE_URL": url})


def wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.2)


def start_redis(workdir: str) -> tuple[subprocess.Popen, str]:
    import redis

    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", workdir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def up():
        try:
            return redis.Redis(port=port, socket_connect_timeout=0.5).ping()
        except redis.RedisError:
            return False

    wait(up, 15, "redis-server")
    return proc, f"redis://127.0.0.1:{port}/0"


def start_workers(n: int, env: dict, workdir: str, pool: str = "solo",
                  concurrency: int = 1) -> list[tuple[subprocess.Popen, Path]]:
    out = []
    for i in range(n):
        log = Path(workdir) / f"worker{i}.log"
        proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "-P", pool,
                                 "-c", str(concurrency), "-l", "info", "-n", f"bench{i}@%h", "--without-gossip", "--without-mingle",
                                 "--without-heartbeat"],
                                cwd=ROOT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                                start_new_session=True)
        out.append((proc, log))
    for proc, log in out:
        wait(lambda: b" ready." in log.read_bytes() or proc.poll() is not None, 90, "a worker to start")
        if proc.poll() is not None:
            raise SystemExit(f"a worker exited:\n{log.read_text()[-2000:]}")
    return out


def stop(procs) -> None:
    for proc, _ in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc, _ in procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def sessions() -> int:
    """Connections opened to this database since the statistics were reset."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cur.fetchone()[0]


def run(n_workers: int, args, env: dict, workdir: str) -> tuple[int, float, int]:
    from games import services
    from games.models import Event, Game

    workers = start_workers(n_workers, env, workdir, args.pool, args.concurrency)
    opened = sessions()
    try:
        seats = [{"name": f"Bot {i}", "kind": "ai", "ai_level": args.level} for i in range(args.players)]
        t0 = time.perf_counter()
        games = [services.game_create(variant="sabra", players=args.players, seats=seats,
                                      title=f"bench {n_workers} worker(s) #{i}") for i in range(args.games)]
        ids = [g.pk for g in games]
        wait(lambda: Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count() == len(ids),
             args.timeout, f"{len(ids)} games with {n_workers} worker(s)")
        elapsed = time.perf_counter() - t0
        moves = Event.objects.filter(game_id__in=ids, type="MoveRecorded").count()
        time.sleep(0.6)  # the statistics collector's flush (PostgreSQL 15: every second at most)
        opened = sessions() - opened
    finally:
        stop(workers)
    return moves, elapsed, opened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tablekeeper_bench_workers"))
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="random")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per worker count, in alternating order (1 2 2 1 ...); the median is compared")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--pool", default="solo", choices=["solo", "prefork", "threads"],
                        help="the workers' pool (a deployment's default is prefork)")
    parser.add_argument("--concurrency", type=int, default=1, help="processes (or threads) per worker")
    args = parser.parse_args()

    ensure_database(args.database)
    workdir = tempfile.mkdtemp(prefix="bench-workers-")
    redis_proc, broker = start_redis(workdir)
    try:
        os.environ.update(DATABASE_URL=args.database, CELERY_BROKER_URL=broker, CELERY_RESULT_BACKEND="",
                          DJANGO_SETTINGS_MODULE="config.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update(LOG_LEVEL="WARNING", DB_CONN_MAX_AGE="60")
        print(f"{args.games} games of {args.players} AI seats ({args.level}) per run; "
              f"PostgreSQL {args.database}; Redis {broker}")
        rates: dict[int, list[float]] = {n: [] for n in args.workers}
        for r in range(args.repeat):
            order = args.workers if r % 2 == 0 else list(reversed(args.workers))
            for n in order:
                moves, elapsed, opened = run(n, args, env, workdir)
                rates[n].append(moves / elapsed)
                print(f"{n} worker(s): {moves} AI moves in {elapsed:.1f} s = {moves / elapsed:.1f} moves/s; "
                      f"{opened} PostgreSQL connections opened")
        results = {n: statistics.median(v) for n, v in rates.items()}
        base = results[args.workers[0]]
        for n in args.workers:
            print(f"median {n} worker(s): {results[n]:.1f} moves/s; ratio to {args.workers[0]}: "
                  f"{results[n] / base:.2f}x")
    finally:
        redis_proc.terminate()
        redis_proc.wait(10)


if __name__ == "__main__":
    main()
