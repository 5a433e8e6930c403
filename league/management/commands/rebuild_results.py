"""``manage.py rebuild_results [--tournament SLUG]``: rebuild the result
projection from the result events and check the standings are unchanged."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from league import selectors, services
from league.models import Tournament


def _key(rows):
    return [(r.player, r.rank, r.tied, r.metrics) for r in rows]


class Command(BaseCommand):
    help = "Rebuild league results from their events; report any tournament whose standings change."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", help="slug of one tournament (default: all)")

    def handle(self, *args, **opts):
        tournaments = Tournament.objects.all()
        if opts["tournament"]:
            tournaments = tournaments.filter(slug=opts["tournament"])
            if not tournaments.exists():
                raise CommandError(f"no tournament with slug {opts['tournament']!r}")
        changed = 0
        for t in tournaments.order_by("id"):
            before = _key(selectors.tournament_standings(t))
            applied = services.results_rebuild(tournament=t)
            after = _key(selectors.tournament_standings(t))
            same = before == after
            changed += not same
            self.stdout.write(f"{t.slug}: {applied} result events replayed; standings "
                              f"{'unchanged' if same else 'CHANGED (the projection was stale)'}")
        if changed:
            raise CommandError(f"{changed} tournament(s) had a stale projection (now rebuilt)")
