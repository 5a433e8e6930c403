"""Settings from the environment: embedded defaults, PostgreSQL and Redis by
URL, and a production mode that refuses to start unsafe."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = ("import json, django; from django.conf import settings as s; django.setup(); "
         "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'name': str(s.DATABASES['default']['NAME']),"
         " 'eager': s.CELERY_TASK_ALWAYS_EAGER, 'broker': s.CELERY_BROKER_URL, 'results': s.CELERY_RESULT_BACKEND, 'layer': s.CHANNEL_LAYERS['default']['BACKEND'], 'debug': s.DEBUG,"
         " 'secure': getattr(s, 'SESSION_COOKIE_SECURE', False), 'apps': s.INSTALLED_APPS,"
         " 'hsts': [getattr(s, 'SECURE_HSTS_SECONDS', 0), getattr(s, 'SECURE_HSTS_INCLUDE_SUBDOMAINS', False),"
         " getattr(s, 'SECURE_HSTS_PRELOAD', False)],"
         " 'proxy': getattr(s, 'SECURE_PROXY_SSL_HEADER', None), 'anchor': len(s.GAMES_ANCHOR_KEY)}))")


def settings_with(**env):
    base = {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CHANNEL_REDIS_URL", "CHANNEL_REDIS_KIND", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
                         "TRUST_X_FORWARDED_PROTO", "GAMES_ANCHOR_KEY")}
    base.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=base, capture_output=True, text=True)
    return proc.returncode, (json.loads(proc.stdout) if proc.returncode == 0 else proc.stderr)


def test_defaults_are_sqlite_under_var_and_eager_tasks():
    code, s = settings_with()
    assert code == 0, s
    assert s["engine"] == "config.sqlite" and s["name"].endswith("var/tablekeeper.sqlite3")  # SQLite, config/sqlite/base.py
    assert s["eager"] is True and s["debug"] is True and "games" in s["apps"]


def test_urls_switch_to_postgresql_and_redis():
    code, s = settings_with(DATABASE_URL="postgres://u@db.example:5432/club", CELERY_BROKER_URL="redis://r:6379/0")
    assert code == 0, s
    assert s["engine"].endswith("postgresql") and s["name"] == "club"
    assert s["eager"] is False and s["broker"] == "redis://r:6379/0"


def test_production_mode_needs_a_secret_key_and_hosts():
    code, err = settings_with(DEBUG="0")
    assert code != 0 and "DEBUG=0 needs SECRET_KEY" in err
    code, err = settings_with(DEBUG="0", SECRET_KEY="x" * 50)
    assert code != 0 and "ALLOWED_HOSTS" in err
    code, s = settings_with(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="club.example")
    assert code == 0 and s["debug"] is False and s["secure"] is True
    code, err = settings_with(DEBUG="maybe")
    assert code != 0 and "not a yes/no value" in err


def test_production_mode_refuses_a_secret_key_shorter_than_50():
    code, err = settings_with(DEBUG="0", SECRET_KEY="x" * 49, ALLOWED_HOSTS="club.example")
    assert code != 0 and "50 or more random characters (it has 49)" in err


def test_production_mode_sends_hsts_with_subdomains_and_preload():
    code, s = settings_with(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="club.example")
    assert code == 0, s
    assert s["hsts"] == [3600, True, True]


def test_x_forwarded_proto_is_trusted_only_when_a_setting_says_a_proxy_sets_it():
    code, s = settings_with(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="club.example")
    assert code == 0 and s["proxy"] is None
    code, s = settings_with(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="club.example", TRUST_X_FORWARDED_PROTO="1")
    assert code == 0 and s["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_the_anchor_key_is_derived_from_the_secret_key_unless_set():
    code, s = settings_with(SECRET_KEY="y" * 50)
    assert code == 0 and s["anchor"] == 64
    code, s = settings_with(SECRET_KEY="y" * 50, GAMES_ANCHOR_KEY="kept-in-a-vault")
    assert code == 0 and s["anchor"] == len("kept-in-a-vault")


def test_a_broker_brings_no_result_backend_and_no_redis_channel_layer():
    """Writes must not wait on Redis: nothing reads task results, so a
    broker URL alone sets no result backend, and the live pages' layer is
    Redis only when CHANNEL_REDIS_URL says so."""
    code, s = settings_with(CELERY_BROKER_URL="redis://r:6379/0")
    assert code == 0, s
    assert s["results"] is None and s["layer"].endswith("InMemoryChannelLayer")
    code, s = settings_with(CELERY_BROKER_URL="redis://r:6379/0", CHANNEL_REDIS_URL="redis://r:6379/1",
                            CELERY_RESULT_BACKEND="redis://r:6379/2")
    assert code == 0, s
    assert s["results"] == "redis://r:6379/2" and s["layer"] == "config.channel_layer.PubSubLayer"


def test_the_redis_layer_is_pubsub_or_core_and_nothing_else():
    code, s = settings_with(CHANNEL_REDIS_URL="redis://r:6379/1", CHANNEL_REDIS_KIND="core")
    assert code == 0, s
    assert s["layer"] == "channels_redis.core.RedisChannelLayer"
    code, err = settings_with(CHANNEL_REDIS_URL="redis://r:6379/1", CHANNEL_REDIS_KIND="lists")
    assert code != 0 and "CHANNEL_REDIS_KIND is 'lists'" in err


def test_beat_repairs_often_enough_that_a_killed_worker_stalls_a_game_seconds_not_minutes():
    from celery import current_app
    from django.conf import settings

    import league.tasks  # noqa: F401  (registers league.redrive)

    beat = settings.CELERY_BEAT_SCHEDULE
    stalled = beat["games-requeue-stalled"]
    # the aim is every game moving again within 15 s of a kill: the idle time and the period leave
    # room for the move itself and a busy machine (the old 10 s + 5 s stalled games 13-18 s)
    assert stalled["schedule"] <= 5 and stalled["kwargs"]["idle_seconds"] + stalled["schedule"] <= 10
    assert beat["games-drain-outbox"]["schedule"] <= 5
    assert beat["league-redrive"]["task"] == "league.redrive" and "league.redrive" in current_app.tasks
    for entry in beat.values():
        assert entry["task"] in current_app.tasks


def test_a_killed_workers_sweep_lock_lapses_in_seconds():
    """kombu's Redis transport gives back a dead worker's unacknowledged
    messages in a sweep that runs under a lock; a worker killed while holding
    it would block every other worker's sweep for kombu's default 300 s (a
    fault test once stalled a game that long). The lock lapses in 15 s, and
    the sweep runs every 10 s."""
    from django.conf import settings

    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert options["unacked_mutex_expire"] <= 15
    assert options["unacked_restore_interval"] <= 10 and options["unacked_restore_throttle"] == 1
    assert options["visibility_timeout"] <= 60


def test_the_core_layers_redis_connections_outlast_its_blocking_wait_and_retry_a_dead_connection():
    """channels-redis's core layer waits for a process's messages with a BZPOPMIN of
    ``brpop_timeout`` (5 s): a read timeout no longer than that closed idle
    sockets with 1011. After a Redis restart every pooled connection is
    dead: a command meeting one is tried again on a new one."""
    probe = ("import json, django; from django.conf import settings as s; django.setup(); "
             "from channels_redis.core import RedisChannelLayer as L; "
             "h = s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]; "
             "print(json.dumps({'read': h.get('socket_timeout'), 'wait': L.brpop_timeout, "
             "'retries': h['retry'].get_retries() if h.get('retry') else 0}))")
    env = {k: v for k, v in os.environ.items() if k not in ("CHANNEL_REDIS_URL", "DATABASE_URL")}
    env.update(CHANNEL_REDIS_URL="redis://r:6379/1", CHANNEL_REDIS_KIND="core", DJANGO_SETTINGS_MODULE="config.settings")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    layer = json.loads(proc.stdout)
    assert layer["read"] is not None and layer["read"] > layer["wait"], layer
    assert layer["retries"] >= 1, layer
