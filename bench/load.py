"""The real server under a club night's load: 200 seats in 50 games.

Starts the web process (``config/web.py``: uvicorn serving ``config.asgi``;
``--server daphne`` for the server before it) on PostgreSQL (``--database``, created and
migrated if missing; never the test database) with Redis as broker and
channel layer (a private redis-server started here) and a bounded
connection pool (``DB_POOL_MAX``, default 10). Creates ``--games`` Sabra
games of four seats, takes every seat, then sends requests at a fixed rate
(open loop: a slow answer does not slow the sending) for ``--seconds`` at
each rate of ``--rates``. Each request is one seat's: the seat on turn draws
(``POST .../moves/`` at the version it last saw), the others read their view
(``GET .../view/``), as the seat pages' polling does.

    .venv/bin/python bench/load.py                       # 50, 100, 200 requests/s, 15 s each
    .venv/bin/python bench/load.py --rates 200 --seconds 30 --pool 5
    .venv/bin/python bench/load.py --servers 2      # two web processes behind the Redis layer
    .venv/bin/python bench/load.py --rates 200 400 --server daphne   # the same on daphne

Prints per rate: requests sent and answered, p50/p95/p99 latency, errors
(any answer but 2xx, the 409 of a move overtaken by another and the 503
with Retry-After of load shedding), 409s, 503s (requests refused at once
because they would have waited past the server's deadline), the
most PostgreSQL connections the server held (sampled every 50 ms) against
its pool, p95 over the reference (one unloaded GET in the same run), and
the machine's load average at the end of the rate's run.
Aim (issue 17): p95 under 50 ms at 200 requests/s, 0 errors, no more
connections than the pool allows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live import SERVERS, percentile, start_server, stop_server  # noqa: E402
from workers import ROOT, ensure_database, start_redis  # noqa: E402


def connections(url: str, stop: threading.Event, out: list[int]) -> None:
    """Sample how many connections the server holds on the bench database."""
    import psycopg

    name = urlparse(url).path.lstrip("/")
    admin = url.replace(f"/{name}", "/postgres", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        while not stop.is_set():
            (n,) = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> "
                                "pg_backend_pid()", (name,)).fetchone()
            out.append(n)
            time.sleep(0.05)


async def run(bases: list[str], games: int, rate: float, seconds: float, setup: dict) -> dict:
    import aiohttp

    base = bases[0]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        if not setup:
            async def post(url, payload):  # the setup waits out a 503's Retry-After, as a client should
                while True:
                    async with http.post(url, json=payload) as r:
                        if r.status != 503:
                            return await r.json()
                        await asyncio.sleep(float(r.headers.get("Retry-After", 1)))

            async def make():
                body = await post(f"{base}/api/games/", {
                    "variant": "sabra", "players": 4, "seats": [{"name": n} for n in ("Ann", "Ben", "Cleo", "Dan")]})
                tokens = []
                for i in range(4):
                    tokens.append((await post(f"{base}/api/games/{body['id']}/seats/{i}/", {}))["token"])
                return body["id"], tokens
            made = await asyncio.gather(*(make() for _ in range(games)))
            setup["seats"] = [{"game": gid, "index": i, "token": t, "version": 1, "to_move": None,
                               "base": bases[(k * 4 + i) % len(bases)]}  # seats spread over the servers
                              for k, (gid, tokens) in enumerate(made) for i, t in enumerate(tokens)]
            ref = []
            s = setup["seats"][0]
            for _ in range(30):
                t0 = time.perf_counter()
                async with http.get(f"{base}/api/games/{s['game']}/view/",
                                    headers={"Authorization": f"Seat {s['token']}"}) as r:
                    await r.read()
                ref.append(time.perf_counter() - t0)
            setup["ref"] = statistics.median(ref)
        seats = setup["seats"]
        rng = random.Random(int(rate))
        latencies: list[float] = []
        errors: list[str] = []
        conflicts = [0]
        shed = [0]  # 503 + Retry-After: refused at once by the server's load shedding
        busy: set[int] = set()

        async def one(seat):
            base = seat["base"]
            auth = {"Authorization": f"Seat {seat['token']}"}
            t0 = time.perf_counter()
            try:
                if seat["to_move"] == seat["index"]:
                    async with http.post(f"{base}/api/games/{seat['game']}/moves/",
                                         json={"move": "draw", "expected_version": seat["version"]},
                                         headers=auth) as r:
                        body = await r.json()
                        status = r.status
                    if status == 201:
                        seat["version"], seat["to_move"] = body["version"], None
                    elif status == 409:
                        conflicts[0] += 1
                        seat["to_move"] = None
                    elif status == 400 and "pool is empty" in body.get("detail", ""):
                        seat["to_move"] = -1  # a finished pool: this seat only reads from now on
                    elif status == 503 and r.headers.get("Retry-After"):
                        shed[0] += 1
                    else:
                        errors.append(f"{status} {body}"[:200])
                else:
                    async with http.get(f"{base}/api/games/{seat['game']}/view/", headers=auth) as r:
                        body = await r.json()
                        status = r.status
                    if status == 200:
                        seat["version"] = body["version"]
                        if seat["to_move"] != -1:
                            seat["to_move"] = body["view"]["to_move"]
                    elif status == 503 and r.headers.get("Retry-After"):
                        shed[0] += 1
                    else:
                        errors.append(f"{status} {body}"[:200])
            except Exception as exc:  # noqa: BLE001 - a refused connection is an error to count
                errors.append(f"{type(exc).__name__}: {exc}"[:200])
            latencies.append(time.perf_counter() - t0)
            busy.discard(id(seat))

        tasks = []
        start = time.perf_counter()
        k = 0
        while True:
            due = start + k / rate
            now = time.perf_counter()
            if due - start >= seconds:
                break
            if due > now:
                await asyncio.sleep(due - now)
            seat = rng.choice(seats)
            if id(seat) in busy:  # one request per seat at a time, as a page does
                seat = rng.choice(seats)
            busy.add(id(seat))
            tasks.append(asyncio.get_running_loop().create_task(one(seat)))
            k += 1
        sent_wall = time.perf_counter() - start
        await asyncio.gather(*tasks)
    return {"latencies": latencies, "errors": errors, "conflicts": conflicts[0], "shed": shed[0], "sent": k,
            "sent_rate": k / sent_wall, "ref": setup["ref"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[50, 100, 200])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pool", type=int, default=10, help="DB_POOL_MAX of each server process (default 10)")
    parser.add_argument("--servers", type=int, default=1,
                        help="web processes sharing the load (the Redis layer spans them; default 1)")
    parser.add_argument("--server", choices=sorted(SERVERS), default="uvicorn",
                        help="the web server: uvicorn (config/web.py, as deployed; default) or daphne (before)")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/tablekeeper_load")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or any(r <= 0 for r in args.rates) or args.pool < 1 or args.servers < 1:
        print("bench/load.py: --games, --seconds, --rates, --pool and --servers must be positive", file=sys.stderr)
        return 2
    if not args.database.startswith("postgres"):
        print("bench/load.py: --database must be a PostgreSQL URL", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="tk-load-")
    ensure_database(args.database)
    redis_proc, redis_url = start_redis(work)
    env = {**os.environ, "DATABASE_URL": args.database, "CELERY_BROKER_URL": redis_url,
           "CHANNEL_REDIS_URL": redis_url.rsplit("/", 1)[0] + "/1", "DB_POOL_MAX": str(args.pool),
           "API_RATE_GAME_CREATE": "", "API_RATE_SEAT_TAKE": "",
           "API_RATE_MOVE_STALE": "",  # one client address plays every seat: its overtaken moves are not abuse
           "LOG_LEVEL": "ERROR"}
    servers = [start_server(env, args.server) for _ in range(args.servers)]
    bases = [b for _, b in servers]
    print(f"{args.servers} {args.server} process(es) on PostgreSQL ({args.database}), Redis {redis_url}, "
          f"pool {args.pool} each (at most {args.pool * args.servers} connections), {args.games} games of 4 seats")
    print(f"{'rate/s':>6} {'sent':>6} {'answered':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'errors':>6} "
          f"{'409s':>5} {'503s':>5} {'max conns':>9} {'ref ms':>7} {'p95/ref':>7} {'load':>5}")
    setup: dict = {}
    try:
        for rate in args.rates:
            stop, samples = threading.Event(), []
            sampler = threading.Thread(target=connections, args=(args.database, stop, samples), daemon=True)
            sampler.start()
            out = asyncio.run(run(bases, args.games, rate, args.seconds, setup))
            stop.set()
            sampler.join(2)
            lat = [x * 1000 for x in out["latencies"]]
            p95, ref = percentile(lat, 95), out["ref"] * 1000
            print(f"{rate:6.0f} {out['sent']:6d} {len(lat):8d} {percentile(lat, 50):7.1f} {p95:7.1f} "
                  f"{percentile(lat, 99):7.1f} {len(out['errors']):6d} {out['conflicts']:5d} {out['shed']:5d} "
                  f"{max(samples or [0]):9d} {ref:7.1f} {p95 / ref:7.1f} {os.getloadavg()[0]:5.1f}", flush=True)
            for e in out["errors"][:3]:
                print("   error:", e)
    finally:
        for server, _ in servers:
            stop_server(server)
        redis_proc.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
