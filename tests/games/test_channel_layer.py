"""The channel layers (config/channel_layer.py): the embedded one sweeps
expired messages at most once a second, and still sweeps them; the Redis
pub/sub one keeps sockets' own channels in the process and refuses to join
a group with Redis away (the two processes and a Redis restart:
tests/integration/test_processes.py)."""

from __future__ import annotations

import asyncio
import time

from config import channel_layer
from config.channel_layer import SweepingInMemoryChannelLayer


def test_expired_messages_are_swept_but_not_on_every_call(monkeypatch):
    async def run():
        layer = SweepingInMemoryChannelLayer(expiry=0.01)
        await layer.send("c1", {"type": "a"})
        time.sleep(0.05)
        layer._clean_expired()                       # the first sweep: the expired message goes
        assert "c1" not in layer.channels
        await layer.send("c2", {"type": "b"})
        time.sleep(0.05)
        layer._clean_expired()                       # within the second: no sweep yet
        assert "c2" in layer.channels
        monkeypatch.setattr(channel_layer, "SWEEP_EVERY", 0.0)
        layer._clean_expired()                       # the next sweep takes it
        assert "c2" not in layer.channels

    asyncio.run(run())


def test_the_embedded_site_uses_it():
    import os

    import pytest
    from channels.layers import get_channel_layer

    if os.environ.get("CHANNEL_REDIS_URL"):
        pytest.skip("this run sets CHANNEL_REDIS_URL: the Redis layer is in use")
    assert isinstance(get_channel_layer(), SweepingInMemoryChannelLayer)


def _closed_port() -> int:
    import socket

    with socket.socket() as s:  # a port just freed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _layer_away():
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    from config.channel_layer import PubSubLayer

    return PubSubLayer(hosts=[{"address": f"redis://127.0.0.1:{_closed_port()}/0", "socket_connect_timeout": 0.5,
                               "retry": Retry(NoBackoff(), 0)}])


def test_a_pubsub_sockets_own_channel_lives_in_the_process():
    """Opening a socket's channel costs no Redis command, and a message for
    it reaches it with Redis away."""
    async def run():
        layer = _layer_away()
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "game.moved", "version": 3})
        return await asyncio.wait_for(layer.receive(channel), 2)

    assert asyncio.run(run()) == {"type": "game.moved", "version": 3}


def test_with_redis_away_a_pubsub_group_add_fails_and_joins_nothing():
    """The socket is refused (games/consumers.py) rather than accepted deaf."""
    import pytest
    from redis.exceptions import ConnectionError

    async def run():
        layer = _layer_away()
        channel = await layer.new_channel()
        with pytest.raises(ConnectionError):
            await layer.group_add("game-1", channel)
        return layer._get_layer().groups

    assert asyncio.run(run()) == {}


def test_a_notice_goes_to_a_redis_layer_whatever_its_groups_show(monkeypatch):
    """Only the embedded layer's own groups tell whether anyone here follows
    a game; the pub/sub layer keeps its groups under names of its own (and
    other processes may follow the game), so the notice goes out."""
    from games import push

    sent = []

    class Layer:
        groups: dict = {}

        async def group_send(self, group, message):
            sent.append((group, message))

    monkeypatch.setattr("channels.layers.get_channel_layer", lambda *args: Layer())
    push._send(7, {"type": "game.moved", "version": 2})
    assert sent == [("game-7", {"type": "game.moved", "version": 2})]


def test_when_the_layers_connection_fails_its_sockets_hear_it():
    """A pub/sub notice sent while a process is not listening is lost, so
    the sockets it holds in games' groups are told (and close: their pages
    poll, games/consumers.py)."""
    from redis.exceptions import ConnectionError

    from config.channel_layer import LOST

    class Broken:
        subscribed = True

        async def get_message(self, **kwargs):
            raise ConnectionError("Connection closed by server.")

    async def run():
        layer = _layer_away()
        loop_layer = layer._get_layer()
        following, idle = await layer.new_channel(), await layer.new_channel()
        group = loop_layer._get_group_channel_name("game-1")
        loop_layer.groups[group] = {following}  # as group_add leaves it
        shard = loop_layer._get_shard(group)
        shard._pubsub = Broken()
        reader = asyncio.get_running_loop().create_task(shard._do_receiving())
        try:
            heard = await asyncio.wait_for(layer.receive(following), 2)
            assert loop_layer.channels[idle].empty()  # a socket in no group hears nothing
        finally:
            reader.cancel()
        return heard

    assert asyncio.run(run()) == LOST
