"""A small least-recently-used map shared by threads: the per-process caches
of the games app are built on it (engine states, seat views, the live
frames' parts, the AI seats of a game)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


class LRU:
    """At most ``size`` entries; the least recently put or read goes first.
    Every operation holds the lock, so a value is taken out by one thread
    only."""

    def __init__(self, size: int):
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Any) -> None:
        self.put_unless(key, value, None)

    def put_unless(self, key: Hashable, value: Any, keep: Callable[[Any], bool] | None) -> bool:
        """:meth:`put`, unless the entry held under ``key`` satisfies
        ``keep``; whether it was put."""
        with self._lock:
            if keep is not None:
                found = self._data.get(key)
                if found is not None and keep(found):
                    return False
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)
            return True

    def pop(self, key: Hashable, when: Callable[[Any], bool] | None = None) -> Any | None:
        """Take the entry out (only if ``when(value)``, when given)."""
        with self._lock:
            found = self._data.get(key)
            if found is None or (when is not None and not when(found)):
                return None
            del self._data[key]
            return found

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
