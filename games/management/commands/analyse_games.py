"""``manage.py analyse_games [ids]``: analyse finished games and store it."""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.analysis import analysis_build
from games.errors import GameServiceError
from games.models import Game


class Command(BaseCommand):
    help = ("Analyse finished games (every turn judged by the engine) and store the analyses; "
            "games in progress are never analysed.")

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", type=int, help="game ids (default: every finished game)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts):
        qs = Game.objects.defer("state").filter(status=Game.Status.FINISHED).order_by("id")
        if opts["games"]:
            wanted = set(opts["games"])
            known = dict(Game.objects.filter(pk__in=wanted).values_list("pk", "status"))
            missing = sorted(wanted - set(known))
            playing = sorted(pk for pk, status in known.items() if status != Game.Status.FINISHED)
            if missing or playing:
                raise CommandError("; ".join(
                    ([f"no game {', '.join(map(str, missing))}"] if missing else [])
                    + ([f"not over (never analysed before the end): {', '.join(map(str, playing))}"]
                       if playing else [])), returncode=2)
            qs = qs.filter(pk__in=wanted)
        total, failed = qs.count(), 0
        bar = tqdm(qs.iterator(chunk_size=50), total=total, unit="game", desc="analyse",
                   disable=opts["no_progress"], file=self.stderr._out)
        for game in bar:
            try:
                analysis_build(game=game)
            except GameServiceError as exc:
                failed += 1
                bar.write(self.style.ERROR(f"game {game.pk}: {exc}"), file=self.stdout._out)
        bar.close()
        self.stdout.write(f"{total - failed} games analysed, {failed} failed")
        if failed:
            raise SystemExit(1)
