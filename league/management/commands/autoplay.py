"""``manage.py autoplay <tournament slug>``: put a tournament on autoplay.

Its rounds are seated and their games opened with AI players as soon as the
previous round closes; the workers play the moves, record the results,
close the rounds and record the standings until the tournament is finished.
With the embedded default (eager tasks) the command returns when it is over;
with workers it returns at once (follow ``/api/tasks/autoplay:tournament:<id>/``).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from league import handlers
from league.models import Tournament
from league.services import LeagueError


class Command(BaseCommand):
    help = "Play a tournament to the end with AI players, through the workers."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("--ai-seats-only", action="store_true",
                            help="AI players take only the AI seats; people play their own seats")

    def handle(self, *args, **opts):
        tournament = Tournament.objects.filter(slug=opts["slug"]).first()
        if tournament is None:
            known = ", ".join(Tournament.objects.values_list("slug", flat=True)[:10]) or "none"
            raise CommandError(f"no tournament with slug {opts['slug']!r} (known: {known})")
        try:
            run = handlers.tournament_autoplay_start(tournament=tournament, all_ai=not opts["ai_seats_only"])
        except LeagueError as exc:
            raise CommandError(str(exc)) from None
        tournament.refresh_from_db()
        self.stdout.write(f"{tournament}: autoplay {run.status}; tournament {tournament.get_status_display()}")
        if run.error:
            self.stdout.write(self.style.WARNING(run.error))
