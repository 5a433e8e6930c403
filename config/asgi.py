"""ASGI entry point: Django's pages and API over HTTP, and the live pages'
WebSockets (games/consumers.py, docs/live.md). Serve it with daphne:
``daphne -b 0.0.0.0 -p 8000 config.asgi:application`` (bin/demo does)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()  # sets Django up before the routes import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

http = django_application
if settings.DEBUG:  # the embedded default serves its own static files, as runserver does
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http = ASGIStaticFilesHandler(django_application)

application = ProtocolTypeRouter({
    "http": http,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
