"""``manage.py drain_outbox``: send the outbox rows left pending."""

from django.core.management.base import BaseCommand

from games import outbox


class Command(BaseCommand):
    help = "Send pending outbox rows to the broker (after Redis was down), or run them in eager mode."

    def add_arguments(self, parser):
        parser.add_argument("--now", action="store_true",
                            help="do not wait for the rows' retry pauses: try every pending row now")
        parser.add_argument("--retry-failed", action="store_true",
                            help="put rows marked failed back to pending first, then send them")

    def handle(self, *args, **opts):
        if opts["retry_failed"]:
            self.stdout.write(f"{outbox.retry_failed()} failed row(s) back to pending")
        report = outbox.drain_now() if opts["now"] else outbox.drain()
        self.stdout.write(f"{report.sent} sent, {report.failed} failed, {outbox.pending_count()} pending")
        for error in report.errors[:10]:
            self.stdout.write(self.style.WARNING(error))
