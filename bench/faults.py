"""How long a game stalls when a worker is killed, over many kills, with the
deployment's default settings.

Real services: a private redis-server (append-only file on) and PostgreSQL
(``--database``, created and migrated if missing; never the test database).
Two ``celery -A config worker -P solo`` processes with every setting at its
default: a keeper running beat (``-B``) and a victim. ``--games`` games of AI
seats are kept in play (``--level``: a level that thinks a little, so that
a kill lands mid-move). ``--kills`` times: wait until the victim has taken
an AI move and not finished it (its log says so), ``kill -9`` it: the
message it held is lost until the visibility timeout (60 s); note the version of every game in flight, and
time until each of them has moved again (or ended); start a new victim,
which takes its seconds like a real restart but is not waited for.

    .venv/bin/python bench/faults.py                  # 20 kills
    .venv/bin/python bench/faults.py --kills 5 --games 6
    .venv/bin/python bench/faults.py --set CELERY_REQUEUE_IDLE=10 CELERY_REQUEUE_SECONDS=5   # the old defaults

Prints each kill's recovery (the slowest game) and p50/p95/p100 over the
kills. Aim (issue 29): p100 under 15 s.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workers import ROOT, ensure_database, free_port, wait  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def holding(log: Path, mark: int) -> bool:
    """Whether the worker writing ``log`` has received an AI move (after
    byte ``mark``) that it has not finished."""
    text = log.read_bytes()[mark:].decode(errors="replace")
    received = re.findall(r"Task games\.ai_move\[([0-9a-f-]+)\] received", text)
    done = set(re.findall(r"Task games\.ai_move\[([0-9a-f-]+)\] (?:succeeded|raised|retry)", text))
    return any(task not in done for task in received)


def start_worker(name: str, env: dict, workdir: Path, beat: bool = False) -> tuple[subprocess.Popen, Path]:
    log = workdir / f"{name}.log"
    cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-l", "info",
           "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    if beat:
        cmd += ["-B", "-s", str(workdir / "beat-schedule")]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    return proc, log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/tablekeeper_bench_faults")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--games", type=int, default=4, help="games of AI seats kept in play")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="settings' environment variables for the workers (default: none, the defaults)")
    parser.add_argument("--level", default="strong", help="the AI seats' level")
    parser.add_argument("--timeout", type=float, default=120, help="the longest a game may stall before giving up")
    args = parser.parse_args()
    if args.kills < 1 or args.games < 1:
        print("bench/faults.py: --kills and --games must be positive", file=sys.stderr)
        return 2
    ensure_database(args.database)
    workdir = Path(tempfile.mkdtemp(prefix="bench-faults-"))
    port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "yes", "--dir", str(workdir)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    broker = f"redis://127.0.0.1:{port}/0"
    import redis as redis_py

    def redis_up() -> bool:
        try:
            return bool(redis_py.Redis(port=port, socket_connect_timeout=0.5).ping())
        except redis_py.RedisError:
            return False

    wait(redis_up, 15, "redis-server")
    os.environ.update(DATABASE_URL=args.database, CELERY_BROKER_URL=broker, DJANGO_SETTINGS_MODULE="config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from games import services
    from games.models import Game

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "CELERY_", "DB_", "GAMES_", "CHANNEL_"))}
    env.update(DATABASE_URL=args.database, CELERY_BROKER_URL=broker, LOG_LEVEL="WARNING")
    env.update(item.split("=", 1) for item in args.set)
    procs = []
    recoveries: list[float] = []
    try:
        keeper = start_worker("keeper", env, workdir, beat=True)
        victim = start_worker("victim0", env, workdir)
        procs += [keeper, victim]
        for proc, log in procs:
            wait(lambda: b" ready." in log.read_bytes() or proc.poll() is not None, 120, "a worker to start")
        seats = [{"name": f"Bot {i}", "kind": "ai", "ai_level": args.level} for i in range(2)]

        def in_play() -> dict[int, int]:
            live = dict(Game.objects.filter(status=Game.Status.IN_PROGRESS, title="bench faults")
                        .values_list("pk", "version"))
            for _ in range(args.games - len(live)):
                game = services.game_create(variant="sabra", players=2, seats=seats, title="bench faults")
                live[game.pk] = game.version
            return live

        print(f"{args.kills} kills, {args.games} AI games in play, settings: {' '.join(args.set) or 'the defaults'}; PostgreSQL {args.database}, "
              f"Redis {broker}; load average {os.getloadavg()[0]:.1f}", flush=True)
        for k in range(args.kills):
            in_play()
            proc, log = victim
            mark = log.stat().st_size
            # the victim holds an AI move's message: received, not yet done
            deadline = time.monotonic() + 120
            while not holding(log, mark) and proc.poll() is None:
                if time.monotonic() > deadline:
                    raise SystemExit("the victim took no AI move in 120 s")
                time.sleep(0.005)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
            killed = time.monotonic()
            at_kill = dict(Game.objects.filter(status=Game.Status.IN_PROGRESS, title="bench faults")
                           .values_list("pk", "version"))
            victim = start_worker(f"victim{k + 1}", env, workdir)
            procs.append(victim)

            def moved_on() -> bool:
                now = dict(Game.objects.filter(pk__in=at_kill).values_list("pk", "version"))
                over = set(Game.objects.filter(pk__in=at_kill).exclude(status=Game.Status.IN_PROGRESS)
                           .values_list("pk", flat=True))
                return all(pk in over or now[pk] > v for pk, v in at_kill.items())

            wait(moved_on, args.timeout, f"the games to move again after kill {k + 1}")
            recoveries.append(time.monotonic() - killed)
            print(f"kill {k + 1:2d}: every game moving again after {recoveries[-1]:5.1f} s "
                  f"({len(at_kill)} in flight; load average {os.getloadavg()[0]:.1f})", flush=True)
        print(f"recovery over {len(recoveries)} kills: p50 {percentile(recoveries, 50):.1f} s, "
              f"p95 {percentile(recoveries, 95):.1f} s, p100 {max(recoveries):.1f} s (aim: p100 < 15 s)")
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc, _ in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        redis.terminate()
        redis.wait(10)
    return 0 if recoveries and max(recoveries) < 15 else 1


if __name__ == "__main__":
    sys.exit(main())
