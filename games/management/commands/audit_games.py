"""``manage.py audit_games``: replay and check every stream, with a verdict
each; check players' head receipts and kept checkpoint files."""

import json

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games import checkpoints, receipts
from games.audit import AuditRace, audit_game
from games.models import Game


class Command(BaseCommand):
    help = ("Replay every game from its first event: hash chain, deal against the seed, every move "
            "and score, and the stream against every kept head (the newest checkpoint, the league's "
            "results, --checkpoint FILE). Prints each bad game with its first bad event; exits 1 if any "
            "is bad. --receipt FILE checks players' head receipts instead.")

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", type=int, help="game ids (default: all)")
        parser.add_argument("--finished", action="store_true", help="only finished games")
        parser.add_argument("--no-save", action="store_true", help="do not store verdicts")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument("--checkpoint", metavar="FILE",
                            help="a kept checkpoint file (manage.py checkpoint --export) to check against too")
        parser.add_argument("--receipt", metavar="FILE",
                            help="check the head receipt(s) in FILE (one JSON receipt or a list) and stop")

    def handle(self, *args, **opts):
        if opts["receipt"]:
            return self.check_receipts(opts["receipt"])
        kept = None
        if opts["checkpoint"]:
            kept = self.read_checkpoint(opts["checkpoint"])
        qs = Game.objects.defer("state").order_by("id")
        if opts["games"]:
            qs = qs.filter(pk__in=opts["games"])
        if opts["finished"]:
            qs = qs.filter(status=Game.Status.FINISHED)
        total = qs.count()
        bad = skipped = 0
        for problem in checkpoints.chain_problems():
            bad += 1
            self.stdout.write(self.style.ERROR(f"checkpoints: BAD: {problem}"))
        if kept is not None:
            wanted = set(opts["games"]) if opts["games"] else None
            present = set(Game.objects.filter(pk__in=list(kept.heads)).values_list("pk", flat=True))
            for gone in sorted(set(kept.heads) - present):
                if wanted is None or gone in wanted:
                    bad += 1
                    self.stdout.write(self.style.ERROR(
                        f"game {gone}: BAD: the game is gone; {kept.holder} holds it at event {kept.heads[gone][0]}"))
        bar = tqdm(qs.iterator(chunk_size=200), total=total, unit="game", desc="audit",
                   disable=opts["no_progress"], file=self.stderr._out)
        for game in bar:
            try:
                verdict = audit_game(game, save=not opts["no_save"], checkpoint=kept)
            except AuditRace as exc:
                skipped += 1
                bar.write(f"game {game.pk}: not judged: {exc}", file=self.stdout._out)
                continue
            if not verdict.ok:
                bad += 1
                bar.write(self.style.ERROR(str(verdict)), file=self.stdout._out)
        bar.close()
        summary = f"{total} games audited: {total - bad - skipped} clean, {bad} bad"
        summary += f", {skipped} not judged (moving)" if skipped else ""
        self.stdout.write(self.style.SUCCESS(summary) if not bad else self.style.ERROR(summary))
        if bad:
            raise SystemExit(1)

    def read_checkpoint(self, path: str) -> checkpoints.Heads:
        try:
            with open(path, encoding="utf-8") as f:
                return checkpoints.load_file(f.read())
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}", returncode=2) from None
        except checkpoints.BadCheckpoint as exc:
            raise CommandError(f"{path}: {exc}", returncode=2) from None

    def check_receipts(self, path: str) -> None:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}", returncode=2) from None
        except ValueError as exc:
            raise CommandError(f"{path} is not JSON: {exc}", returncode=2) from None
        items = data if isinstance(data, list) else [data]
        bad = 0
        for i, item in enumerate(items):
            game_id = item.get("game") if isinstance(item, dict) else None
            try:
                check = receipts.verify(game_id, item)
            except receipts.BadReceipt as exc:
                raise CommandError(f"{path}: receipt {i + 1}: {exc}", returncode=2) from None
            if check.ok:
                self.stdout.write(self.style.SUCCESS(str(check)))
            else:
                bad += 1
                self.stdout.write(self.style.ERROR(str(check)))
        if bad:
            raise SystemExit(1)
