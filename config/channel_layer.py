"""The embedded channel layer: channels' in-memory layer, with its sweep
for expired messages and group memberships run at most once a second.

Channels' layer sweeps every channel and every group on each ``receive``
and ``group_send``: with a few hundred sockets open, a move's notice and
the sockets' waits for the next one walked every socket's queue several
times over (about a tenth of a move's CPU at 200 games). Messages expire
after a minute and memberships after a day, so a sweep a second keeps the
same expiry to within a second.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    _swept_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at < SWEEP_EVERY:
            return
        self._swept_at = now
        super()._clean_expired()
