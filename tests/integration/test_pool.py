"""The web server on PostgreSQL keeps to its connection pool: the web
process (``python -m config.web``) as a subprocess with ``DB_POOL_MAX=3`` serves 60 concurrent requests; every one
is answered, and PostgreSQL never sees more than 3 connections from it.
(With ``DB_POOL_MAX=0``, a connection kept per thread, the same burst held
59 connections: the failure this test guards against.)"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from games import services

from .conftest import ROOT, database_url, free_port, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_sixty_concurrent_requests_stay_within_a_pool_of_three(require_postgres):
    from django.db import connection

    games = [services.game_create(variant="sabra", players=2, seats=[{"name": "Ann"}, {"name": "Ben"}])
             for _ in range(4)]
    tokens = [services.seat_take(game=g, index=0) for g in games]
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PYTEST_"))}
    env.update(DATABASE_URL=database_url(), DB_POOL_MAX="3", DB_POOL_MIN="1", LOG_LEVEL="ERROR",
               SHED_DEADLINE_MS="0",  # the pool is under test: no request refused for the burst
               PGAPPNAME="tk-pool-under-test",  # the server's connections, told apart from this process's
               DJANGO_SETTINGS_MODULE="config.settings")
    server = subprocess.Popen([sys.executable, "-m", "config.web", "-b", "127.0.0.1", "-p", str(port),
                               "--log-level", "warning"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    name = connection.settings_dict["NAME"]
    samples: list[int] = []
    stop = threading.Event()

    def sample():
        import psycopg

        with psycopg.connect(database_url(), autocommit=True) as conn:
            while not stop.is_set():
                samples.append(conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                    "AND application_name = 'tk-pool-under-test'", (name,)).fetchone()[0])
                time.sleep(0.02)

    try:
        def up():
            try:
                return requests.get(f"{base}/api/games/", timeout=1).status_code == 200
            except requests.RequestException:
                assert server.poll() is None, server.stderr.read().decode()[-2000:]
                return False

        wait_for(up, 30, "the web server")
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        def get(i):
            game, token = games[i % 4], tokens[i % 4]
            r = requests.get(f"{base}/api/games/{game.pk}/view/", headers={"Authorization": f"Seat {token}"},
                             timeout=30)
            return r.status_code

        with ThreadPoolExecutor(60) as pool:
            statuses = list(pool.map(get, range(60)))
        stop.set()
        sampler.join(2)
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
    assert statuses == [200] * 60
    held = max(samples)
    print(f"\npool: 60 concurrent requests, all answered; the server held at most {held} connections (pool 3)")
    assert 1 <= held <= 3, samples
