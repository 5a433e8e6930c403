"""What the live pages' sockets are sent, built once per game and version.

A move is followed by one notice to the game's group (:mod:`games.push`:
the version and its hash, nothing secret), and every socket of the game
then sends its own frame (:mod:`games.consumers`). What those frames share
at one version lives here, per process:

- **Primed by the writer.** The process that records a move holds the
  engine state it has just applied the move to. If any socket of this
  process follows the game (:func:`follow`), the writer computes the views
  of the seats followed here (and the public view) before the commit, and
  installs them when the commit has happened (:func:`prime`), with the
  recent moves, the turn clock and the head receipt. A socket whose notice
  names that version and hash then sends its frame on the event loop: no
  database query, no trip to the database thread.
- **Carried forward by a follower.** A move recorded by another process or
  by a worker: the parts this process holds at an earlier version are
  brought forward by the moves since, read in one query and applied to a
  state of this process's own (:func:`games.consumers.carried_forward`).
- **Loaded.** Anywhere else (a socket that has just connected, a game this
  process holds nothing of, a stream that gained anything but moves) the
  parts are read from the database (:func:`games.consumers.load_parts`).
  Either is done once per version, on the database thread, and every
  socket of the game in this process asks that state for its view.

A view is computed for one seat from the engine's own ``view(seat)``, so
the same rules decide what is hidden as for the API. The entries are
plain data: a state kept here is never the one a move is applied to.

The seats' credentials (who may still follow a seat) are kept per game too
(:class:`SeatKeys`): read once, dropped when a seat is taken, reissued or
revoked (:func:`games.push.seats_changed` tells every process), and read
again after at most :data:`SEAT_KEYS_TTL` seconds in any case. A seat's
socket reads them when it is admitted.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from datetime import datetime
from typing import Any

import orjson
from django.utils import timezone

from .lru import LRU

# game id -> seat index (None: the public view) -> sockets of this process
_followers: dict[int, Counter] = {}
_followers_lock = threading.Lock()


def follow(game_id: int, seat_index: int | None) -> None:
    """A socket of this process now follows ``game_id`` as ``seat_index``."""
    with _followers_lock:
        _followers.setdefault(game_id, Counter())[seat_index] += 1


def unfollow(game_id: int, seat_index: int | None) -> None:
    with _followers_lock:
        seats = _followers.get(game_id)
        if seats is None:
            return
        seats[seat_index] -= 1
        if seats[seat_index] <= 0:
            del seats[seat_index]
        if not seats:
            del _followers[game_id]


def followed_seats(game_id: int) -> tuple[int | None, ...]:
    """The seats (``None``: the public view) this process's sockets follow
    in ``game_id``; empty when none does."""
    with _followers_lock:
        seats = _followers.get(game_id)
        return tuple(seats) if seats else ()


class Parts:
    """A game's frame at one version, shared by its sockets in this process."""

    __slots__ = ("game_id", "version", "hash", "views", "state", "recent", "names", "clock", "receipt", "_texts",
                 "_lock")

    def __init__(self, *, game_id: int, version: int, hash: str, recent: list, names: list[str],
                 clock: dict | None, receipt: dict | None, views: dict | None = None, state=None):
        self.game_id, self.version, self.hash = game_id, version, hash
        self.views = dict(views or {})
        self.state = state  # a loaded (never shared) state, or None when primed
        self.recent, self.names, self.clock, self.receipt = recent, names, clock, receipt
        self._texts: dict[Any, str] = {}
        self._lock = threading.Lock()

    def has_view(self, seat_index: int | None) -> bool:
        return seat_index in self.views or self.state is not None

    def view(self, seat_index: int | None) -> dict[str, Any]:
        found = self.views.get(seat_index)
        if found is None:
            with self._lock:
                found = self.views.get(seat_index)
                if found is None:
                    if self.state is None:
                        raise KeyError(seat_index)
                    found = self.views[seat_index] = self.state.view(seat_index)
        return found

    def frame(self, seat_index: int | None) -> dict[str, Any]:
        """The frame of ``seat_index`` (``None``: a spectator's)."""
        clock = self.clock
        if clock is not None:  # the seconds left now, from the turn's start
            started = datetime.fromisoformat(clock["started_at"])
            clock = {**clock, "left": round(max(0.0, clock["seconds"]
                                                - (timezone.now() - started).total_seconds()), 1)}
        return {"type": "view", "game": self.game_id, "version": self.version, "seat": seat_index,
                "view": self.view(seat_index), "recent": self.recent, "names": self.names, "clock": clock,
                "receipt": self.receipt}

    def text(self, seat_index: int | None) -> str:
        """The frame as sent, encoded once per seat (a game with a clock
        is encoded per socket: its seconds left change)."""
        if self.clock is not None:
            return encode(self.frame(seat_index))
        found = self._texts.get(seat_index)
        if found is None:
            found = self._texts[seat_index] = encode(self.frame(seat_index))
        return found


def encode(frame: dict[str, Any]) -> str:
    """A frame as JSON text (orjson: several times quicker than the
    standard library on a view's nested lists, the same JSON; keys that are
    not strings, as in a view's per-seat maps, written as strings as
    ``json.dumps`` does)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


class FrameParts:
    """game id -> the newest :class:`Parts` this process holds."""

    def __init__(self, size: int = 512):
        self._entries = LRU(size)

    def ready(self, game_id: int, version: Any, hash: Any) -> Parts | None:
        """The parts a notice of ``version`` (with ``hash``) may be answered
        with at once: those of that very version, or of a newer one."""
        parts = self._entries.get(game_id)
        if parts is None or not isinstance(version, int):
            return None
        if parts.version > version or (parts.version == version and parts.hash == hash):
            return parts
        return None

    def install(self, parts: Parts) -> None:
        """Keep ``parts`` unless this process already holds a newer version."""
        held = self._entries.get(parts.game_id)
        if held is None or held.version <= parts.version:
            self._entries.put(parts.game_id, parts)

    def previous(self, game_id: int, version: int) -> Parts | None:
        parts = self._entries.get(game_id)
        return parts if parts is not None and parts.version == version else None

    def held(self, game_id: int) -> Parts | None:
        return self._entries.get(game_id)

    def clear(self) -> None:
        self._entries.clear()


FRAME_PARTS = FrameParts()


def prepare(game, state, rows, clock) -> Parts | None:
    """The parts of the version ``rows`` bring ``game`` to (the writer's
    thread, after its writes and before anything else may touch ``state``),
    if a socket of this process follows the game; else ``None``. ``clock()``
    gives the running turn clock. Install them with :func:`prime` once the
    commit has happened."""
    seats = followed_seats(game.pk)
    if not seats:
        return None
    from .moves import move_entries, recent_moves
    from .receipts import receipt

    last = rows[-1]
    before = FRAME_PARTS.previous(game.pk, rows[0].version - 1)
    if before is not None:
        recent = (list(before.recent) + move_entries(game, rows))[-6:]
    else:
        recent = recent_moves(game)
    # the seats' names change only with an event of their own (never a move's)
    names = list(before.names) if before is not None else seat_names(game)
    return Parts(game_id=game.pk, version=last.version, hash=last.hash, recent=recent, names=names,
                 clock=clock(), receipt=receipt(game.pk, last.version, last.hash),
                 views={seat: state.view(seat) for seat in seats})


def seat_names(game) -> list[str]:
    """The seats' names, seat by seat ("" for a seat without one)."""
    from .models import Seat

    names = dict(Seat.objects.filter(game_id=game.pk).values_list("index", "name"))
    return [names.get(i, "") or "" for i in range(game.players)]


def prime(parts: Parts | None) -> None:
    if parts is not None:
        FRAME_PARTS.install(parts)


# --- who may still follow a seat ---------------------------------------------

SEAT_KEYS_TTL = 30.0  # seconds a game's seat credentials are trusted without a read


class SeatKeys:
    """game id -> (trusted until, {seat pk: (index, token hash, user id)}).

    An entry is trusted for between half of :data:`SEAT_KEYS_TTL` and all
    of it, drawn when it is read: the games whose sockets joined together
    (an evening's start) are not all read again in the same second."""

    def __init__(self, size: int = 2048):
        self._entries = LRU(size)

    def cached(self, game_id: int) -> dict[int, tuple] | None:
        entry = self._entries.get(game_id)
        if entry is None or time.monotonic() > entry[0]:
            return None
        return entry[1]

    def load(self, game_id: int) -> dict[int, tuple]:
        from .models import Seat

        keys = {pk: (index, token_hash, user_id) for pk, index, token_hash, user_id in
                Seat.objects.filter(game_id=game_id).values_list("pk", "index", "token_hash", "user_id")}
        self._entries.put(game_id, (time.monotonic() + SEAT_KEYS_TTL * (0.5 + random.random() / 2), keys))
        return keys

    def drop(self, game_id: int) -> None:
        self._entries.pop(game_id)

    def clear(self) -> None:
        self._entries.clear()


SEAT_KEYS = SeatKeys()


def holds(keys: dict[int, tuple], *, seat_pk: int | None, index: int | None, key: str | None,
          user_id: int | None) -> bool:
    """Whether a socket that was admitted to seat ``seat_pk`` (``index``),
    by a session holding credential hash ``key`` or as user ``user_id``,
    holds it still, by ``keys`` (:meth:`SeatKeys.load`): the same test as
    :func:`games.seat_session.seat_in_session`."""
    found = keys.get(seat_pk) if seat_pk is not None else None
    if found is None or found[0] != index:
        return False
    _, token_hash, owner = found
    if key and token_hash and token_hash == key:
        return True
    return user_id is not None and owner == user_id
