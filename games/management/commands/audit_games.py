"""``manage.py audit_games``: replay and check every stream, with a verdict each."""

from django.core.management.base import BaseCommand
from tqdm import tqdm

from games.audit import audit_game
from games.models import Game


class Command(BaseCommand):
    help = ("Replay every game from its first event: hash chain, deal against the seed, every move "
            "and score. Prints each bad game with its first bad event; exits 1 if any is bad.")

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", type=int, help="game ids (default: all)")
        parser.add_argument("--finished", action="store_true", help="only finished games")
        parser.add_argument("--no-save", action="store_true", help="do not store verdicts")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **opts):
        qs = Game.objects.defer("state").order_by("id")
        if opts["games"]:
            qs = qs.filter(pk__in=opts["games"])
        if opts["finished"]:
            qs = qs.filter(status=Game.Status.FINISHED)
        total = qs.count()
        bad = 0
        bar = tqdm(qs.iterator(chunk_size=200), total=total, unit="game", desc="audit",
                   disable=opts["no_progress"], file=self.stderr._out)
        for game in bar:
            verdict = audit_game(game, save=not opts["no_save"])
            if not verdict.ok:
                bad += 1
                bar.write(self.style.ERROR(str(verdict)), file=self.stdout._out)
        bar.close()
        summary = f"{total} games audited: {total - bad} clean, {bad} bad"
        self.stdout.write(self.style.SUCCESS(summary) if not bad else self.style.ERROR(summary))
        if bad:
            raise SystemExit(1)
