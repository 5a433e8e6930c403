"""Settings, read from environment variables with embedded defaults.

With nothing set, tablekeeper runs for local development: ``DEBUG`` on, a
SQLite file under ``var/``, Celery tasks run eagerly in the web process.

=========================  =================================================
``DEBUG``                  ``1``/``0``; default ``1``. ``0`` is production
                           mode: ``SECRET_KEY`` and ``ALLOWED_HOSTS`` must be
                           set, cookies are secure, HTTPS is assumed.
``SECRET_KEY``             required when ``DEBUG=0`` (50 or more random
                           characters); in development a random key is
                           kept in ``var/secret_key``.
``TRUST_X_FORWARDED_PROTO`` ``1``: a proxy in front sets X-Forwarded-Proto
                           (production; default ``0``, the header is
                           ignored).
``GAMES_ANCHOR_KEY``       the key of the events' anchors; default derived
                           from ``SECRET_KEY``.
``ALLOWED_HOSTS``          comma-separated; default ``*`` in development.
``DATABASE_URL``           e.g. ``postgres://user@host:5432/tablekeeper``;
                           default ``sqlite:///var/tablekeeper.sqlite3``.
``DB_CONN_MAX_AGE``        seconds to keep database connections; default 60
                           (SQLite; PostgreSQL uses the pool instead).
``DB_POOL_MAX``            PostgreSQL: connections per process at most (a
                           psycopg pool); default 20, 0 for no pool.
``ASGI_THREADS``           threads of a web process that run requests
                           (default 8; config/asgi.py).
``CELERY_BROKER_URL``      e.g. ``redis://127.0.0.1:6379/0``; unset means
                           eager tasks (no worker, no Redis).
``CELERY_RESULT_BACKEND``  default: none (nothing reads task results).
``CHANNEL_REDIS_URL``      e.g. ``redis://127.0.0.1:6379/1``: the live pages' channel layer
                           (channels-redis); unset: in memory (one process).
``GAMES_SNAPSHOT_EVERY``   store an engine snapshot every N events (40).
``GAMES_AI_BUY_WINDOW``    seconds an AI seat on turn waits before it moves
                           while a person may still buy the discard (5).
=========================  =================================================
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable. :raises ImproperlyConfigured: on other text."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value (use 1 or 0)")


def env_int(name: str, default: int) -> int:
    """Read an integer variable. :raises ImproperlyConfigured: if not one."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def _dev_secret_key() -> str:
    path = VAR_DIR / "secret_key"
    if not path.exists():
        # written whole under another name, then linked into place: processes
        # starting together (test workers) all read the first key written
        tmp = path.with_name(f"secret_key.{os.getpid()}")
        tmp.write_text(secrets.token_urlsafe(50))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", True)

if DEBUG:
    SECRET_KEY = os.environ.get("SECRET_KEY") or _dev_secret_key()
    ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "*").split(",") if h]
else:
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("DEBUG=0 needs SECRET_KEY set to 50 or more random characters "
                                   f"(it has {len(SECRET_KEY)}), as Django's deployment check asks")
    ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h]
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DEBUG=0 needs ALLOWED_HOSTS (comma-separated host names)")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Only a proxy we run may say the request came over HTTPS: trusted only
    # when TRUST_X_FORWARDED_PROTO says such a proxy sets (and overwrites)
    # the header; otherwise any client could claim HTTPS.
    if env_bool("TRUST_X_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "daphne",  # runserver serves ASGI (the live pages' sockets)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "axes",
    "channels",
    "games",
]
if (BASE_DIR / "league" / "apps.py").exists() or (BASE_DIR / "league" / "models.py").exists():
    INSTALLED_APPS.append("league")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # a charset= outside a short allow-list (no bz2_codec, base64, utf-7...)
    # is a 415 before anything decodes a query string, form or body
    "games.charsets.RequestCharsets",
    "games.api_limits.ApiJsonErrors",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the browser's language, or the switch's
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

# Logins (admin and session logins, and the API's basic authentication) go
# through django-axes: after AXES_FAILURE_LIMIT wrong passwords for one
# user name from one address, that pair is locked out for AXES_COOLOFF_HOURS
# (answered 429), even with the right password.
#
# Password spraying (one guess at many user names) is locked per address:
# after LOGIN_ADDRESS_FAILURE_LIMIT failed logins from one address within
# LOGIN_ADDRESS_COOLOFF_SECONDS, every login from there is refused (429)
# before any password is hashed (games/login_limits.py; counted in the cache).
AUTHENTICATION_BACKENDS = [
    "games.login_limits.AddressLockBackend",
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_HOURS", 1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_IPWARE_PROXY_COUNT = env_int("NUM_PROXIES", 0)
AXES_VERBOSE = False
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20)
LOGIN_ADDRESS_COOLOFF_SECONDS = env_int("LOGIN_ADDRESS_COOLOFF_SECONDS", 3600)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'tablekeeper.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # the same backend, with the write lock queued for in the process first
    # (config/sqlite/base.py)
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    # WAL and IMMEDIATE transactions: readers never block the writer, and two
    # writers queue instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Connections are kept (DB_CONN_MAX_AGE): opening one costs a file
    # open, the pragmas and Django's SQL functions, a tenth of a move's time.
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_int("DB_POOL_MAX", 20) > 0:
    # A bounded pool per process (Django's psycopg pool): the web server's
    # threads and a worker's tasks borrow a connection for a request or a
    # task and give it back, so a process never holds more than DB_POOL_MAX
    # connections however many clients it serves. (A connection kept per
    # thread, CONN_MAX_AGE, ran PostgreSQL out of connections under load.)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN", 1), "max_size": env_int("DB_POOL_MAX", 20),
        "timeout": env_int("DB_POOL_TIMEOUT", 10)}
DATABASES["default"].setdefault("TEST", {})

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# The pages speak English, Dutch, Turkish and German: the browser's
# Accept-Language chooses, the switch in the header (django.views.i18n.
# set_language, a cookie) overrides it. Catalogues live in locale/
# (docs/i18n.md says how to add a language).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("tr", "Türkçe"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "static_collected"
STATICFILES_DIRS = [BASE_DIR / "static"]

# the sign-in page for organisers and players (Django's login view with
# the site's own template, accounts/login/); the admin keeps its own
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"


def env_site_url(name: str) -> str:
    """The public address of the site (``https://club.example.org``), with
    no trailing slash, or ``""``. :raises ImproperlyConfigured: not an
    http(s) address."""
    raw = (os.environ.get(name) or "").strip().rstrip("/")
    if raw and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", raw):
        raise ImproperlyConfigured(f"{name}={raw!r} is not an http(s) address (e.g. https://club.example.org)")
    return raw


# The address players reach the site at (SITE_URL, e.g. https://club.example.org):
# every QR code and absolute link the pages print uses it, and the desks
# show it. Empty: the address the organiser browses with (127.0.0.1 on a
# laptop is not one a phone can open: set it for an evening).
SITE_URL = env_site_url("SITE_URL")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.auth.SeatTokenAuthentication",
        "games.auth.SeatSessionAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "games.api.exception_handler",
    # JSON only, with size and depth limits (games/api_limits.py)
    "DEFAULT_PARSER_CLASSES": ["games.api_limits.LimitedJSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["games.api_limits.ScopedRateThrottle"],
    # How many proxies in front of the site set X-Forwarded-For: 0 means the
    # client address is REMOTE_ADDR (a client cannot pick its own address
    # to dodge a rate limit).
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# Request limits of the API (games/api_limits.py). Rates are "N/s", "N/min",
# "N/hour" or "N/day", counted per client address and, besides, per user or
# seat credential (either full: 429); an empty variable switches that limit
# off. The counts live in the cache (CACHES): give every web process the
# same cache (Redis) in production, or each process counts on its own.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 100_000)
API_MAX_JSON_DEPTH = env_int("API_MAX_JSON_DEPTH", 32)
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 1_000_000)
API_RATE_LIMITS = {
    "game-create": os.environ.get("API_RATE_GAME_CREATE", "30/min") or None,
    "seat-take": os.environ.get("API_RATE_SEAT_TAKE", "30/min") or None,
    "audit": os.environ.get("API_RATE_AUDIT", "10/min") or None,
    "dispute": os.environ.get("API_RATE_DISPUTE", "10/min") or None,
    "move-stale": os.environ.get("API_RATE_MOVE_STALE", "30/min") or None,  # moves refused as stale (409)
    "compose": os.environ.get("API_RATE_COMPOSE", "120/min") or None,
    "timeout": os.environ.get("API_RATE_TIMEOUT", "20/min") or None,
    "receipt": os.environ.get("API_RATE_RECEIPT", "60/min") or None,  # receipt checks
}
if os.environ.get("CACHE_URL", "").startswith("redis://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": os.environ["CACHE_URL"]}}

SPECTACULAR_SETTINGS = {
    "TITLE": "tablekeeper API",
    "DESCRIPTION": (
        "Event-sourced rummy games: create a game, take a seat (you get a seat "
        "credential), read your seat's view, submit moves with the version you "
        "saw, download the record and audit a finished game. Send the seat "
        "credential as `Authorization: Seat <token>`."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}

# --- Celery -----------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
# No result backend unless one is asked for: nothing reads task results (task
# states are the project's own rows, games/task_state.py), and a backend on
# the broker's Redis made every write that queued a task wait ~20 s for it
# while Redis was down.
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_IGNORE_RESULT = CELERY_RESULT_BACKEND is None
# A task's message is acknowledged when the task ends, not when a worker
# takes it, and a worker reserves one message per process: a worker killed
# mid-task loses (until the visibility timeout) only the one it held, and
# beat's repairs below queue that move again. Tasks are safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The worker's consumer tries a lost broker again every second at most
# (config.celery.Consumer), and sends the outbox as soon as it is back.
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # for as long as the outage lasts
BROKER_RETRY_MAX_SECONDS = float(os.environ.get("CELERY_BROKER_RETRY_MAX", "1"))
# Celery's Django fixup closes every connection around each task, and in a
# prefork worker with a pool it closes the whole pool: about one new
# PostgreSQL connection per task. With this, it does so only once every
# this many tasks; config.celery returns the connection to the process's
# pool at each task's end instead (as a web request does).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A publish to an unreachable broker fails fast instead of hanging the request:
# the outbox row stays pending and is sent by a later drain.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2,
    # A message taken by a worker that dies (SIGKILL, power cut) goes back to
    # the queue after this many seconds. Tasks are short and safe to run
    # twice, so a short timeout only costs a harmless duplicate.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 60),
    # ...found by a sweep of the unacknowledged messages every this many
    # seconds (kombu's default sweeps only every 100 s).
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": 1,
    # The sweep runs under a Redis lock; a worker killed while holding it
    # would block every other worker's sweep until the lock expires (kombu's
    # default: 300 s, longer than a game should stall). A sweep takes
    # milliseconds: the lock lapses after this many seconds.
    "unacked_mutex_expire": env_int("CELERY_UNACKED_MUTEX_EXPIRE", 15),
}
# Periodic repairs (run one beat: ``celery -A config beat``, or ``worker -B``
# on one machine): send outbox rows left pending while Redis was away, and
# queue again AI moves and disputes whose task was lost.
# A worker killed with a task in hand loses it (the message comes back only
# after the visibility timeout): every CELERY_REQUEUE_SECONDS (2 s), games
# whose AI seat is to move and that have not moved for CELERY_REQUEUE_IDLE
# seconds (5 s) get their move queued again (once per idle time per game),
# so a game moves again at most about 7 s after a kill plus the move itself
# (the aim is 15 s at p100). An AI move takes milliseconds, so a game idle
# for 5 s with its AI seat on turn has lost its message or waits in a queue
# that long: the duplicate then costs one read and does nothing.
# The league's tasks (a finished game's result, a closed round's standings,
# autoplay's next round) are re-driven the same way until their effect is
# seen (league.redrive).
CELERY_BEAT_SCHEDULE = {
    "games-drain-outbox": {"task": "games.drain_outbox",
                           "schedule": float(env_int("CELERY_OUTBOX_DRAIN_SECONDS", 5))},
    "games-requeue-stalled": {"task": "games.requeue_stalled",
                              "schedule": float(env_int("CELERY_REQUEUE_SECONDS", 2)),
                              "kwargs": {"idle_seconds": env_int("CELERY_REQUEUE_IDLE", 5),
                                         "dispute_idle_seconds": env_int("CELERY_DISPUTE_REQUEUE_IDLE", 120)}},
    # a checkpoint of every stream's head (games/checkpoints.py; nothing is
    # written when no stream moved since the last one)
    "games-checkpoint": {"task": "games.checkpoint",
                         "schedule": float(env_int("CELERY_CHECKPOINT_SECONDS", 3600)),
                         "kwargs": {"reason": "beat"}},
    "league-redrive": {"task": "league.redrive",
                       "schedule": float(env_int("CELERY_REDRIVE_SECONDS", 5)),
                       "kwargs": {"idle_seconds": env_int("CELERY_REDRIVE_IDLE", 10)}},
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- games --------------------------------------------------------------------
# The key of the events' anchors (an HMAC of each event's hash): kept outside
# the database, so whoever can write the database cannot re-anchor a
# rewritten history. Default: derived from SECRET_KEY. Keep it stable: a new
# key makes every stored anchor fail the audit.
GAMES_ANCHOR_KEY = os.environ.get("GAMES_ANCHOR_KEY") or hmac.new(
    SECRET_KEY.encode("utf-8"), b"tablekeeper games anchor", hashlib.sha256).hexdigest()
GAMES_SNAPSHOT_EVERY = env_int("GAMES_SNAPSHOT_EVERY", 40)
# An outbox row the broker refused is tried again after a pause doubling from
# 1 s to this many seconds, for as long as it takes (never given up).
GAMES_OUTBOX_RETRY_BASE = 1.0
GAMES_OUTBOX_RETRY_MAX = float(env_int("GAMES_OUTBOX_RETRY_MAX", 60))
# Contract rummy: while a person may still buy the top discard (or undo one),
# the AI seat on turn waits this long after the last move before it draws.
GAMES_AI_BUY_WINDOW = env_int("GAMES_AI_BUY_WINDOW", 5)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}


# --- load shedding (config/shedding.py) -------------------------------------------
# A web process refuses (503, Retry-After) a request that would wait longer
# than this before Django starts on it, instead of queueing it; 0: never.
SHED_DEADLINE_MS = env_int("SHED_DEADLINE_MS", 250)
# Threads of an ASGI process that run requests (config/asgi.py), each
# keeping its database connection as a WSGI server's threads do.
ASGI_THREADS = max(1, env_int("ASGI_THREADS", 8))
SHED_RETRY_AFTER = env_int("SHED_RETRY_AFTER", 1)


# --- live pages (Django Channels) --------------------------------------------
# The seat and replay pages get a push over a WebSocket when their game moves
# on (games/consumers.py, docs/live.md). Served by an ASGI server (uvicorn,
# config/web.py; bin/demo, bin/serve). One web process: the in-memory layer. Several processes, or
# Celery workers whose AI moves must reach the pages: set CHANNEL_REDIS_URL.
# It is never taken from the broker URL on its own: a push is a courtesy
# (the pages poll when a socket drops) and must not share a Redis outage's
# fate with every write.
ASGI_APPLICATION = "config.asgi.application"
CHANNEL_REDIS_URL = os.environ.get("CHANNEL_REDIS_URL", "")
if CHANNEL_REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    # Each process keeps a pool of connections to the layer's Redis. After
    # Redis restarts, every pooled connection is dead: without a retry, the
    # first command on one failed (the first socket after a restart was
    # accepted, stayed silent and closed with 1011). A command that meets a
    # dead connection, or none, is tried again on a new one (twice, 50-200
    # ms apart; every layer command is safe to repeat: a group's member
    # added twice is added once, a move's notice sent twice redraws nothing);
    # a connection attempt gives up after a second. And a read waits 10 s:
    # the core layer waits for a socket's messages with BZPOPMIN for 5 s,
    # and redis-py's default read timeout is 5 s too, so an idle socket's
    # wait raced its own timeout and the socket was closed with 1011 after
    # 5-16 s.
    #
    # Which of channels-redis's layers (config/channel_layer.py): "pubsub"
    # (the default: a move's notice is one PUBLISH, heard by the processes
    # listening then) or "core" (lists: a notice waits in Redis for a
    # process slow to read it, at 1.5-2 ms more of a move's CPU at 200
    # games; docs/live.md).
    CHANNEL_REDIS_KIND = os.environ.get("CHANNEL_REDIS_KIND", "pubsub")
    if CHANNEL_REDIS_KIND not in ("pubsub", "core"):
        raise ImproperlyConfigured(f"CHANNEL_REDIS_KIND is {CHANNEL_REDIS_KIND!r}: it must be 'pubsub' or 'core'")
    if CHANNEL_REDIS_KIND == "pubsub":
        CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.PubSubLayer", "CONFIG": {
            "hosts": [{"address": CHANNEL_REDIS_URL, "socket_connect_timeout": 1, "socket_timeout": 10,
                       "retry": Retry(ExponentialBackoff(cap=0.2, base=0.05), 2)}]}}}
    else:
        CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {
            "hosts": [{"address": CHANNEL_REDIS_URL, "socket_connect_timeout": 1, "socket_timeout": 10,
                       "retry": Retry(ExponentialBackoff(cap=0.2, base=0.05), 2)}],
            "capacity": 500, "expiry": 30}}}
else:
    # in memory, one process (config/channel_layer.py)
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.SweepingInMemoryChannelLayer"}}
