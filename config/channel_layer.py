"""The channel layers of the live pages (docs/live.md).

``SweepingInMemoryChannelLayer``, the embedded one: channels' in-memory
layer, with its sweep for expired messages and group memberships run at
most once a second.

Channels' layer sweeps every channel and every group on each ``receive``
and ``group_send``: with a few hundred sockets open, a move's notice and
the sockets' waits for the next one walked every socket's queue several
times over (about a tenth of a move's CPU at 200 games). Messages expire
after a minute and memberships after a day, so a sweep a second keeps the
same expiry to within a second.

``PubSubLayer``, with Redis (``CHANNEL_REDIS_URL``): channels-redis's
pub/sub layer, whose sockets' own channels stay in the process. A game's
notice is one ``PUBLISH`` to the game's group, read once by each process
that follows the game, which hands it to its sockets in the group. The
list-based layer (``channels_redis.core``, ``CHANNEL_REDIS_KIND=core``)
costs a move three commands to send and three more to receive per socket,
in redis-py's Python on the event loop (its CPU a move against this
layer's: docs/live.md, "The pub/sub layer").

Nothing here sends to a socket's own channel from another process (every
push goes to a game's group, :mod:`games.push`), so a socket's channel is a
queue in its process and never a Redis subscription: opening a socket
costs a ``PING`` and, for the first socket of a game here, the
``SUBSCRIBE`` of its group. With Redis away the ``PING`` fails and the
socket is refused (games/consumers.py), instead of the handshake failing
with a 500 or a socket accepted that hears no other process. A notice
published while a process is not listening is lost (pub/sub keeps
nothing), so when a process's connection to the layer fails, every socket
it holds in a game's group hears ``layer.lost`` and is closed (1012): its
page polls and reconnects with backoff, refused until Redis is back, and
its first frame then is the game as it stands.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

SWEEP_EVERY = 1.0  # seconds


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    _swept_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY:
            return
        self._swept_at = now
        super()._clean_expired()


LOST = {"type": "layer.lost"}


class _Shard(RedisSingleShardConnection):
    """channels-redis's connection to one Redis, whose reader, when the
    connection fails, tells the sockets listening through it (above)."""

    async def _do_receiving(self):
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:  # noqa: BLE001 - the connection failed: tell the sockets, try again
                log.warning("channel layer: the subscriptions' connection failed (%s: %s); its sockets are "
                            "closed and it tries again in a second", type(exc).__name__, exc)
                self._lost()
                await asyncio.sleep(1)

    def _lost(self) -> None:
        layer = self.channel_layer
        lost = layer.channel_layer.serialize(LOST)
        for group, members in list(layer.groups.items()):
            if layer._get_shard(group) is self:
                for channel in members:
                    queue = layer.channels.get(channel)
                    if queue is not None:
                        queue.put_nowait(lost)


class _ProcessChannelsLoopLayer(RedisPubSubLoopLayer):
    """One event loop's share of :class:`PubSubLayer`."""

    def __init__(self, hosts=None, *args, **kwargs):
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    async def new_channel(self, prefix="specific."):
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        return channel

    async def group_add(self, group, channel):
        """Join ``group``, after one ``PING``: a game already followed here
        needs no new ``SUBSCRIBE``, and a socket must still be refused while
        Redis is away (its page polls meanwhile)."""
        shard = self._get_shard(self._get_group_channel_name(group))
        async with shard._lock:
            shard._ensure_redis()
            await shard._redis.ping()
            if shard._pubsub.connection is not None:
                # the subscriptions' own connection too: after a Redis
                # restart this reconnects it and subscribes again before
                # the socket is accepted, so no move's notice meets a
                # process not yet listening
                await shard._pubsub.ping()
        await super().group_add(group, channel)

    async def group_discard(self, group, channel):
        """Leave ``group``; with Redis away the ``UNSUBSCRIBE`` fails, and
        the subscription, kept, is made again with the others when the
        connection is (harmless: nobody here hears it)."""
        try:
            await super().group_discard(group, channel)
        except RedisError as exc:
            log.info("channel layer: %s left without its UNSUBSCRIBE (%s)", group, exc)

    async def send(self, channel, message):
        queue = self.channels.get(channel)
        if queue is not None:  # a socket of this process: straight to its queue
            queue.put_nowait(self.channel_layer.serialize(message))
            return
        await super().send(channel, message)


class PubSubLayer(RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer, its sockets' channels kept in the
    process (above)."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _ProcessChannelsLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
