"""The live pages' sockets.

``/ws/games/<id>/seat/``: the seat this browser's session holds in the game
(a seat link exchanged on first use, or the signed-in user's seat;
:mod:`games.seat_session`). Anyone else is refused (close code 4403).
``/ws/games/<id>/watch/``: the public view, for the replay page.

On connect and whenever the game moves on (:mod:`games.push`) the socket is
sent one frame, read for this socket from the database::

    {"type": "view", "game": 12, "version": 37, "seat": 1 | null,
     "view": {...the engine's view for that seat...},
     "recent": [{"version": 36, "seat": 0, "move": "draw"}, ...]}

so a frame never holds another seat's rack, the pool's order or the seed
before the engine's own view reveals them at the end. A seat whose
credential was reissued or revoked is closed (4403) at its next frame.
The client sends nothing; whatever it sends is ignored.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from . import selectors
from .models import Game
from .push import group_name
from .seat_session import seat_in_session

FORBIDDEN = 4403
NOT_FOUND = 4404


def frame_for(game_id: int, seat_index: int | None) -> dict[str, Any] | None:
    """The frame one socket is sent: the game's view for ``seat_index``
    (``None``: the public view); ``None`` when there is no such game."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    view = selectors.game_view(game, seat_index)
    return {"type": "view", "game": game.pk, "version": view["version"], "seat": seat_index,
            "view": view["view"], "recent": selectors.recent_moves(game)}


class _GameSocket(AsyncJsonWebsocketConsumer):
    seat_index: int | None = None

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        await self.accept()
        if not await self.admit():
            return
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_frame()

    async def admit(self) -> bool:
        return True

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        return  # the client sends nothing the server needs

    async def game_moved(self, event):
        if await self.admit():
            await self.send_frame()

    async def send_frame(self):
        frame = await database_sync_to_async(frame_for)(self.game_id, self.seat_index)
        if frame is None:
            await self.close(code=NOT_FOUND)
            return
        await self.send_json(frame)


class WatchConsumer(_GameSocket):
    """The public view of a game, for spectators."""


class SeatConsumer(_GameSocket):
    """One seat's own view, for the browser that holds the seat."""

    async def admit(self) -> bool:
        seat = await database_sync_to_async(self._seat)()
        if seat is None:
            await self.send_json({"type": "error", "detail": "this browser holds no seat in this game"})
            await self.close(code=FORBIDDEN)
            return False
        self.seat_index = seat.index
        return True

    def _seat(self):
        holder = SimpleNamespace(session=self.scope.get("session"), user=self.scope.get("user"))
        return seat_in_session(holder, self.game_id)
