"""Engine states of games: rebuilt from the projection's snapshot or the
stream, and the process's cache of recently moved games' states (with the
projection rows they were read or written at)."""

from __future__ import annotations

from typing import Any

from engine.registry import find_variant

from . import eventstore as es
from .lru import LRU
from .models import Game, SeedSecret, Snapshot
from .replay import rebuild


class _StateCache:
    """Engine states of recently moved games in this process, keyed by game
    and version (and creation time, so a reused id never matches). The
    stream up to a version never changes, so a state cached at the version
    the projection shows is that game's state; a state is taken out while a
    move is applied to it and put back only after the move's transaction
    commits.

    An entry may also hold the projection row (without its state, with the
    stream's head) as this process read or wrote it at that version: the
    next move on PostgreSQL starts from it without reading the row again,
    its write being guarded by the version (:func:`game_record_move`)."""

    def __init__(self, size: int = 256):
        # game id -> ((created at, version), state, row or None)
        self._entries = LRU(size)

    def take(self, game: Game, version: int):
        entry = self._entries.pop(game.pk)
        if entry is not None and entry[0] == (game.created_at, version):
            return entry[1]
        return None

    def take_with_row(self, game_id: int, version: int) -> tuple[Game, Any] | None:
        """``(row, state)`` of ``game_id`` at ``version`` if both are held
        (taken out, as :meth:`take`); anything else is left where it is."""
        entry = self._entries.pop(game_id, when=lambda e: e[0][1] == version and e[2] is not None)
        return None if entry is None else (entry[2], entry[1])

    def put(self, game: Game, version: int, state, *, row: Game | None = None) -> None:
        self._entries.put(game.pk, ((game.created_at, version), state, row))

    def offer(self, game: Game, version: int, state, *, row: Game | None = None) -> None:
        """:meth:`put`, unless the entry held is of a later version of the
        game (a reader that brought a state forward must not replace the
        one a move recorded meanwhile put back)."""
        key = (game.created_at, version)
        self._entries.put_unless(game.pk, (key, state, row),
                                 lambda held: held[0][0] == game.created_at and held[0][1] > version)

    def clear(self) -> None:
        self._entries.clear()


STATE_CACHE = _StateCache()


def load_state(game: Game):
    """The engine state at the projection's version (from the projection's
    snapshot, else the latest snapshot and the events after it).

    :raises ConcurrencyConflict: ``game`` was read without its state and the
        game has moved on since.
    :raises replay.ReplayError: the stream does not replay.
    """
    cls = find_variant(game.variant)
    if "state" in game.get_deferred_fields():
        version, game.state = Game.objects.filter(pk=game.pk).values_list("version", "state").get()
        if version != game.version:  # moved on since the row was read
            raise es.ConcurrencyConflict(game.pk, game.version, version)
    if game.state is not None:
        return cls.from_snapshot(game.state)
    return state_from_stream(game)


def _seed(game: Game, events) -> str | None:
    for event in events:
        if event.type == es.GAME_FINISHED and event.payload.get("seed"):
            return event.payload["seed"]
    secret = SeedSecret.objects.filter(game=game).values_list("seed", flat=True).first()
    return secret


def state_from_stream(game: Game, *, use_snapshots: bool = True):
    """Rebuild the state from the stream (latest snapshot + later events, or
    every event when ``use_snapshots`` is false).

    :raises replay.ReplayError: the stream does not replay.
    """
    cls = find_variant(game.variant)
    snap = Snapshot.objects.filter(game=game).order_by("-version").first() if use_snapshots else None
    if snap is not None:
        events = es.load(game.pk, after_version=snap.version)
        return rebuild(events, seed=_seed(game, events), state=cls.from_snapshot(snap.state),
                       version=snap.version).state
    events = es.load(game.pk)
    return rebuild(events, seed=_seed(game, events)).state
