"""Shared test configuration.

Integration tests (``@pytest.mark.integration``) need the real PostgreSQL
(``DATABASE_URL``) and Redis (``CELERY_BROKER_URL``); ``.ci/run`` runs them
in its second leg. Run outside that leg they fail with the reason, never skip
silently: the first leg deselects them with ``-m "not integration"``.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the test database is a file in WAL mode, not Django's
    shared-cache memory database. The browser and live tests serve pages
    from other threads of this process, each with its own connection, and a
    shared-cache memory database locks a table against every reader while
    one connection writes it ("database table is locked", at once, with no
    waiting): a page read while a computer seat's move was being written
    failed. In WAL mode readers read while one connection writes."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] in ("django.db.backends.sqlite3", "config.sqlite"):
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _no_buy_window(settings):
    """AI seats move at once (tests of the buy window set their own)."""
    settings.GAMES_AI_BUY_WINDOW = 0


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Each test starts with empty rate-limit counts (they live in the cache,
    which outlives a test; the login lockouts live in the test's database)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def require_postgres(settings):
    """Fail (not skip) unless the default database is PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.fail("this integration test needs PostgreSQL: set DATABASE_URL="
                    "postgres://postgres@127.0.0.1:5432/tablekeeper (see .ci/run)")
    return connection


@pytest.fixture
def require_redis():
    """Fail (not skip) unless CELERY_BROKER_URL names a reachable Redis."""
    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.fail("this integration test needs CELERY_BROKER_URL=redis://127.0.0.1:6379/15")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.fail(f"Redis at {url} is unreachable: {exc}")
    return url
