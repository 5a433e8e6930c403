"""The embedded channel layer sweeps expired messages at most once a
second (config/channel_layer.py), and still sweeps them."""

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
