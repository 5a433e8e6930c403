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


def moved(game_id: int, version: int) -> None:
    """Notify ``game_id``'s pages once the current transaction commits."""
    transaction.on_commit(lambda: _send(game_id, version))


def _send(game_id: int, version: int) -> None:
    try:
        from asgiref.sync import async_to_sync
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return
        groups = getattr(layer, "groups", None)
        if isinstance(groups, dict) and group_name(game_id) not in groups:
            return  # an in-process layer with nobody following this game here: nothing to send
        message = {"type": "game.moved", "version": version}
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:  # called from a thread that runs an event loop: schedule it there
            loop.create_task(layer.group_send(group_name(game_id), message))
        else:
            async_to_sync(layer.group_send)(group_name(game_id), message)
    except Exception:  # noqa: BLE001 - a push never fails a write
        log.warning("live push for game %s (version %s) not sent", game_id, version, exc_info=True)
