from importlib import import_module

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League"

    def ready(self):
        # league.tasks registers the league's outbox handler
        # (games.outbox.on_events) and its Celery tasks on import; load it
        # with the app so a web process in eager mode knows them too. (The
        # games app loads its own tasks; it never imports the league.)
        import_module("league.tasks")
        # the result stream keeps each finished game's head: the games
        # audit checks the stream against it (league.witness)
        import_module("league.witness")
        # a tournament game's seat page offers the next game of the round
        # (games.next_game.register_next_game)
        import_module("league.next_game")
