"""ASGI entry point: Django's pages and API over HTTP, and the live pages'
WebSockets (games/consumers.py, docs/live.md). Serve it with daphne:
``daphne -b 0.0.0.0 -p 8000 config.asgi:application`` (bin/demo does)."""

import os
import time

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpResponse

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # before the routes import models

from django.conf import settings  # noqa: E402

from .shedding import ShedLoadMiddleware, Shedder, refused  # noqa: E402

# load shedding (config/shedding.py): one per process
SHEDDER = Shedder(settings.SHED_DEADLINE_MS / 1000, retry_after=settings.SHED_RETRY_AFTER)


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with the middleware chain and the view run as
    under WSGI: the whole request in one step on the request's own thread.

    Django's own handler builds the chain in its async mode, where every
    middleware written for both modes (sessions, locale, CSRF, messages...)
    passes each request and response through ``sync_to_async``: about 18
    thread hand-offs per API request, which more than doubled a request's
    cost (7.1 ms against 3.3 ms in process; ``docs/workers.md``). No view
    here is async, so nothing is lost by running the chain synchronously;
    the request still has its own thread-sensitive context (Django's
    database connections keep their thread, and ``request_started`` and
    ``request_finished`` run on it)."""

    def __init__(self):
        from games.charsets import ASGIRequest

        # requests that never decode with a charset outside the allow-list
        # (games/charsets.py): Django adopts one before any middleware runs
        self.request_class = ASGIRequest
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self._timed_response, thread_sensitive=True)(request)

    def _timed_response(self, request):
        """The response, unless the request waited past the shedding
        deadline for this thread (then 503 at once, nothing run); the time
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

try:
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
