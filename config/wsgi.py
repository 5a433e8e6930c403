"""WSGI entry point (``gunicorn config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# requests that never decode with a charset outside the allow-list
# (games/charsets.py): Django adopts one before any middleware runs
from games.charsets import WSGIRequest  # noqa: E402

application.request_class = WSGIRequest
