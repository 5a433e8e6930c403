"""``manage.py checkpoint``: write a checkpoint of every stream's head, and
export it to a file an organiser keeps off the server."""

import json

from django.core.management.base import BaseCommand, CommandError

from games import checkpoints
from games.models import Checkpoint


class Command(BaseCommand):
    help = ("Write a signed checkpoint of every game stream's head, chained to the previous one (nothing "
            "new is written when no stream moved since). --export FILE writes it to FILE as well: keep "
            "that file off the server; 'audit_games --checkpoint FILE' checks the streams against it.")

    def add_arguments(self, parser):
        parser.add_argument("--export", metavar="FILE", help="write the checkpoint to FILE (JSON)")
        parser.add_argument("--no-write", action="store_true",
                            help="write no new checkpoint: export the newest one")
        parser.add_argument("--reason", default="command", help="recorded with the checkpoint")

    def handle(self, *args, **opts):
        if opts["no_write"]:
            row = Checkpoint.objects.order_by("-seq").first()
            if row is None:
                raise CommandError("no checkpoint has been written yet", returncode=2)
        else:
            row = checkpoints.checkpoint_write(reason=opts["reason"])
        self.stdout.write(f"checkpoint #{row.seq}: {len(row.heads)} streams, sha256:{row.hash}")
        if opts["export"]:
            try:
                with open(opts["export"], "w", encoding="utf-8") as out:
                    json.dump(checkpoints.export(row), out, indent=1)
                    out.write("\n")
            except OSError as exc:
                raise CommandError(f"cannot write {opts['export']}: {exc}", returncode=2) from None
            self.stdout.write(f"exported to {opts['export']}")
