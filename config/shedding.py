"""Load shedding for one web process: refuse at once what would wait too long.

A daphne process answers HTTP requests one after another on Django's
threads (the views are synchronous and share one interpreter). Offered more
than it can serve, its queue only grows: at 400 requests/s one process
answered nothing within the clients' time-outs (bench/load.py, issue 29).
Here a request is answered ``503 Service Unavailable`` with ``Retry-After``
instead of being queued, when it would wait past ``SHED_DEADLINE_MS``
(default 250 ms) before Django starts on it:

- on arrival, the wait is predicted as the requests already in the process
  times the recent CPU time Django took for one (a moving average of each
  request's time divided by the requests running beside it: Django runs
  each request on its own thread, and the threads share one interpreter,
  so n requests in hand each take about n times their own cost): a request
  predicted to wait too long is refused at once, before it costs anything;
- when Django's thread picks a request up, the time it actually waited is
  known: one that waited past the deadline is refused then, without running
  the view (its client has likely given up on it, and its work would only
  delay the next).

The WebSockets are not touched: a socket is one long connection, and its
frames are the cheapest way a page has to follow a game. Nor are static
files (``STATIC_URL``): a page asks for a dozen at once, they cost next to
nothing, and a page missing its scripts is worse than a slow one. ``SHED_DEADLINE_MS=0``
switches shedding off. A balancer in front (``bin/serve``: haproxy with a
per-process ``maxconn`` and ``timeout queue``) does the same across
processes; this keeps one process honest on its own.
"""

from __future__ import annotations

import threading
import time

REFUSED_BODY = (b'{"detail": "the server is busy: try again in a moment", "code": "overloaded"}')


def refused_page(retry_after: int) -> bytes:
    """What a browser gets instead of a page it asked for: a short page that
    asks again by itself after ``retry_after`` seconds (a person reloading
    a table, or a live page following a move, is not left on an error)."""
    return (f'<!doctype html><html><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="{retry_after}">'
            f'<title>Busy</title></head><body><p>The server is busy: this page asks again in '
            f'{retry_after} s.</p></body></html>').encode()


def refused(path: str, method: str, retry_after: int) -> tuple[bytes, bytes]:
    """The body and content type of a refusal: JSON under ``/api/`` and for
    anything but a page read, else :func:`refused_page`."""
    if method in ("GET", "HEAD") and not path.startswith("/api/"):
        return refused_page(retry_after), b"text/html; charset=utf-8"
    return REFUSED_BODY, b"application/json"


class Shedder:
    """The process's count of requests in hand and a moving average of the
    time Django takes for one (seconds)."""

    def __init__(self, deadline: float, retry_after: int = 1, initial_service: float = 0.005):
        self.deadline = deadline
        self.retry_after = retry_after
        self.in_hand = 0
        self.service = initial_service
        self.refused = 0
        self._lock = threading.Lock()

    def admit(self) -> bool:
        """On arrival: whether the predicted wait is within the deadline."""
        if self.deadline <= 0:
            return True
        return self.in_hand * self.service <= self.deadline

    def waited_too_long(self, waited: float) -> bool:
        return 0 < self.deadline < waited

    def served(self, seconds: float, beside: int = 1) -> None:
        """Django took ``seconds`` for one request while ``beside`` requests
        were in hand (its own share: ``seconds / beside``; an exponential
        moving average over about the last 20)."""
        sample = seconds / max(1, beside)
        with self._lock:
            self.service += (sample - self.service) * 0.05

    async def refuse(self, send, scope=None) -> None:
        self.refused += 1
        scope = scope or {}
        body, kind = refused(scope.get("path", ""), scope.get("method", ""), self.retry_after)
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", kind),
                                (b"retry-after", str(self.retry_after).encode()),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class ShedLoadMiddleware:
    """ASGI middleware in front of Django's HTTP handler (config/asgi.py).
    Stamps each admitted request's arrival in its scope
    (``tablekeeper.arrived``) for the handler's second check."""

    def __init__(self, app, shedder: Shedder, exempt: tuple[str, ...] = ()):
        self.app = app
        self.shedder = shedder
        self.exempt = tuple(p for p in exempt if p and p != "/")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("path", "").startswith(self.exempt):
            return await self.app(scope, receive, send)
        shedder = self.shedder
        if not shedder.admit():
            return await shedder.refuse(send, scope)
        shedder.in_hand += 1
        try:
            scope = {**scope, "tablekeeper.arrived": time.monotonic()}
            return await self.app(scope, receive, send)
        finally:
            shedder.in_hand -= 1
