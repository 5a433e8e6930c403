"""The live pages' sockets.

``/ws/games/<id>/seat/``: the seat this browser's session holds in the game
(a seat link exchanged on first use, or the signed-in user's seat;
:mod:`games.seat_session`). Anyone else is refused (close code 4403).
``/ws/games/<id>/watch/``: the public view, for the replay page.

On connect and whenever the game moves on (:mod:`games.push`) the socket is
sent one frame, its own (:mod:`games.frames` says where its parts come from)::

    {"type": "view", "game": 12, "version": 37, "seat": 1 | null,
     "view": {...the engine's view for that seat...},
     "recent": [{"version": 36, "seat": 0, "move": "draw",
                 "said": {"key": "drew", ...the move in words...}}, ...],
     "names": ["Ann", "Ben"],
     "clock": {...the running turn clock...} | null,
     "receipt": {"game": 12, "version": 37, "hash": "...", "hmac": "..."}}

(``receipt``: the signed head receipt of that version, :mod:`games.receipts`,
which the page keeps), so a frame never holds another seat's rack, the pool's order or the seed
before the engine's own view reveals them at the end. A seat whose
credential was reissued or revoked is closed (4403) at its next frame.
The client sends nothing; whatever it sends is ignored.
"""

from __future__ import annotations

import logging
import pickle
from types import SimpleNamespace
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from . import eventstore as es
from . import frames, selectors
from .models import Game
from .moves import move_entries
from .push import group_name
from .receipts import receipt, receipt_at
from .replay import ReplayError, rebuild
from .states import STATE_CACHE
from .rows import game_without_state
from .seat_session import SESSION_KEY, seat_in_session
from .clock import turn_clock
from .services import load_state

log = logging.getLogger(__name__)

FORBIDDEN = 4403
NOT_FOUND = 4404
LAYER_LOST = 1012  # "service restart": the page reconnects with backoff


FRAME_PARTS = frames.FRAME_PARTS


def load_parts(game_id: int, seat_index: int | None = None) -> frames.Parts | None:
    """The frames' parts at the game's version in the database, holding
    ``seat_index``'s view (database thread; those this process holds at
    that version if they do); ``None`` when there is no such game."""
    try:
        head = game_without_state(game_id)  # the version and the head's hash, in one query
    except Game.DoesNotExist:
        return None
    held = FRAME_PARTS.held(game_id)
    if held is not None and held.version == head.version and held.hash == (head.head_hash or "") \
            and held.has_view(seat_index):
        return held
    parts = carried_forward(head, held) if held is not None else None
    if parts is None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return None
        state = load_state(game)
        parts = frames.Parts(game_id=game.pk, version=game.version,
                             hash=(head.head_hash or "") if game.version == head.version else "",
                             recent=selectors.recent_moves(game), names=frames.seat_names(game),
                             clock=turn_clock(game, state), receipt=receipt_at(game.pk, game.version), state=state)
    FRAME_PARTS.install(parts)
    return parts


CARRY_LIMIT = 12  # events: parts further behind the head are read afresh


def carried_forward(head: Game, held: frames.Parts) -> frames.Parts | None:
    """``held`` brought to the stream's ``head`` (:func:`game_without_state`)
    by the moves recorded since, in one query: what a process that did not
    record those moves (another web process, a worker's AI seat) does in
    place of reading the game, its state, its recent moves and its seats'
    names again. ``None`` (read it all) unless the stored event at
    ``held``'s version has ``held``'s hash (the same stream), every event
    since is a move (the names and the seed stay as they were), at most
    :data:`CARRY_LIMIT` of them, the last one the head, and they replay.

    The state the moves are applied to is this process's own: the one its
    move service keeps at ``held``'s version (:data:`games.states.STATE_CACHE`,
    taken out while it is used: no request applies a move to it meanwhile)
    or a copy of ``held``'s. The result is kept for both again: a copy for
    the next move recorded here, the state itself for the frames."""
    if not held.hash or not head.head_hash or not held.version < head.version <= held.version + CARRY_LIMIT:
        return None
    events = es.load(head.pk, after_version=held.version - 1, upto_version=head.version)
    later = events[1:]
    if (not events or events[0].version != held.version or events[0].hash != held.hash
            or [e.version for e in later] != list(range(held.version + 1, head.version + 1))
            or later[-1].hash != head.head_hash or any(e.type != es.MOVE_RECORDED for e in later)):
        return None
    state = STATE_CACHE.take(head, held.version)
    if state is None and held.state is not None:
        state = _copy(held.state)
    if state is None:
        return None
    try:
        rebuild(later, seed=None, state=state, version=held.version)
    except ReplayError:
        log.warning("game %s: moves %s-%s do not replay on the state held here; read afresh", head.pk,
                    held.version + 1, head.version)
        return None
    kept = _copy(state)
    if kept is not None:
        STATE_CACHE.offer(head, head.version, kept, row=head)
    return frames.Parts(game_id=head.pk, version=head.version, hash=head.head_hash,
                        recent=(list(held.recent) + move_entries(head, later))[-6:], names=list(held.names),
                        clock=turn_clock(head, state), receipt=receipt(head.pk, head.version, head.head_hash),
                        state=state)


def _copy(state):
    """A copy of an engine state (pickled and read back: a quarter of the
    time of ``copy.deepcopy``); ``None`` for a state that does not pickle."""
    try:
        return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - then the state is read afresh
        log.warning("an engine state of %s did not pickle", type(state).__name__, exc_info=True)
        return None


def frame_for(game_id: int, seat_index: int | None) -> dict[str, Any] | None:
    """The frame one socket is sent: the game's view for ``seat_index``
    (``None``: the public view); ``None`` when there is no such game
    (database thread)."""
    parts = load_parts(game_id, seat_index)
    return None if parts is None else parts.frame(seat_index)


class _GameSocket(AsyncJsonWebsocketConsumer):
    seat_index: int | None = None
    following = False

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        # The game's group is joined before the socket is accepted: with the
        # layer away (Redis down) the handshake is refused, and the page
        # polls and backs off, instead of a socket accepted and dropped.
        try:
            await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        except Exception as exc:  # noqa: BLE001 - any layer failure: refuse, the page polls
            log.warning("live socket for game %s refused: the channel layer failed (%s: %s)", self.game_id,
                        type(exc).__name__, exc)
            await self.close()
            return
        self.group = group_name(self.game_id)
        await self.accept()
        if not await self.admit():
            return
        frames.follow(self.game_id, self.seat_index)  # a move made here primes this seat's view
        self.following = True
        await self.send_frame()

    async def admit(self) -> bool:
        return True

    async def disconnect(self, code):
        if self.following:
            frames.unfollow(self.game_id, self.seat_index)
            self.following = False
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def dispatch(self, message):
        """Channels' dispatch without its ``close_old_connections`` hop.
        Channels sends every message a consumer handles through the shared
        sync thread first, to close the database connections gone stale:
        one trip per notice per socket, queued behind every other socket's,
        where the frame is mostly sent from memory with no database at all.
        Everything here that reads the database goes through
        ``database_sync_to_async``, which closes stale connections itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def receive_json(self, content, **kwargs):
        return  # the client sends nothing the server needs

    async def game_moved(self, event):
        """A notice that the game moved on. When this process recorded the
        move (or already read that version), the frame is sent from the
        shared parts on the event loop, once the seat's credentials held in
        memory vouch for it (read alone when they are not held). Otherwise
        it is read on the database thread: carried forward from the parts
        held here by the moves since (:func:`carried_forward`), or read
        afresh; the credentials are read with it unless memory vouches."""
        parts = frames.FRAME_PARTS.ready(self.game_id, event.get("version"), event.get("hash"))
        admitted = self.admitted_in_memory()
        if parts is not None and parts.has_view(self.seat_index):
            if admitted is None:  # the credentials are not held here (any more): read them, nothing else
                admitted = await database_sync_to_async(self.still_admitted)()
                if not admitted:
                    await self.refuse()
                    return
            if admitted:
                await self._send_text(parts.text(self.seat_index))
                return
        await self.send_frame(check=admitted is not True)  # the credentials held here vouch for the seat

    async def layer_lost(self, event):
        """The process lost its channel layer's connection (Redis away):
        notices may be missed meanwhile, so the socket closes and its page
        polls and reconnects (config/channel_layer.py)."""
        await self.close(code=LAYER_LOST)

    async def game_seats(self, event):
        """A seat of the game was taken, reissued or revoked: check this
        socket's seat again now (its next frame would, in any case)."""
        frames.SEAT_KEYS.drop(self.game_id)
        if not await database_sync_to_async(self.still_admitted)():
            await self.refuse()

    def admitted_in_memory(self) -> bool | None:
        """Whether this socket may still have its frames, by the seat
        credentials held in memory (``None``: not held; ask the database)."""
        return True

    def _checked_frame(self, check: bool):
        """The frame, after checking this socket may still have it (one trip
        to the database thread for both)."""
        if check and not self.still_admitted():
            return "refused"
        return frame_for(self.game_id, self.seat_index)

    def still_admitted(self) -> bool:
        return True

    async def send_frame(self, check: bool = False):
        frame = await database_sync_to_async(self._checked_frame)(check)
        if frame == "refused":
            await self.refuse()
            return
        if frame is None:
            await self.close(code=NOT_FOUND)
            return
        await self._send(frame)

    async def _send_text(self, text: str) -> bool:
        """Send, unless the page went away meanwhile (a push that meets a
        page being closed or reloaded): the server's word for a socket
        already closed (uvicorn's ``ClientDisconnected``, an ``OSError``;
        daphne's "Attempt to send on a closed protocol", autobahn's
        ``Disconnected``, a ``RuntimeError``) is the socket's end, not an
        error. Whether it was sent."""
        try:
            await self.send(text_data=text)
        except (OSError, RuntimeError) as exc:
            if type(exc).__name__ not in ("ClientDisconnected", "Disconnected"):
                raise
            log.debug("live socket for game %s closed before its frame was sent", self.game_id)
            return False
        return True

    async def _send(self, content) -> bool:
        """:meth:`_send_text` of ``content`` as JSON."""
        return await self._send_text(frames.encode(content))

    async def refuse(self):
        if self.following:
            frames.unfollow(self.game_id, self.seat_index)
            self.following = False
        if await self._send({"type": "error", "detail": "this browser holds no seat in this game"}):
            await self.close(code=FORBIDDEN)


class WatchConsumer(_GameSocket):
    """The public view of a game, for spectators."""


class SeatConsumer(_GameSocket):
    """One seat's own view, for the browser that holds the seat."""

    seat_pk: int | None = None
    seat_key: str | None = None
    user_id: int | None = None

    async def admit(self) -> bool:
        seat = await database_sync_to_async(self._admitted_seat)()
        if seat is None:
            await self.refuse()
            return False
        self.seat_index, self.seat_pk = seat.index, seat.pk
        session = self.scope.get("session")
        held = session.get(SESSION_KEY, {}).get(str(self.game_id)) if session is not None else None
        self.seat_key = held.get("key") if isinstance(held, dict) else None
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        return True

    def admitted_in_memory(self) -> bool | None:
        keys = frames.SEAT_KEYS.cached(self.game_id)
        if keys is None:
            return None
        return frames.holds(keys, seat_pk=self.seat_pk, index=self.seat_index, key=self.seat_key,
                            user_id=self.user_id)

    def still_admitted(self) -> bool:
        """Whether the seat is still this socket's, by the game's seat
        credentials read now (one query; then trusted in memory for the
        next frames): the test :func:`games.seat_session.seat_in_session`
        made when the socket was admitted."""
        keys = frames.SEAT_KEYS.load(self.game_id)
        return frames.holds(keys, seat_pk=self.seat_pk, index=self.seat_index, key=self.seat_key,
                            user_id=self.user_id)

    def _admitted_seat(self):
        """The seat this socket's session holds, and the game's seat
        credentials read with it when this process does not hold them: the
        first notice after a socket joins is then answered from memory, not
        with a trip to the database thread (queued behind every other
        socket's at the start of an evening)."""
        seat = self._seat()
        if seat is not None and frames.SEAT_KEYS.cached(self.game_id) is None:
            frames.SEAT_KEYS.load(self.game_id)
        return seat

    def _seat(self):
        holder = SimpleNamespace(session=self.scope.get("session"), user=self.scope.get("user"))
        return seat_in_session(holder, self.game_id)
