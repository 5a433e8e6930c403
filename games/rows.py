"""Plain SQL reads of the hot path: a seat by its credential, a game's
projection row with the stream's head, and a stretch of a game's events.
Each is one statement built once,
read into model instances through the converters the ORM itself applies,
without the ORM compiling the query at every request (that compiling was
half a seat's view request; ``docs/workers.md``)."""

from __future__ import annotations

import functools

from django.db import connection

from .models import Event, Game, Seat


def seat_by_token_hash(token_hash: str) -> Seat | None:
    """The seat whose credential hashes to ``token_hash``, with its game
    (all but the state, which is deferred), or ``None``."""
    seat_fields, game_fields = _SEAT_GAME_FIELDS
    with connection.cursor() as cur:
        cur.execute(_seat_game_sql(connection.vendor), [token_hash])
        row = cur.fetchone()
    if row is None:
        return None
    n = len(seat_fields)
    seat = instance(Seat, seat_fields, row[:n])
    Seat.game.field.set_cached_value(seat, instance(Game, game_fields, row[n:]))
    return seat


# the game's columns but its (large) state, which is left deferred
_GAME_FIELDS = tuple(f for f in Game._meta.concrete_fields if f.name != "state")
_SEAT_GAME_FIELDS = (tuple(Seat._meta.concrete_fields), _GAME_FIELDS)


@functools.lru_cache(maxsize=4)
def _seat_game_sql(vendor: str) -> str:
    """``SELECT`` the seat's columns and its game's (but the state) by the
    credential's hash (built once per database backend)."""
    q = connection.ops.quote_name
    seat_fields, game_fields = _SEAT_GAME_FIELDS
    columns = [f"s.{q(f.column)}" for f in seat_fields] + [f"g.{q(f.column)}" for f in game_fields]
    return (f"SELECT {', '.join(columns)} FROM {q(Seat._meta.db_table)} s "
            f"JOIN {q(Game._meta.db_table)} g ON g.{q('id')} = s.{q(Seat._meta.get_field('game').column)} "
            f"WHERE s.{q(Seat._meta.get_field('token_hash').column)} = %s LIMIT 1")


def instance(model, fields, values):
    """A model instance from a row of ``fields``' columns, through the same
    converters the ORM applies (JSON, dates and booleans on every backend);
    fields not given are deferred, as with ``.only()``."""
    converted = _converted(_converters(model, fields, connection.vendor), values)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def _converted(converters, values) -> list:
    """``values`` (a row) through each column's converters."""
    out = []
    for (col, convert_all), value in zip(converters, values):
        for convert in convert_all:
            value = convert(value, col, connection)
        out.append(value)
    return out


@functools.lru_cache(maxsize=16)
def _converters(model, fields, vendor: str):
    """Per field, its column and the converters the ORM applies to it (on
    this database backend)."""
    out = []
    for field in fields:
        col = field.get_col(model._meta.db_table)
        out.append((col, tuple(connection.ops.get_db_converters(col) + col.get_db_converters(connection))))
    return tuple(out)


def game_without_state(game_id: int) -> Game:
    """The projection row without its (large) state column, and the stream's
    head as ``head_version``/``head_hash``, in one plain SQL statement (hot
    path; the state is loaded only on a cache miss).

    The head is the event at the projection's version: every service writes
    the two in one transaction. Were they ever apart, the head read here
    would be older than the stream's and the append a conflict, never a
    broken chain (the unique ``(game, version)`` constraint decides).

    :raises Game.DoesNotExist: no such game.
    """
    with connection.cursor() as cur:
        cur.execute(_game_head_sql(connection.vendor), [game_id])
        row = cur.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    game = instance(Game, _GAME_FIELDS, row[:-2])
    game.head_version, game.head_hash = row[-2:]
    return game



@functools.lru_cache(maxsize=4)
def _game_head_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    columns = ", ".join(f"g.{q(f.column)}" for f in _GAME_FIELDS)
    return (f"SELECT {columns}, e.{q('version')}, e.{q('hash')} FROM {q(Game._meta.db_table)} g "
            f"LEFT JOIN {q(Event._meta.db_table)} e ON e.{q('game_id')} = g.{q('id')} "
            f"AND e.{q('version')} = g.{q('version')} WHERE g.{q('id')} = %s")


# an event's columns as the event store reads them back
_EVENT_FIELDS = tuple(Event._meta.get_field(name) for name in
                      ("version", "type", "schema_version", "payload", "actor", "recorded_at", "hash"))


def event_rows(game_id: int, after_version: int, upto_version: int | None) -> list[tuple]:
    """The stream's events after ``after_version`` (up to ``upto_version``),
    in order, as ``(version, type, schema_version, payload, actor,
    recorded_at, hash)`` through the ORM's own converters
    (:func:`games.eventstore.load`)."""
    with connection.cursor() as cur:
        if upto_version is None:
            cur.execute(_event_rows_sql(connection.vendor, False), [game_id, after_version])
        else:
            cur.execute(_event_rows_sql(connection.vendor, True), [game_id, after_version, upto_version])
        rows = cur.fetchall()
    converters = _converters(Event, _EVENT_FIELDS, connection.vendor)
    return [tuple(_converted(converters, row)) for row in rows]


@functools.lru_cache(maxsize=8)
def _event_rows_sql(vendor: str, upto: bool) -> str:
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in _EVENT_FIELDS)
    game = q(Event._meta.get_field("game").column)
    version = q("version")
    return (f"SELECT {columns} FROM {q(Event._meta.db_table)} WHERE {game} = %s AND {version} > %s"
            + (f" AND {version} <= %s" if upto else "") + f" ORDER BY {version}")
