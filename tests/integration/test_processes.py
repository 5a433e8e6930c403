"""Several web processes sharing one channel layer, for real: two web
processes (``python -m config.web``, as ``bin/serve`` starts them) as
subprocesses on the PostgreSQL test database and a private Redis (the
channels-redis layer), addressed each by its own port, as a balancer in
front of them (``bin/serve``) would spread the browsers.

A game's two seats follow it from different processes: every move made
through process A reaches the seat whose socket is on process B, and the
other way round. Then Redis is restarted: a socket opened while it is down
is refused before its handshake is accepted (the page polls and backs off),
the first socket opened once it is back is live at once, and a move still
reaches both seats.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from games import services
from games.consumers import LAYER_LOST

from .conftest import ROOT, RedisServer, database_url, free_port, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


class WebProcess:
    def __init__(self, env: dict, log):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.name = log.name
        self.proc = subprocess.Popen([sys.executable, "-m", "config.web", "-b", "127.0.0.1", "-p",
                                      str(self.port), "--log-level", "warning"], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=open(log, "wb"), start_new_session=True)

    def up(self) -> bool:
        import requests

        assert self.proc.poll() is None, self.tail()
        try:
            return requests.get(f"{self.base}/api/games/", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def tail(self, n: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])


class SeatSocket:
    """One seat's browser: its session (the seat link exchanged) and its
    socket on one process; the versions its frames showed."""

    def __init__(self, http, server: WebProcess, game: int):
        self.http, self.server, self.game = http, server, game
        self.versions: list[int] = []
        self.ws = None

    async def open(self, token: str | None = None) -> None:
        import aiohttp

        if token is not None:
            # the seat link exchanged as the landing page does it: a CSRF-checked POST
            async with self.http.get(f"{self.server.base}/games/play/") as r:
                csrf = r.cookies["csrftoken"].value
            async with self.http.post(f"{self.server.base}/games/play/", data={"token": token, "csrfmiddlewaretoken": csrf},
                                      allow_redirects=False) as r:
                assert r.status == 302, r.status
        self.ws = await self.http.ws_connect(f"ws://127.0.0.1:{self.server.port}/ws/games/{self.game}/seat/",
                                             headers={"Origin": self.server.base})
        self.task = asyncio.get_running_loop().create_task(self._read(aiohttp))

    async def _read(self, aiohttp) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT and msg.json().get("type") == "view":
                self.versions.append(msg.json()["version"])

    async def closes(self, code: int, timeout: float = 5) -> None:
        for _ in range(int(timeout / 0.05)):
            if self.ws.closed:
                assert self.ws.close_code == code, self.ws.close_code
                return
            await asyncio.sleep(0.05)
        pytest.fail(f"the socket on port {self.server.port} stayed open")

    async def shows(self, version: int, timeout: float = 20) -> None:
        for _ in range(int(timeout / 0.05)):
            if version in self.versions:
                return
            await asyncio.sleep(0.05)
        pytest.fail(f"the socket on port {self.server.port} never showed version {version} "
                    f"(it showed {self.versions}; closed: {self.ws.closed}, code {self.ws.close_code})")


def test_a_move_made_through_one_process_reaches_a_seat_on_another(require_postgres, tmp_path):
    import aiohttp

    redis = RedisServer(tmp_path)
    redis.start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PYTEST_", "DB_", "CHANNEL_"))}
    env.update(DATABASE_URL=database_url(), CHANNEL_REDIS_URL=f"redis://127.0.0.1:{redis.port}/1",
               LOG_LEVEL="WARNING", DJANGO_SETTINGS_MODULE="config.settings")
    servers = [WebProcess(env, tmp_path / "web-a.log"), WebProcess(env, tmp_path / "web-b.log")]
    game = services.game_create(variant="sabra", players=2, seats=[{"name": "Ann"}, {"name": "Ben"}])
    tokens = [services.seat_take(game=game, index=i) for i in range(2)]
    try:
        for server in servers:
            wait_for(server.up, 60, f"web process on port {server.port}", logs=servers)

        async def play():
            jar = lambda: aiohttp.CookieJar(unsafe=True)  # noqa: E731 - cookies for 127.0.0.1
            async with aiohttp.ClientSession(cookie_jar=jar()) as ann_http, \
                    aiohttp.ClientSession(cookie_jar=jar()) as ben_http:
                # each seat's socket on its own process
                seats = [SeatSocket(ann_http, servers[0], game.pk), SeatSocket(ben_http, servers[1], game.pk)]
                for seat, token in zip(seats, tokens):
                    await seat.open(token)
                    await seat.shows(1)
                version = 1

                async def move(through: WebProcess):
                    nonlocal version
                    mover = (await asyncio.to_thread(lambda: type(game).objects.get(pk=game.pk).to_move))
                    async with ann_http.post(f"{through.base}/api/games/{game.pk}/moves/",
                                             json={"move": "draw", "expected_version": version},
                                             headers={"Authorization": f"Seat {tokens[mover]}"}) as r:
                        assert r.status == 201, await r.text()
                        version = (await r.json())["version"]
                    for seat in seats:
                        await seat.shows(version)

                for k in range(4):  # through A, then B, ...: each reaches both processes' sockets
                    await move(servers[k % 2])

                # Redis restarts: the open sockets close (notices may be missed: their pages poll),
                # a new one is refused while it is down, live at once when it is back
                await asyncio.to_thread(redis.stop)
                for seat in seats:
                    await seat.closes(LAYER_LOST)
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await SeatSocket(ben_http, servers[1], game.pk).open()
                assert refused.value.status == 403
                await asyncio.to_thread(redis.start)
                late = SeatSocket(ben_http, servers[1], game.pk)
                await late.open()
                await late.shows(version, timeout=3)  # its first frame at once, not after a silence and a 1011
                seats = [SeatSocket(ann_http, servers[0], game.pk), late]
                await seats[0].open()
                await seats[0].shows(version, timeout=3)
                await move(servers[0])
                return version

        last = asyncio.run(play())
        assert last == 6
    finally:
        for server in servers:
            server.stop()
        redis.stop()
