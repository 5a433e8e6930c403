"""The browser tests' servers.

``asgi_live_server``: the web process's server (``config/web.py``: uvicorn
with uvloop and httptools) serving ``config.asgi.application`` (pages, API
and the live pages' WebSockets) from a thread of the test process, on a
free port, against the test database. The server is started once and
reused by every test; each
test's data lives in its own transaction-flushed database as with
pytest-django's ``live_server``.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading

import pytest

_SERVER: dict[str, str] = {}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_live_server(transactional_db, settings, monkeypatch):
    """The base URL of the web server running in this process.

    Load shedding is off here: the server shares two cores with the test's
    browsers and another test process, so its queue is long for reasons
    that are the test run's, not the pages' (shedding has its own tests,
    tests/games/test_shedding.py)."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    settings.DEBUG = True  # static files served by the ASGI app, as in the embedded default
    from config.asgi import SHEDDER  # after DEBUG: the ASGI app serves static files only with it

    monkeypatch.setattr(SHEDDER, "deadline", 0)
    if not _SERVER:
        import time

        import uvicorn

        from config.web import config

        port = _free_port()
        server = uvicorn.Server(config("127.0.0.1", port, log_level="warning"))
        thread = threading.Thread(target=server.run, name="web", daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                pytest.fail("the web server did not start within 20 s")
            time.sleep(0.05)
        _SERVER["url"] = f"http://127.0.0.1:{port}"
    yield _SERVER["url"]


CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENS = os.environ.get("TABLEKEEPER_SCREENSHOTS",
                         os.path.join(os.path.dirname(__file__), "..", "..", "docs", "screens"))


@pytest.fixture
def browser(monkeypatch):
    """Debian's chromium through Playwright (never a downloaded browser)."""
    if not shutil.which(CHROMIUM):
        pytest.fail(f"Debian's chromium is needed at {CHROMIUM} (apt-get install chromium)")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def screenshot():
    """``screenshot(page, name)``: save the page under docs/screens/ (or
    TABLEKEEPER_SCREENSHOTS; empty: none); ``selector``: that part only;
    ``full=False``: the screen as the viewport shows it (a phone's fixed
    rack at the bottom)."""
    def save(page, name, selector=None, full=True):
        if SCREENS:
            os.makedirs(SCREENS, exist_ok=True)
            path = os.path.join(SCREENS, f"{name}.png")
            if selector:
                page.locator(selector).screenshot(path=path)
            else:
                page.screenshot(path=path, full_page=full)
    return save


class SeatPages:
    """Opening a seat's page from its link, and waiting for a version to
    reach a page (``seat_pages`` fixture)."""

    def __init__(self, browser, base):
        self.browser, self.base = browser, base

    def open(self, game, token, **context):
        page = self.browser.new_context(**context).new_page()
        page.goto(f"{self.base}/games/play/#{token}")
        page.wait_for_url(f"{self.base}/games/{game.pk}/play/")
        page.wait_for_selector('#live[data-state="open"]', timeout=10000)
        page.wait_for_selector("#table-app .tk-bar", timeout=10000)
        return page

    @staticmethod
    def wait(page, version):
        page.wait_for_function(f"document.getElementById('version').innerText === '{version}'", timeout=15000)
        page.wait_for_selector("#table-app .tk-bar", timeout=10000)


@pytest.fixture
def seat_pages(browser, asgi_live_server):
    return SeatPages(browser, asgi_live_server)


def count_loads(page):
    """Count the documents ``page`` loads from now on (its main frame's
    navigations): a page that applies its frames in place loads none.
    Returns the list the loads are appended to (their addresses)."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
    page.evaluate("window.tkFirstLoad = performance.getEntriesByType('navigation').length")
    return loads


def frame_times(pages) -> list[float]:
    """Every frame's milliseconds from its arrival over the socket to the
    table drawn (``window.tkFrameTimes``, recorded by the pages)."""
    out: list[float] = []
    for p in pages:
        out += p.evaluate("window.tkFrameTimes || []")
    return out


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


@pytest.fixture
def in_place():
    """The helpers that check a page applies its frames in place:
    ``count_loads(page)``, ``frame_times(pages)``, ``percentile(values, q)``."""
    from types import SimpleNamespace

    return SimpleNamespace(count_loads=count_loads, frame_times=frame_times, percentile=percentile)
