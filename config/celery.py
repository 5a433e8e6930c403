"""The Celery application.

Tasks live in each app's ``tasks.py`` and are found by autodiscovery. With no
``CELERY_BROKER_URL`` the app runs tasks eagerly in the calling process (the
embedded default); with one (Redis) they go to workers started with
``celery -A config worker``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tablekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
