"""Helpers of the worker integration tests: a private redis-server on a free
port (stopped and started by the tests, never the machine's shared one), the
test process's Celery app pointed at it, and ``celery -A config worker``
subprocesses that use the test database. Every wait is bounded; teardown
kills every process started here."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, what: str, *, every: float = 0.2, logs=()):
    """Poll ``predicate`` until it returns a true value, at most ``timeout``
    seconds; fail naming ``what`` (and showing the end of ``logs``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {p.name} ---\n{p.tail()}" for p in logs)
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{tails}")
        time.sleep(every)


class RedisServer:
    """A redis-server of our own (append-only file on, so queued messages
    survive a stop and start, as a production broker should)."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.dir = workdir
        self.proc: subprocess.Popen | None = None
        self.log = workdir / "redis.log"
        self.name = "redis"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.dir),
             "--logfile", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.ping, 15, f"redis-server on port {self.port}", logs=[self])

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def tail(self, n: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:]) if self.log.exists() else ""


class Worker:
    """One ``celery -A config worker`` subprocess (solo pool: one process,
    so SIGKILL kills the task in hand too)."""

    def __init__(self, name: str, env: dict, workdir: Path, beat: bool = False, pool: str = "solo"):
        self.name = name
        self.log = workdir / f"worker-{name}.log"
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", pool, "-c", "1", "-l", "info",
               "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        if beat:
            cmd += ["-B", "-s", str(workdir / f"beat-{name}")]
        self._out = open(self.log, "wb")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self._out, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def ready(self) -> bool:
        if self.proc.poll() is not None:
            pytest.fail(f"worker {self.name} exited with {self.proc.returncode}\n{self.tail()}")
        return b" ready." in self.log.read_bytes()

    def holds_a_task(self, topic: str = "games.ai_move") -> bool:
        """Whether the worker has received a ``topic`` task it has not
        finished (by its log): killed now, it loses that message."""
        text = self.log.read_text(errors="replace")
        received = re.findall(rf"Task {re.escape(topic)}\[([0-9a-f-]+)\] received", text)
        done = set(re.findall(rf"Task {re.escape(topic)}\[([0-9a-f-]+)\] (?:succeeded|raised|retry)", text))
        return any(task not in done for task in received)

    def kill(self, sig=signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)  # its whole group (an embedded beat too)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self._out.close()

    def tail(self, n: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])


def database_url() -> str:
    """The URL of the database this test process uses (the ``test_...``
    database pytest-django created), for the workers."""
    from django.db import connection

    s = connection.settings_dict
    auth = quote(s.get("USER") or "postgres")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    return f"postgres://{auth}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def reset_pool(app) -> None:
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_server(tmp_path, require_postgres):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def broker(redis_server):
    """The test process's Celery app sends to the private Redis (not eager)."""
    from config.celery import app

    conf = app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.broker_write_url, conf.result_backend)
    from games import outbox

    conf.task_always_eager = False
    conf.broker_url = conf.broker_write_url = redis_server.url
    conf.result_backend = None
    reset_pool(app)
    outbox._broker_pause["until"] = 0.0  # no pause left over from another test's outage
    yield redis_server
    outbox._broker_pause["until"] = 0.0
    conf.task_always_eager, conf.broker_url, conf.broker_write_url, conf.result_backend = saved
    reset_pool(app)


@pytest.fixture
def workers(broker, transactional_db, tmp_path):
    """``workers(name, beat=False, defaults=False, pool="solo", **env)`` starts a worker
    on the private Redis and the test database and waits until it is
    ready. Its message visibility timeout is 5 s and its sweep every 2 s,
    unless ``defaults``: then every setting is the deployment's default.
    Killed at teardown, before the database is flushed."""
    started: list[Worker] = []
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("CELERY_", "PYTEST_", "DB_", "GAMES_", "CHANNEL_"))}
    base.update(DATABASE_URL=database_url(), CELERY_BROKER_URL=broker.url, LOG_LEVEL="WARNING",
                PYTHONUNBUFFERED="1", DJANGO_SETTINGS_MODULE="config.settings")
    quick = dict(CELERY_VISIBILITY_TIMEOUT="5", CELERY_RESTORE_INTERVAL="2")

    def start(name: str, *, beat: bool = False, defaults: bool = False, pool: str = "solo", **env) -> Worker:
        worker = Worker(name, {**base, **({} if defaults else quick), **{k: str(v) for k, v in env.items()}},
                        tmp_path, beat=beat, pool=pool)
        started.append(worker)
        wait_for(worker.ready, 60, f"worker {name} to be ready", every=0.3, logs=[worker])
        return worker

    start.all = started
    yield start
    for worker in started:
        worker.kill()


@pytest.fixture
def wait(workers, broker):
    """``wait(predicate, timeout, what)``: :func:`wait_for` showing the logs
    of the workers and of Redis on a timeout."""

    def run(predicate, timeout: float, what: str, every: float = 0.25):
        return wait_for(predicate, timeout, what, every=every, logs=[*workers.all, broker])

    return run
