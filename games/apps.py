from importlib import import_module
from importlib.util import find_spec

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Task modules register their outbox handlers (games.outbox.on_events)
        # and Celery tasks on import; load them with the app so a web process
        # in eager mode knows them too.
        for name in ("games.tasks", "league.tasks"):
            if find_spec(name.split(".")[0]) is not None and find_spec(name) is not None:
                import_module(name)
