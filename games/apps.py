from importlib import import_module

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Task modules register their outbox handlers (games.outbox.on_events)
        # and Celery tasks on import; load them with the app so a web process
        # in eager mode knows them too.
        import_module("games.tasks")
        import_module("games.login_limits")  # counts failed logins per address (user_login_failed)
