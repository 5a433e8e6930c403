"""Tell the live pages that a game moved on.

After a transaction that appended events commits, one small notice goes to
the game's group (``game-<id>``): the version it is at, nothing else. Each
socket then reads its own view from the database (games/consumers.py), so
no message in the layer ever holds a rack, the pool or the seed.

A push is a courtesy: the pages poll when their socket is down. A layer that
fails (Redis gone) is logged and never breaks or slows the write.
"""

from __future__ import annotations

import asyncio
import logging

from django.db import transaction

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def moved(game_id: int, version: int, hash: str = "") -> None:
    """Notify ``game_id``'s pages once the current transaction commits
    (``hash``: the version's event hash, public as every receipt is; a
    process that primed its frames for it answers at once,
    :mod:`games.frames`)."""
    transaction.on_commit(lambda: _send(game_id, {"type": "game.moved", "version": version, "hash": hash}))


def seats_changed(game_id: int) -> None:
    """A seat of ``game_id`` was taken, reissued or revoked: every process
    drops the game's seat credentials it held and its sockets check theirs
    again, once the current transaction commits."""
    def send() -> None:
        from .frames import SEAT_KEYS

        SEAT_KEYS.drop(game_id)
        _send(game_id, {"type": "game.seats"})

    transaction.on_commit(send)


_server_loop: list = []  # the ASGI server's event loop, once it has served something


def remember_loop(loop) -> None:
    """The ASGI server's event loop (config/asgi.py, the sockets): a push
    from one of its request threads is handed to it, never waited for."""
    if not _server_loop or _server_loop[0] is not loop:
        _server_loop[:] = [loop]


def _main_loop():
    """The ASGI server's event loop, when it runs (``None`` in a worker or
    a command, where the push is sent and waited for)."""
    loop = _server_loop[0] if _server_loop else None
    return loop if loop is not None and loop.is_running() and not loop.is_closed() else None


def _logged(future) -> None:
    exc = future.exception()
    if exc is not None:
        log.warning("live push not sent (%s: %s)", type(exc).__name__, exc)


def _send(game_id: int, message: dict) -> None:
    try:
        from asgiref.sync import async_to_sync
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return
        groups = getattr(layer, "groups", None)
        if isinstance(groups, dict) and group_name(game_id) not in groups:
            return  # an in-process layer with nobody following this game here: nothing to send
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:  # called from a thread that runs an event loop: schedule it there
            loop.create_task(layer.group_send(group_name(game_id), message)).add_done_callback(_logged)
            return
        main = _main_loop()
        if main is not None:  # a view's thread: hand the send to the server's loop, do not wait for it
            asyncio.run_coroutine_threadsafe(layer.group_send(group_name(game_id), message),
                                             main).add_done_callback(_logged)
            return
        async_to_sync(layer.group_send)(group_name(game_id), message)
    except Exception:  # noqa: BLE001 - a push never fails a write
        log.warning("live push for game %s (%s) not sent", game_id, message.get("type"), exc_info=True)
