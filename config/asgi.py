"""ASGI entry point: Django's pages and API over HTTP, and the live pages'
WebSockets (games/consumers.py, docs/live.md). The web process serves it
with uvicorn: ``python -m config.web -b 0.0.0.0 -p 8000`` (config/web.py;
bin/demo and bin/serve do). ``manage.py runserver`` serves it with daphne."""

import asyncio
import contextvars
import os
import time

import django
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpResponse
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # before the routes import models

from django.conf import settings  # noqa: E402

from games import push  # noqa: E402

from .shedding import ShedLoadMiddleware, Shedder, refused  # noqa: E402

# load shedding (config/shedding.py): one per process
SHEDDER = Shedder(settings.SHED_DEADLINE_MS / 1000, retry_after=settings.SHED_RETRY_AFTER)


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler, serving each request as a WSGI server would:
    the whole request (``request_started``, the middleware chain and the
    view, ``request_finished``) in one step on a thread of a pool shared by
    every request (``ASGI_THREADS``).

    Django's own handler builds the chain in its async mode, where every
    middleware written for both modes (sessions, locale, CSRF, messages...)
    passes each request and response through ``sync_to_async``: about 18
    thread hand-offs per API request, which more than doubled a request's
    cost (7.1 ms against 3.3 ms in process; ``docs/workers.md``). It also
    starts a new thread for every request (its thread-sensitive context),
    so every request opened a database connection of its own, and it hops
    to that thread three times (the signals, the view, closing). No view
    here is async, so nothing is lost: the pool's threads keep their
    database connections as a WSGI server's threads do (``CONN_MAX_AGE``;
    ``request_started`` and ``request_finished`` close them on the thread
    that used them, and on PostgreSQL give them back to the pool)."""

    def __init__(self):
        from concurrent.futures import ThreadPoolExecutor

        from games.charsets import ASGIRequest

        # requests that never decode with a charset outside the allow-list
        # (games/charsets.py): Django adopts one before any middleware runs
        self.request_class = ASGIRequest
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.pool = ThreadPoolExecutor(max_workers=settings.ASGI_THREADS, thread_name_prefix="django")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}")
        await self.handle(scope, receive, send)

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        push.remember_loop(loop)  # a move's push is handed to this loop, not waited for
        try:
            response, pushes = await loop.run_in_executor(self.pool, contextvars.copy_context().run,
                                                          self._whole_request, scope, body_file)
            if pushes:  # the request's live pushes (a move's notice), sent from here: no extra wake-up
                push.send_carried(pushes)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass  # the client went away while it was sent
            finally:
                if response.streaming:  # closed once sent (request_finished, on a pool thread)
                    await loop.run_in_executor(self.pool, response.close)
        finally:
            body_file.close()

    def _whole_request(self, scope, body_file):
        """``request_started``, the response and, unless it streams,
        ``request_finished``: all on this thread. With the response, the
        live pushes the request made (:func:`games.push.carrying`: the loop
        sends them as it takes the answer, instead of being woken for each)."""
        pushes = push.carrying()
        try:
            return self._response(scope, body_file), pushes
        finally:
            push.stop_carrying()

    def _response(self, scope, body_file):
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            response = error_response
        else:
            response = self._timed_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()  # request_finished: the thread's connection closed or kept, by CONN_MAX_AGE
        return response

    def _timed_response(self, request):
        """The response, unless the request waited past the shedding
        deadline for a thread (then 503 at once, nothing run); the time
        taken feeds the shedder's estimate."""
        started = time.monotonic()
        arrived = request.scope.get("tablekeeper.arrived")
        if arrived is not None and SHEDDER.waited_too_long(started - arrived):
            SHEDDER.refused += 1
            body, kind = refused(request.path, request.method, SHEDDER.retry_after)
            response = HttpResponse(body, status=503, content_type=kind.decode())
            response["Retry-After"] = str(SHEDDER.retry_after)
            return response
        try:
            return self.get_response(request)
        finally:
            SHEDDER.served(time.monotonic() - started, beside=SHEDDER.in_hand)


django_application = OneHopASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

http = django_application
if settings.DEBUG:  # the embedded default serves its own static files, as runserver does
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http = ASGIStaticFilesHandler(django_application)
http = ShedLoadMiddleware(http, SHEDDER, exempt=("/" + settings.STATIC_URL.lstrip("/"),))

try:  # runserver's server (daphne): the web process itself runs uvicorn (config/web.py)
    from daphne import http_protocol as daphne_http
except ImportError:  # pragma: no cover - served by another ASGI server
    daphne_http = None


if daphne_http is not None and not getattr(daphne_http.WebRequest, "forms_left_to_django", False):
    class WebRequest(daphne_http.WebRequest):
        """daphne's request without Twisted's own form parsing. Twisted
        parses every form POST's body into request arguments (which daphne
        never reads) before Django sees the request, and answers a
        multipart body it cannot parse with a bare 400 of its own (no JSON,
        never reaching Django). Django parses what it needs itself: the API
        answers any multipart body with its JSON 415."""

        forms_left_to_django = True

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._parsePOSTFormSubmission = False

    daphne_http.WebRequest = WebRequest  # what daphne's HTTPFactory builds

application = ProtocolTypeRouter({
    "http": http,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
