"""The live pages' sockets.

``/ws/games/<id>/seat/``: the seat this browser's session holds in the game
(a seat link exchanged on first use, or the signed-in user's seat;
:mod:`games.seat_session`). Anyone else is refused (close code 4403).
``/ws/games/<id>/watch/``: the public view, for the replay page.

On connect and whenever the game moves on (:mod:`games.push`) the socket is
sent one frame, read for this socket from the database::

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
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from . import selectors
from .lru import LRU
from .models import Game
from .push import group_name
from .receipts import receipt_at
from .seat_session import seat_in_session
from .services import load_state, turn_clock

log = logging.getLogger(__name__)

FORBIDDEN = 4403
NOT_FOUND = 4404


class _FrameParts:
    """What every socket of a game shares at one version: the engine state
    (read only: each socket asks it for its own view), the recent moves and
    the turn clock. Built once per game and version in this process, so a
    move costs one state load however many sockets follow the game; a
    state here is never the one a move is applied to."""

    def __init__(self, size: int = 512):
        # game id -> ((created at, version), parts)
        self._entries = LRU(size)

    def get(self, game_id: int) -> dict[str, Any] | None:
        head = Game.objects.filter(pk=game_id).values_list("version", "created_at").first()
        if head is None:
            return None
        key = (head[1], head[0])
        entry = self._entries.get(game_id)
        if entry is not None and entry[0] == key:
            return entry[1]
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return None
        state = load_state(game)
        names = dict(game.seats.values_list("index", "name"))
        parts = {"game": game, "state": state, "recent": selectors.recent_moves(game),
                 "names": [names.get(i, "") for i in range(game.players)],
                 "clock": turn_clock(game, state), "receipt": receipt_at(game.pk, game.version)}
        self._entries.put(game_id, ((game.created_at, game.version), parts))
        return parts


FRAME_PARTS = _FrameParts()


def frame_for(game_id: int, seat_index: int | None) -> dict[str, Any] | None:
    """The frame one socket is sent: the game's view for ``seat_index``
    (``None``: the public view); ``None`` when there is no such game."""
    parts = FRAME_PARTS.get(game_id)
    if parts is None:
        return None
    game, clock = parts["game"], parts["clock"]
    if clock is not None:  # the seconds left now, from the turn's start
        started = datetime.fromisoformat(clock["started_at"])
        clock = {**clock, "left": round(max(0.0, clock["seconds"] - (timezone.now() - started).total_seconds()), 1)}
    return {"type": "view", "game": game.pk, "version": game.version, "seat": seat_index,
            "view": parts["state"].view(seat_index), "recent": parts["recent"], "names": parts["names"],
            "clock": clock,
            "receipt": parts["receipt"]}


class _GameSocket(AsyncJsonWebsocketConsumer):
    seat_index: int | None = None

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
        await self.send_frame()

    async def admit(self) -> bool:
        return True

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        return  # the client sends nothing the server needs

    async def game_moved(self, event):
        await self.send_frame(check=True)

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

    async def _send(self, content) -> bool:
        """Send, unless the page went away meanwhile (a push that meets a
        page being closed or reloaded): the server's "Attempt to send on a
        closed protocol" (autobahn's ``Disconnected``, a ``RuntimeError``)
        is the socket's end, not an error. Whether it was sent."""
        try:
            await self.send_json(content)
        except RuntimeError as exc:
            if type(exc).__name__ != "Disconnected":
                raise
            log.debug("live socket for game %s closed before its frame was sent", self.game_id)
            return False
        return True

    async def refuse(self):
        if await self._send({"type": "error", "detail": "this browser holds no seat in this game"}):
            await self.close(code=FORBIDDEN)


class WatchConsumer(_GameSocket):
    """The public view of a game, for spectators."""


class SeatConsumer(_GameSocket):
    """One seat's own view, for the browser that holds the seat."""

    async def admit(self) -> bool:
        seat = await database_sync_to_async(self._seat)()
        if seat is None:
            await self.refuse()
            return False
        self.seat_index = seat.index
        return True

    def still_admitted(self) -> bool:
        seat = self._seat()
        return seat is not None and seat.index == self.seat_index

    def _seat(self):
        holder = SimpleNamespace(session=self.scope.get("session"), user=self.scope.get("user"))
        return seat_in_session(holder, self.game_id)
