"""Load shedding (config/shedding.py) through the ASGI entry point daphne
serves: a request predicted to wait past the deadline, or found to have
waited past it when Django's thread picks it up, is answered 503 with
Retry-After at once and runs no view; others are served; sockets are never
shed."""

import json
import time

import pytest

from .test_asgi import _request as _raw_request


def _request(path):
    status, headers, body = _raw_request(path)
    return status, {k.lower(): v for k, v in headers.items()}, body

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shedder(monkeypatch):
    from config.asgi import SHEDDER

    monkeypatch.setattr(SHEDDER, "deadline", 0.25)
    monkeypatch.setattr(SHEDDER, "service", 0.005)
    monkeypatch.setattr(SHEDDER, "in_hand", 0)
    return SHEDDER


def test_a_request_predicted_to_wait_past_the_deadline_is_refused_at_once(shedder, monkeypatch):
    from games import api

    ran = []
    monkeypatch.setattr(api.GameListCreate, "get", lambda *a, **k: ran.append(1))
    shedder.in_hand = 60  # 60 requests in hand at 5 ms each: 300 ms > 250 ms
    status, headers, body = _request("/api/games/")
    assert status == 503 and headers[b"retry-after"] == b"1"
    assert json.loads(body)["code"] == "overloaded"
    assert ran == [], "a refused request ran its view"


def test_within_the_deadline_requests_are_served(shedder):
    shedder.in_hand = 40  # 200 ms predicted
    status, _, _ = _request("/api/games/")
    assert status == 200


def test_a_request_that_waited_past_the_deadline_for_its_thread_is_refused_unrun(shedder, monkeypatch):
    from config import shedding

    real = shedding.ShedLoadMiddleware.__call__

    async def arrived_long_ago(self, scope, receive, send):  # as if it had queued for a second
        async def app(scope, receive, send):
            return await self.app({**scope, "tablekeeper.arrived": time.monotonic() - 1.0}, receive, send)
        return await real(shedding.ShedLoadMiddleware(app, self.shedder), scope, receive, send)

    monkeypatch.setattr(shedding.ShedLoadMiddleware, "__call__", arrived_long_ago)
    before = shedder.refused
    status, headers, _ = _request("/api/games/")
    assert status == 503 and headers[b"retry-after"] == b"1"
    assert shedder.refused == before + 1


def test_no_deadline_sheds_nothing(shedder):
    shedder.deadline = 0
    shedder.in_hand = 10_000
    assert _request("/api/games/")[0] == 200


def test_static_files_are_never_shed(shedder):
    """A page asks for its scripts all at once: refusing them would leave a
    page without its live updates, for next to no saving."""
    shedder.in_hand = 10_000
    assert any(p.startswith("/static/") for p in _middleware().exempt)
    assert _request("/static/games/live.js")[0] != 503
    assert _request("/api/games/")[0] == 503


def test_a_requests_share_of_the_time_is_its_time_over_the_requests_beside_it():
    from config.shedding import Shedder

    alone, crowded = Shedder(0.25, initial_service=0.0), Shedder(0.25, initial_service=0.0)
    for _ in range(200):
        alone.served(0.004, beside=1)
        crowded.served(0.040, beside=10)  # ten threads sharing the interpreter: ten times as long each
    assert abs(alone.service - crowded.service) < 1e-6


def _middleware():
    from config.asgi import application
    from config.shedding import ShedLoadMiddleware

    http = application.application_mapping["http"]
    assert isinstance(http, ShedLoadMiddleware)
    return http


def test_a_page_refused_for_load_asks_again_by_itself(shedder):
    shedder.in_hand = 60
    status, headers, body = _request("/games/")
    assert status == 503 and headers[b"retry-after"] == b"1"
    assert headers[b"content-type"].startswith(b"text/html")
    assert b'http-equiv="refresh" content="1"' in body
