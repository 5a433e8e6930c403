"""Live pages under load: N games played at once by scripted seats over
real sockets, and how long a move takes to reach the other seat's screen.

Each run starts the web process (``config/web.py``: uvicorn serving
``config.asgi``; ``--server daphne`` for the server before it) as a subprocess on a fresh SQLite
database (the embedded default) or ``--database URL``, with the in-memory
channel layer or, for ``--layer redis``, channels-redis on a private
redis-server started here (its pub/sub layer, as deployed;
``--layer redis-core`` its list-based layer, ``CHANNEL_REDIS_KIND=core``). For every game (Sabra, two seats) both seats are
taken through the API, each seat's browser session is opened through its
seat link, and each seat holds its own socket (``/ws/games/<id>/seat/``).
Then, in every game at once, the seat on turn thinks (``--think`` seconds
on average, as a quick player does), sends ``draw`` through the API, and
the clock stops when the *other* seat's socket brings the new version:
move-to-other-screen latency. ``--moves`` moves per game; ``--think 0``
plays flat out (the server's capacity rather than a club evening).

    .venv/bin/python bench/live.py                        # 10 and 50 games, memory and redis
    .venv/bin/python bench/live.py --games 10 50 200 --moves 10
    .venv/bin/python bench/live.py --layer memory --games 50
    .venv/bin/python bench/live.py --layer redis --processes 2 --games 200 \
        --database postgres://postgres@127.0.0.1:5432/tk_bench_live       # two processes, each game across both

Prints, per layer and game count: moves/s, latency p50/p95/p99, errors,
``shed`` (moves answered 503 with ``Retry-After``: the scripted seat waits
as told and sends the move again, and its latency counts the wait), the p95
of the move's own request (``post p95``: the part of the latency spent
before the move is stored and answered), ``cpu/move`` (the server
process's CPU time while the games were played, over the moves: what a
move costs from request to the last socket's frame), ``seats/mv`` (the
same for this process, the scripted seats and their sockets: on a 2-core
machine, where it nears a whole core the seats, not the server, set the
latency), and the ratio of p95
to the reference: the median of one unloaded API round trip (GET the
seat's view) measured in the same run. With ``--browsers N`` the first N
games are also followed by a Chromium seat page each (Debian's chromium),
and ``drawn p50/p95`` is the time from a frame's arrival on the page to the
move drawn there. ``--production`` runs the server as deployed
(``DEBUG=0``: no debug cursor, no static files handler, secure cookies;
only the HTTPS redirect and HSTS are off, the bench speaking plain HTTP
to 127.0.0.1, whose cookies its seats treat as a secure origin's);
by default it runs as embedded (``DEBUG=1``). ``--profile PREFIX`` samples the server with py-spy
(the thread holding the GIL only; ``bench/profile_summary.py`` reads the file). The aims: p95 under 150 ms
at 50 games and under 300 ms at 200 (think 1 s), at least 150 moves/s at
think 0, and a move drawn within 150 ms of its frame (p95).

    .venv/bin/python bench/live.py --layer memory --games 20 --moves 30 --think 0   # capacity
    .venv/bin/python bench/live.py --games 10 --browsers 3                          # frame to drawn
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workers import ROOT, free_port, start_redis, wait  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def stop_server(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 5 s: a server left behind would skew the next run."""
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


SERVERS = {
    # the web process as deployed (config/web.py: uvicorn, uvloop, httptools)
    "uvicorn": lambda port: [sys.executable, "-m", "config.web", "-b", "127.0.0.1", "-p", str(port),
                             "--log-level", "warning"],
    # the server before it, for comparison
    "daphne": lambda port: [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                            "config.asgi:application"],
}


def start_server(env: dict[str, str], server: str = "uvicorn") -> tuple[subprocess.Popen, str]:
    """A web process (``SERVERS``) on a free port, once it takes connections."""
    port = free_port()
    proc = subprocess.Popen(SERVERS[server](port), cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def up():
        import socket
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.3).close()
            return True
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"{server} exited: " + proc.stderr.read().decode()[-2000:])
            return False

    wait(up, 30, server)
    return proc, f"http://127.0.0.1:{port}"


async def open_pages(base: str, tokens: list[str]):
    """Chromium (Debian's, never a download) with one page per seat token,
    each on its seat page with its socket open: the pages draw every move
    as a player's would, and keep the time from each frame's arrival to
    the move drawn (``window.tkFrameTimes``)."""
    from playwright.async_api import async_playwright

    playwright = await async_playwright().start()
    browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                               args=["--no-sandbox", "--disable-dev-shm-usage"])
    opened = []
    for token in tokens:
        page = await (await browser.new_context(viewport={"width": 1100, "height": 900})).new_page()
        await page.goto(f"{base}/games/play/#{token}")
        await page.wait_for_url("**/play/", timeout=30000)
        await page.wait_for_selector("#live[data-state=open]", state="attached", timeout=30000)
        opened.append(page)
    return playwright, browser, opened


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Seat:
    """One seat: its browser session (cookie jar), its socket, the versions
    its screen has shown and when."""

    def __init__(self, http, base: str, game: int, token: str):
        self.http, self.base, self.game, self.token = http, base, game, token
        self.seen: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.ws = None

    async def open(self):
        # the seat link exchanged as the landing page does it: a CSRF-checked
        # POST (a 503 is waited out as a browser's page would be reloaded)
        for _ in range(20):
            async with self.http.get(f"{self.base}/games/play/") as r:
                if r.status == 503:
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                csrf = r.cookies["csrftoken"].value
            async with self.http.post(f"{self.base}/games/play/",
                                      data={"token": self.token, "csrfmiddlewaretoken": csrf},
                                      allow_redirects=False) as r:
                if r.status == 503:
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                if r.status != 302:
                    raise RuntimeError(f"seat link answered {r.status}")
                break
        self.ws = await self.http.ws_connect(self.base.replace("http", "ws") + f"/ws/games/{self.game}/seat/",
                                             headers={"Origin": self.base})
        asyncio.get_running_loop().create_task(self.read())

    async def read(self):
        async for msg in self.ws:
            data = msg.json()
            if data.get("type") == "view":
                self.seen.setdefault(data["version"], time.perf_counter())
                self.changed.set()

    async def shown(self, version: int, timeout: float = 10.0) -> float:
        deadline = time.perf_counter() + timeout
        while version not in self.seen:
            self.changed.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"game {self.game}: version {version} never reached the other screen")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return self.seen[version]


async def run(bases: list[str], games: int, moves: int, think: float, pids: tuple[int, ...] = (),
              browsers: int = 0, watch=None) -> dict:
    """Play the games against the web processes at ``bases``: with more
    than one, game ``j``'s seat ``k`` is on process ``(j + k) % len(bases)``
    (its session, its socket and its moves), so the two seats of a game are
    on different processes and every move crosses the layer. ``watch``: a
    function called as the play begins (the games set up, the sockets
    open) whose answer is called as it ends (a profiler's start and stop)."""
    import aiohttp

    base = bases[0]

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as api:
        setup = asyncio.Semaphore(4)  # the games are set up a few at a time: setting up is not measured

        async def post(url: str, what: str) -> dict:
            """POST, waiting out a 503's Retry-After as a client should."""
            for _ in range(20):
                async with api.post(url, json=payload_for(url)) as r:
                    body = await r.json()
                    if r.status == 503:
                        await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                        continue
                    if r.status != 201:
                        raise RuntimeError(f"{what}: {r.status} {body}")
                    return body
            raise RuntimeError(f"{what}: the server stayed busy")

        def payload_for(url: str) -> dict:
            if url.endswith("/api/games/"):
                return {"variant": "sabra", "players": 2, "seats": [{"name": "Ann"}, {"name": "Ben"}]}
            return {}

        async def make(j: int):
            home = bases[j % len(bases)]
            async with setup:
                body = await post(f"{home}/api/games/", "create")
                tokens = [(await post(f"{home}/api/games/{body['id']}/seats/{i}/", "seat take"))["token"]
                          for i in range(2)]
            return body["id"], body["to_move"], tokens

        made = await asyncio.gather(*(make(j) for j in range(games)))
        # the reference: one unloaded API round trip, in this run
        ref = []
        gid, _, tokens = made[0]
        for _ in range(30):
            t0 = time.perf_counter()
            async with api.get(f"{base}/api/games/{gid}/view/", headers={"Authorization": f"Seat {tokens[0]}"}) as r:
                await r.read()
            ref.append(time.perf_counter() - t0)
        sessions = []
        tables = []
        for j, (gid, first, tokens) in enumerate(made):
            seats = []
            for k, token in enumerate(tokens):
                origin = bases[(j + k) % len(bases)]
                jar = aiohttp.CookieJar(unsafe=True, treat_as_secure_origin=[origin, origin.replace("http", "ws")])
                http = aiohttp.ClientSession(cookie_jar=jar,
                                             connector=aiohttp.TCPConnector(limit=0))
                sessions.append(http)
                seats.append(Seat(http, bases[(j + k) % len(bases)], gid, token))
            tables.append((gid, first, tokens, seats))
        async def open_seat(seat):
            async with setup:
                await seat.open()

        await asyncio.gather(*(open_seat(s) for t in tables for s in t[3]))
        pages = await open_pages(base, [t[2][0] for t in tables[:browsers]]) if browsers else None
        latencies: list[float] = []
        posts: list[float] = []
        errors: list[str] = []
        shed: list[int] = []

        async def play(gid, first, tokens, seats):
            version, mover = 1, first
            rng = random.Random(gid)
            await asyncio.sleep(rng.uniform(0, think))  # the games do not start in step
            for _ in range(moves):
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))  # the player thinks
                other = seats[1 - mover]
                t0 = time.perf_counter()
                while True:
                    async with api.post(f"{seats[mover].base}/api/games/{gid}/moves/",
                                        json={"move": "draw", "expected_version": version},
                                        headers={"Authorization": f"Seat {tokens[mover]}"}) as r:
                        if r.status == 503:  # shed: the client waits as told and sends it again
                            shed.append(1)
                            wait_s = float(r.headers.get("Retry-After", "1"))
                        elif r.status != 201:
                            errors.append(f"{r.status} {await r.text()}"[:200])
                            return
                        else:
                            version = (await r.json())["version"]
                            break
                    await asyncio.sleep(wait_s)
                post = time.perf_counter() - t0
                posts.append(post)
                try:
                    seen = await other.shown(version)
                except TimeoutError as exc:
                    errors.append(str(exc))
                    return
                latencies.append(max(0.0, seen - t0))
                timeline.append((t0 - start, seen - t0, post))
                mover = 1 - mover

        stop_watch = watch() if watch is not None else None
        timeline: list[tuple[float, float, float]] = []  # (start in the play, latency, post) a move seen
        cpu0, own0 = sum(cpu_seconds(pid) for pid in pids), time.process_time()
        start = time.perf_counter()
        await asyncio.gather(*(play(*t) for t in tables))
        wall = time.perf_counter() - start
        if stop_watch is not None:
            stop_watch()
        cpu, own = sum(cpu_seconds(pid) for pid in pids) - cpu0, time.process_time() - own0
        for t in tables:
            for s in t[3]:
                await s.ws.close()
        drawn: list[float] = []
        if pages is not None:  # each page's times from a frame's arrival to the move drawn (static/games/table)
            playwright, browser, opened = pages
            for page in opened:
                drawn.extend(await page.evaluate("window.tkFrameTimes || []"))
            await browser.close()
            await playwright.stop()
        for http in sessions:
            await http.close()
    return {"latencies": latencies, "posts": posts, "timeline": timeline, "errors": errors, "wall": wall, "ref": statistics.median(ref),
            "drawn": drawn,
            "cpu": cpu, "own": own, "shed": len(shed)}


def by_second(out: dict) -> None:
    """The moves by the second of the play they started in (where in the
    play a tail is: the evening's first seconds, or throughout)."""
    seconds: dict[int, list[tuple[float, float]]] = {}
    for start, latency, post in out["timeline"]:
        seconds.setdefault(int(start), []).append((latency * 1000, post * 1000))
    print(f"  {'second':>6} {'moves':>6} {'p50 ms':>7} {'p95 ms':>7} {'post p95':>8}")
    for second in sorted(seconds):
        lat = [x for x, _ in seconds[second]]
        print(f"  {second:6d} {len(lat):6d} {percentile(lat, 50):7.1f} {percentile(lat, 95):7.1f} "
              f"{percentile([p for _, p in seconds[second]], 95):8.1f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--moves", type=int, default=10, help="moves per game (default 10)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a scripted player thinks before each move (default 1.0; 0: flat out)")
    parser.add_argument("--layer", choices=("memory", "redis", "redis-core", "both", "all"), default="both",
                        help="memory (one process), redis (channels-redis pub/sub, as deployed), redis-core "
                             "(channels-redis lists), both (memory and redis; default) or all three")
    parser.add_argument("--server", choices=sorted(SERVERS), default="uvicorn",
                        help="the web server: uvicorn (config/web.py, as deployed; default) or daphne (before)")
    parser.add_argument("--redis", default="", metavar="URL",
                        help="the Redis layer's Redis (e.g. redis://127.0.0.1:6379/4; default: a private "
                             "redis-server started here)")
    parser.add_argument("--processes", type=int, default=1, metavar="N",
                        help="N web processes (Redis layers only when N > 1): each game's two seats on two "
                             "different processes, every move crossing the layer; cpu/move sums the processes")
    parser.add_argument("--database", default="", help="a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--browsers", type=int, default=0, metavar="N",
                        help="follow the first N games in Chromium seat pages too, and print the time from a "
                             "frame's arrival to the move drawn on the page (drawn p50/p95, ms)")
    parser.add_argument("--profile-seconds", type=int, default=0, metavar="N",
                        help="with --profile: sample the play's first N seconds only (default: all of it)")
    parser.add_argument("--by-second", action="store_true",
                        help="also print the moves by the second of the play they started in: count, "
                             "p50 and p95 to the other screen, p95 of the move's own request (ms)")
    parser.add_argument("--production", action="store_true",
                        help="run the server with DEBUG=0, as deployed (default: DEBUG=1, as embedded)")
    parser.add_argument("--profile", default="", metavar="PREFIX",
                        help="sample the server with py-spy (pip install py-spy) into PREFIX-<layer>-<games>.txt")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.games) or args.moves < 1 or args.processes < 1:
        print("bench/live.py: --games, --moves and --processes must be at least 1", file=sys.stderr)
        return 2
    layers = {"both": ["memory", "redis"], "all": ["memory", "redis", "redis-core"]}.get(args.layer, [args.layer])
    if args.processes > 1:
        if layers == ["memory"]:
            print("bench/live.py: --processes above 1 needs a Redis layer (the in-memory one is one process's)",
                  file=sys.stderr)
            return 2
        layers = [layer for layer in layers if layer != "memory"]
    work = tempfile.mkdtemp(prefix="tk-live-")
    db = args.database or f"sqlite:///{work}/live.sqlite3"
    env = {**os.environ, "DATABASE_URL": db, "API_RATE_GAME_CREATE": "", "API_RATE_SEAT_TAKE": "",
           "LOG_LEVEL": "ERROR"}
    env.pop("CELERY_BROKER_URL", None)
    if args.production:  # as deployed, but for plain HTTP on 127.0.0.1 (no redirect to HTTPS, no HSTS)
        env.update({"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1,localhost",
                    "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0"})
    else:
        env["DEBUG"] = "1"
    env.pop("CHANNEL_REDIS_URL", None)
    env.pop("CHANNEL_REDIS_KIND", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    print(f"{'layer':10} {'games':>5} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
          f"{'errors':>6} {'shed':>5} {'post p95':>8} {'cpu/move':>8} {'seats/mv':>8} {'ref ms':>7} {'p95/ref':>7}"
          + (f" {'drawn p50':>9} {'drawn p95':>9}" if args.browsers else ""))
    redis_proc = None
    try:
        for layer in layers:
            server_env = dict(env)
            if layer.startswith("redis"):
                server_env["CHANNEL_REDIS_KIND"] = "core" if layer == "redis-core" else "pubsub"
                if args.redis:
                    url = args.redis
                elif redis_proc is None:
                    redis_proc, url = start_redis(work)
                server_env["CHANNEL_REDIS_URL"] = url
            for n in args.games:
                started = [start_server(server_env, args.server) for _ in range(args.processes)]
                server = started[0][0]
                spies: list[subprocess.Popen] = []

                def watch(server=server, out_path=f"{args.profile}-{layer}-{n}.txt"):
                    """py-spy samples the (first) server while the games are
                    played, not while they are set up (collapsed stacks)."""
                    spies.append(subprocess.Popen(
                        [str(Path(sys.executable).parent / "py-spy"), "record", "-r", "100", "--gil", "-f", "raw",
                         "-o", out_path, "-p", str(server.pid)]
                        + (["-d", str(args.profile_seconds)] if args.profile_seconds else []),
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                    return stop_spies

                def stop_spies():
                    for spy in spies:
                        spy.send_signal(2)
                        spy.wait(30)
                    spies.clear()

                try:
                    out = asyncio.run(run([b for _, b in started], n, args.moves, args.think,
                                          tuple(p.pid for p, _ in started), args.browsers,
                                          watch if args.profile else None))
                finally:
                    stop_spies()
                    for proc, _ in started:
                        stop_server(proc)
                lat = [x * 1000 for x in out["latencies"]]
                p95 = percentile(lat, 95)
                ref = out["ref"] * 1000
                label = layer if args.processes == 1 else f"{layer}x{args.processes}"
                print(f"{label:10} {n:5d} {len(lat):6d} {len(lat) / out['wall']:8.1f} {percentile(lat, 50):7.1f} "
                      f"{p95:7.1f} {percentile(lat, 99):7.1f} {len(out['errors']):6d} {out['shed']:5d} "
                      f"{percentile([x * 1000 for x in out['posts']], 95):8.1f} {out['cpu'] * 1000 / max(1, len(lat)):8.2f} "
                      f"{out['own'] * 1000 / max(1, len(lat)):8.2f} {ref:7.1f} {p95 / ref:7.1f}"
                      + (f" {percentile(out['drawn'], 50):9.1f} {percentile(out['drawn'], 95):9.1f}"
                         if args.browsers else ""),
                      flush=True)
                for e in out["errors"][:3]:
                    print("   error:", e)
                if args.by_second:
                    by_second(out)
    finally:
        if redis_proc is not None:
            redis_proc.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
