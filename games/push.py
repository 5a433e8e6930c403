"""Tell the live pages that a game moved on.

After a transaction that appended events commits, one small notice goes to
the game's group (``game-<id>``): the version it is at and its hash, nothing
else. Each socket then sends its own view (games/consumers.py,
games/frames.py), so no message in the layer ever holds a rack, the pool or
the seed.

A web request's notices travel back with its answer (:func:`carrying`,
config/asgi.py) and the server's event loop sends them as it takes the
answer; anywhere else (a worker, a command, a socket's own loop) they are
sent at once.

A push is a courtesy: the pages poll when their socket is down. A layer that
fails (Redis gone) is logged and never breaks or slows the write.
"""

from __future__ import annotations

import asyncio
import logging
import threading

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


_carried = threading.local()  # a request thread's pushes, sent by the server's loop with its answer


def carrying():
    """Collect the pushes of the request this thread is about to run
    (config/asgi.py): instead of waking the server's loop for each, they
    are handed back with the answer and sent by :func:`send_carried` on the
    loop, which the answer wakes anyway. Returns the list to hand back."""
    _carried.pushes = pushes = []
    return pushes


def stop_carrying() -> None:
    _carried.pushes = None


def send_carried_now(**_) -> None:
    """Hand the pushes this thread carries to the server's loop at once. A
    task run in the request's own thread (eager mode, the embedded default:
    an AI seat's reply to the move) may take a while, and the pages should
    not wait for it to see the move that came before (Celery's
    ``task_prerun``, which eager tasks send too)."""
    pushes = getattr(_carried, "pushes", None)
    if not pushes:
        return
    held, pushes[:] = list(pushes), []
    for layer, group, message in held:
        try:
            _hand_over(layer, group, message)
        except Exception:  # noqa: BLE001 - a push never fails a write
            log.warning("live push to %s (%s) not sent", group, message.get("type"), exc_info=True)


def _hand_over(layer, group: str, message: dict) -> None:
    """Send from a thread with no event loop: handed to the server's loop
    when it runs (not waited for), else sent and waited for (a worker, a
    command)."""
    main = _main_loop()
    if main is not None:
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), main).add_done_callback(_logged)
        return
    from asgiref.sync import async_to_sync

    async_to_sync(layer.group_send)(group, message)


def _connect_task_prerun() -> None:
    try:
        from celery.signals import task_prerun
    except ImportError:  # pragma: no cover - Celery is a dependency
        return
    task_prerun.connect(send_carried_now, weak=False, dispatch_uid="games.push.send_carried_now")


_connect_task_prerun()


def send_carried(pushes: list) -> None:
    """Send the pushes a request collected (on the server's loop, not waited
    for; a failure is logged as any push's)."""
    for layer, group, message in pushes:
        try:
            asyncio.get_running_loop().create_task(layer.group_send(group, message)).add_done_callback(_logged)
        except Exception:  # noqa: BLE001 - a push never fails a write
            log.warning("live push to %s (%s) not sent", group, message.get("type"), exc_info=True)


def _logged(future) -> None:
    exc = future.exception()
    if exc is not None:
        log.warning("live push not sent (%s: %s)", type(exc).__name__, exc)


def _send(game_id: int, message: dict) -> None:
    try:
        from channels.layers import InMemoryChannelLayer, get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return
        if isinstance(layer, InMemoryChannelLayer) and group_name(game_id) not in layer.groups:
            return  # an in-process layer with nobody following this game here: nothing to send
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:  # called from a thread that runs an event loop: schedule it there
            loop.create_task(layer.group_send(group_name(game_id), message)).add_done_callback(_logged)
            return
        pushes = getattr(_carried, "pushes", None)
        if pushes is not None:  # a request's thread: sent with its answer, on the loop
            pushes.append((layer, group_name(game_id), message))
            return
        _hand_over(layer, group_name(game_id), message)  # a view's thread, a worker, a command
    except Exception:  # noqa: BLE001 - a push never fails a write
        log.warning("live push for game %s (%s) not sent", game_id, message.get("type"), exc_info=True)
