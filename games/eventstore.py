"""The append-only event store.

A stream is one game; its events are numbered 1, 2, 3, ... An append names
the version the writer last saw (``expected_version``); the new event gets
``expected_version + 1``, and the unique ``(game, version)`` constraint lets
exactly one of several concurrent writers win that number. The others get a
:class:`ConcurrencyConflict`.

Every event carries ``hash = sha256(prev_hash + canonical JSON of the row)``
with ``prev_hash`` the previous event's hash (64 zeros for the first), so an
edited, inserted or deleted row breaks the chain from that row on.

Each event also carries ``anchor``, the HMAC-SHA256 of its hash under
``settings.GAMES_ANCHOR_KEY``, a key kept outside the database (by default
derived from ``SECRET_KEY``): whoever can write the database but does not
hold the key can re-chain the hashes after an edit, but cannot give the
re-chained rows valid anchors, so the audit names the edited event.

Event shapes evolve: each type has a current schema version, and upcasters
turn an old stored payload into the current shape when it is read (the
stored row, and so its hash, never changes).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone as dt_timezone
from typing import Any, Callable, Iterable

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.utils import timezone

from .models import Event, Game

GENESIS_HASH = "0" * 64

# Event types and their current schema versions.
GAME_CREATED = "GameCreated"
MOVE_RECORDED = "MoveRecorded"
GAME_FINISHED = "GameFinished"
SEAT_NAMED = "SeatNamed"  # a seat's player named when the seat was taken
CURRENT_SCHEMA: dict[str, int] = {GAME_CREATED: 2, MOVE_RECORDED: 2, GAME_FINISHED: 1, SEAT_NAMED: 1}

# (type, stored schema version) -> function giving the payload one version up.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {}


class ConcurrencyConflict(Exception):
    """An append at a version that is no longer the stream's head.

    :param expected: the version the writer saw.
    :param actual: the stream's version now (``None`` if not known).
    """

    def __init__(self, game_id: int, expected: int, actual: int | None = None):
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        now = "" if actual is None else f"; it is at version {actual}"
        super().__init__(
            f"game {game_id} is no longer at version {expected}{now}: reload and try again"
        )


def upcaster(event_type: str, from_schema: int):
    """Register a function turning a ``from_schema`` payload of
    ``event_type`` into the next schema version's shape."""

    def register(fn):
        UPCASTERS[(event_type, from_schema)] = fn
        return fn

    return register


@upcaster(GAME_CREATED, 1)
def _game_created_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    # Schema 1 named the rule options "options" and the seats by name only.
    data = dict(payload)
    data["rules"] = data.pop("options", {}) or {}
    names = data.pop("seat_names", None)
    if "seats" not in data:
        names = names or [f"seat {i}" for i in range(data["players"])]
        data["seats"] = [{"name": n, "kind": "human"} for n in names]
    data.setdefault("first", 0)
    return data


@upcaster(MOVE_RECORDED, 1)
def _move_recorded_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    # Schema 1 put the seat on turn in "seat" and, for a move by a seat off
    # turn (a contract buy or undo), the seat that moved in "by". Schema 2:
    # "seat" is the seat that moved.
    data = dict(payload)
    by = data.pop("by", None)
    if by is not None:
        data["seat"] = by
    return data


@dataclass(frozen=True)
class StoredEvent:
    """An event as read back, its payload upcast to the current schema."""

    version: int
    type: str
    payload: dict[str, Any]
    actor: str
    recorded_at: datetime
    hash: str
    stored_schema: int


def upcast(event_type: str, schema_version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload in the current shape of ``event_type``.

    :raises ValueError: a stored schema newer than this code knows, or an
        old one with no upcaster.
    """
    current = CURRENT_SCHEMA.get(event_type)
    if current is None:  # a type this module does not own: carried as stored
        return payload
    if schema_version > current:
        raise ValueError(f"{event_type} schema {schema_version} is newer than this code ({current})")
    while schema_version < current:
        step = UPCASTERS.get((event_type, schema_version))
        if step is None:
            raise ValueError(f"no upcaster for {event_type} schema {schema_version}")
        payload = step(payload)
        schema_version += 1
    return payload


def _stamp(moment: datetime) -> str:
    # (isoformat: the same text as strftime("%Y-%m-%dT%H:%M:%S.%fZ"), in a
    # third of the time; the microseconds are always written)
    return moment.astimezone(dt_timezone.utc).isoformat(timespec="microseconds")[:-6] + "Z"


def canonical_bytes(*, game_id: int, version: int, type: str, schema_version: int,
                    payload: Any, actor: str, recorded_at: datetime) -> bytes:
    """The canonical JSON of an event row that its hash covers."""
    body = {
        "stream": game_id,
        "version": version,
        "type": type,
        "schema": schema_version,
        "payload": payload,
        "actor": actor,
        "at": _stamp(recorded_at),
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_hash(prev_hash: str, body: bytes) -> str:
    """sha256 over the previous hash and the canonical row."""
    return hashlib.sha256(prev_hash.encode("ascii") + b"\n" + body).hexdigest()


def anchor_key() -> bytes:
    """The key of the anchors: ``settings.GAMES_ANCHOR_KEY``."""
    key = getattr(settings, "GAMES_ANCHOR_KEY", "") or ""
    if not key:
        raise RuntimeError("settings.GAMES_ANCHOR_KEY is empty: events cannot be anchored")
    return key.encode("utf-8")


def subkey(label: str) -> bytes:
    """A key of its own for ``label`` (head receipts, checkpoints), derived
    from :func:`anchor_key` by HMAC: what is signed under one purpose is
    never valid under another (an anchor is never a receipt)."""
    return hmac.new(anchor_key(), b"tablekeeper/" + label.encode("ascii"), hashlib.sha256).digest()


def anchor(digest: str, key: bytes | None = None) -> str:
    """The anchor of an event whose hash is ``digest``: HMAC-SHA256 of the
    hash under :func:`anchor_key` (``key``, if the caller holds it)."""
    return hmac.digest(key or anchor_key(), digest.encode("ascii"), "sha256").hex()


def anchor_holds(digest: str, stored: str) -> bool:
    """Whether ``stored`` is the anchor of ``digest`` (compared in constant
    time)."""
    return bool(stored) and hmac.compare_digest(anchor(digest), stored)


def expected_hash(event: Event, prev_hash: str) -> str:
    """The hash ``event`` should carry if it follows ``prev_hash``."""
    return chain_hash(prev_hash, canonical_bytes(
        game_id=event.game_id, version=event.version, type=event.type,
        schema_version=event.schema_version, payload=event.payload,
        actor=event.actor, recorded_at=event.recorded_at))


def bound_cursor(db=None):
    """A cursor for the hot path's fixed statements (the move's write, the
    events' insert, the projection's update). On PostgreSQL it binds the
    parameters on the server and prepares each statement: PostgreSQL parses
    and plans it once per connection (psycopg keeps a connection's prepared
    statements), and the values travel beside the statement instead of
    being quoted into its text by the client (the engine state's JSON,
    several KB, was escaped character by character at every move). Parsing
    and planning the move's statement was a quarter of PostgreSQL's time
    for a move. Django's wrapper stays around it: its error translation,
    query logging and ``execute_wrapper`` hooks see these statements as any
    other. ``settings.GAMES_PREPARED_STATEMENTS = False`` turns the
    preparing off (behind a pooler that keeps no prepared statements, such
    as PgBouncer in transaction mode before 1.21). Elsewhere: the
    connection's own cursor.

    ``db``: the connection (``django.db.connections[alias]``) if the caller
    holds it; each attribute read through ``django.db.connection`` looks the
    connection up in a thread-local again."""
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    cursor_class, prepare = _server_cursor()
    raw = db.connection
    if prepare and raw.prepare_threshold is None:
        # Django switches psycopg's preparing off for the whole connection;
        # these statements ask for it one by one (Django's own cursors bind
        # on the client and never prepare, whatever the threshold)
        raw.prepare_threshold = _ONLY_WHEN_ASKED
    with db.wrap_database_errors:
        return db._prepare_cursor(cursor_class(raw))


_ONLY_WHEN_ASKED = 2 ** 31  # a threshold no statement reaches by being run often


@functools.cache
def _server_cursor():
    """``(class, prepare)``: Django's server-binding cursor class, made to
    prepare every statement it runs unless ``GAMES_PREPARED_STATEMENTS`` is
    false."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    prepare = bool(getattr(settings, "GAMES_PREPARED_STATEMENTS", True))

    class PreparedCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=prepare, binary=None):
            done = super().execute(query, params, prepare=prepare, binary=binary)
            if self._query is None:
                # a statement run as prepared leaves psycopg's record of the
                # query unset, where Django's query log reads its text
                self._query = _Ran(query.encode() if isinstance(query, str) else query)
            return done

    return PreparedCursor, prepare


@dataclass(frozen=True)
class _Ran:
    """The text of a statement run as prepared, for Django's query log
    (``last_executed_query`` reads ``cursor._query.query``)."""

    query: bytes
    params: None = None


def read_head(game_id: int) -> tuple[int, str]:
    """``(version, hash)`` of the stream's last event; ``(0, GENESIS_HASH)``
    for an empty stream."""
    with connection.cursor() as cur:  # hot path: plain SQL, no query building
        cur.execute(_HEAD_SQL, [game_id])
        row = cur.fetchone()
    return (row[0], row[1]) if row is not None else (0, GENESIS_HASH)


_HEAD_SQL = (f"SELECT version, hash FROM {Event._meta.db_table} WHERE game_id = %s "
             f"ORDER BY version DESC LIMIT 1")


def append(game: Game | int, *, expected_version: int,
           events: Iterable[tuple[str, dict[str, Any]]], actor: str = "",
           head: tuple[int, str] | None = None) -> list[Event]:
    """Append ``events`` (``(type, payload)`` pairs) after ``expected_version``.

    Runs in the caller's transaction (opening one if there is none); the
    events are numbered ``expected_version + 1``, ``+ 2``, ... A conflict
    seen when reading the head leaves the transaction usable; one raised by
    the unique constraint (a writer that won between the read and the
    insert) spoils the enclosing transaction, which must then be left and
    retried in a new one: no savepoint is taken, each costs round trips.

    ``head`` is ``(version, hash)`` of the stream's last event if the caller
    has just read it (saves a query); otherwise it is read here. A stale
    ``head`` can only cause a conflict, never a gap or a broken chain: the
    unique constraint still decides.

    :raises ConcurrencyConflict: the stream is not at ``expected_version``,
        or another writer took the next version first.
    :raises ValueError: a payload that is not JSON-safe.
    """
    rows = prepare(game, expected_version=expected_version, events=events, actor=actor, head=head)
    write(rows)
    return rows


def write(rows: list[Event]) -> None:
    """Insert rows made by :func:`prepare`, in the caller's transaction
    (opening one if there is none).

    :raises ConcurrencyConflict: another writer took one of the versions.
    """
    if not rows:
        return
    with transaction.atomic(savepoint=False):
        try:
            _insert(rows)
        except IntegrityError:
            # another writer took the version between our read and our insert
            raise ConcurrencyConflict(rows[0].game_id, rows[0].version - 1) from None


def prepare(game: Game | int, *, expected_version: int,
            events: Iterable[tuple[str, dict[str, Any]]], actor: str = "",
            head: tuple[int, str] | None = None) -> list[Event]:
    """The unsaved :class:`Event` rows :func:`append` would write: numbered,
    hashed on ``head`` (read here if not given) and anchored.

    :raises ConcurrencyConflict: the head is not at ``expected_version``.
    :raises ValueError: a payload that is not JSON-safe.
    """
    game_id = game if isinstance(game, int) else game.pk
    events = list(events)
    if not events:
        return []
    version, prev = head if head is not None else read_head(game_id)
    if version != expected_version:
        raise ConcurrencyConflict(game_id, expected_version, version)
    rows = []
    now = timezone.now()
    key = anchor_key()
    for event_type, payload in events:
        version += 1
        schema = CURRENT_SCHEMA.get(event_type, 1)
        try:
            body = canonical_bytes(game_id=game_id, version=version, type=event_type,
                                   schema_version=schema, payload=payload, actor=actor, recorded_at=now)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{event_type} payload is not JSON-safe: {exc}") from None
        digest = chain_hash(prev, body)
        # (positional, in the model's field order _EVENT_FIELDS: half the
        # time of keyword arguments)
        rows.append(Event(None, game_id, version, event_type, schema, payload, actor, now, prev, digest,
                          anchor(digest, key)))
        prev = digest
    return rows


_COLUMNS = ("game_id", "version", "type", "schema_version", "payload", "actor", "recorded_at",
            "prev_hash", "hash", "anchor")
# the model's fields in order, as prepare() passes them (checked at import)
_EVENT_FIELDS = ("id",) + _COLUMNS
assert tuple(f.attname for f in Event._meta.concrete_fields) == _EVENT_FIELDS, "Event's fields changed: see prepare()"


def _params(rows: list[Event], db) -> list[Any]:
    adapt = db.ops.adapt_datetimefield_value  # (what the field's get_db_prep_value does)
    params: list[Any] = []
    for r in rows:
        params += [r.game_id, r.version, r.type, r.schema_version, json.dumps(r.payload), r.actor,
                   adapt(r.recorded_at), r.prev_hash, r.hash, r.anchor]
    return params


def _saved(rows: list[Event], ids: list[int], db) -> None:
    for r, pk in zip(rows, ids):
        r.pk = r.id = pk
        r._state.adding = False
        r._state.db = db.alias


@functools.lru_cache(maxsize=16)
def _insert_sql(vendor: str, n: int) -> str:
    json_param = "CAST(%s AS jsonb)" if vendor == "postgresql" else "%s"
    one = "(" + ", ".join(json_param if c == "payload" else "%s" for c in _COLUMNS) + ")"
    return (f"INSERT INTO {Event._meta.db_table} ({', '.join(_COLUMNS)}) VALUES "
            + ", ".join([one] * n) + " RETURNING id")


def _insert(rows: list[Event]) -> None:
    """One plain multi-row INSERT (hot path: the ORM's bulk_create builds
    its query anew each time). The rows get their ids from RETURNING."""
    db = connections[DEFAULT_DB_ALIAS]
    with bound_cursor(db) as cur:
        cur.execute(_insert_sql(db.vendor, len(rows)), _params(rows, db))
        _saved(rows, [row[0] for row in cur.fetchall()], db)


def insert_guarded(rows: list[Event], guard_sql: str, guard_params: list[Any], *,
                   also: Iterable[tuple[str, list[Any]]] = (), db=None) -> None:
    """Write ``rows`` in one statement with other changes, on PostgreSQL:
    ``guard_sql`` is a data-modifying statement (an ``UPDATE ... RETURNING``)
    run first in the same statement, and the events are written only if it
    returned a row. Each of ``also`` (``(sql, params)``) is another
    data-modifying statement written as ``INSERT ... SELECT ... FROM guard``
    (a snapshot, outbox rows): it writes only if the guard found its row.
    Outside a transaction the statement is its own: the guard's change, the
    others and the events are committed together in one round trip, or
    none is.

    ``db``: the connection, if the caller holds it (:func:`bound_cursor`).

    :raises ConcurrencyConflict: the guard returned no row, or another
        writer took one of the versions (the unique constraint).
    """
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        raise NotImplementedError("insert_guarded needs PostgreSQL (a data-modifying WITH)")
    also = list(also)
    params = list(guard_params)
    for _sql, more in also:
        params += more
    try:
        with bound_cursor(db) as cur:
            cur.execute(_guarded_sql(guard_sql, tuple(sql for sql, _ in also), len(rows)), params + _params(rows, db))
            ids = [row[0] for row in cur.fetchall()]
    except IntegrityError:
        raise ConcurrencyConflict(rows[0].game_id, rows[0].version - 1) from None
    if len(ids) != len(rows):  # the guard found nothing: another writer moved the stream on
        raise ConcurrencyConflict(rows[0].game_id, rows[0].version - 1)
    _saved(rows, ids, db)


@functools.lru_cache(maxsize=64)
def _guarded_sql(guard_sql: str, also: tuple[str, ...], n: int) -> str:
    """The statement of :func:`insert_guarded` (built once per shape)."""
    one = "SELECT " + ", ".join(f"CAST(%s AS {_cast(c)})" for c in _COLUMNS) + " FROM guard"
    ctes = [f"guard AS ({guard_sql})"] + [f"also{i} AS ({sql})" for i, sql in enumerate(also)]
    return (f"WITH {', '.join(ctes)} INSERT INTO {Event._meta.db_table} ({', '.join(_COLUMNS)}) "
            + " UNION ALL ".join([one] * n) + " RETURNING id")


def guarded_insert(model, columns: tuple[str, ...], values: list[list[Any]], *,
                   on_conflict: str = "") -> tuple[str, list[Any]]:
    """``(sql, params)`` inserting ``values`` (one list per row, in the
    order of ``columns``; JSON columns given as JSON text) into ``model``'s
    table, for :func:`insert_guarded`'s ``also``: the rows are written only
    if the guard found its row. ``on_conflict``: ``"nothing"`` to skip rows
    a unique constraint already holds (``ON CONFLICT DO NOTHING``)."""
    params: list[Any] = []
    for row in values:
        params += row
    return _guarded_insert_sql(model, tuple(columns), len(values), on_conflict), params


@functools.lru_cache(maxsize=32)
def _guarded_insert_sql(model, columns: tuple[str, ...], n: int, on_conflict: str) -> str:
    one = "SELECT " + ", ".join(f"CAST(%s AS {_cast(c, model)})" for c in columns) + " FROM guard"
    tail = " ON CONFLICT DO NOTHING" if on_conflict == "nothing" else ""
    return (f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
            + " UNION ALL ".join([one] * n) + tail)


@functools.cache
def _cast(column: str, model=Event) -> str:
    """A column's PostgreSQL type, for the ``SELECT`` of
    :func:`insert_guarded` (whose bare parameters would otherwise be text).
    Without a length (``varchar``, not ``varchar(64)``): a cast would cut an
    over-long value where the column refuses it."""
    field = next(f for f in model._meta.concrete_fields if f.column == column)
    return re.sub(r"\(\d+\)", "", field.db_type(connection))


def load(game_id: int, *, after_version: int = 0, upto_version: int | None = None) -> list[StoredEvent]:
    """The stream's events after ``after_version`` (up to ``upto_version``),
    in order, payloads upcast to the current schema.

    :raises ValueError: an event whose schema cannot be upcast.
    """
    from .rows import event_rows  # one plain statement, built once (the ORM compiling it was most of a short read)

    out = []
    for version, etype, schema, payload, actor, at, digest in event_rows(game_id, after_version, upto_version):
        out.append(StoredEvent(version, etype, upcast(etype, schema, payload), actor, at, digest, schema))
    return out
