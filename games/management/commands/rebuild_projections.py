"""``manage.py rebuild_projections``: recompute every game row from its events."""

from django.core.management.base import BaseCommand
from tqdm import tqdm

from games.models import Game
from games.replay import ReplayError
from games.services import projection_rebuild


class Command(BaseCommand):
    help = "Rebuild each game's projection (version, turn, status, scores, state, snapshots) from its events."

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", type=int, help="game ids (default: all)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts):
        qs = Game.objects.order_by("id")
        if opts["games"]:
            qs = qs.filter(pk__in=opts["games"])
        failed = 0
        bar = tqdm(qs.iterator(chunk_size=100), total=qs.count(), unit="game", desc="rebuild",
                   disable=opts["no_progress"], file=self.stderr._out)
        for game in bar:
            try:
                projection_rebuild(game)
            except (ReplayError, ValueError) as exc:
                failed += 1
                bar.write(self.style.ERROR(f"game {game.pk}: {exc}"), file=self.stdout._out)
        bar.close()
        self.stdout.write(f"{qs.count() - failed} projections rebuilt, {failed} failed")
        if failed:
            raise SystemExit(1)
