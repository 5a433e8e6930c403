"""``manage.py drain_outbox``: send the outbox rows left pending."""

from django.core.management.base import BaseCommand

from games import outbox


class Command(BaseCommand):
    help = "Send pending outbox rows to the broker (after Redis was down), or run them in eager mode."

    def handle(self, *args, **opts):
        report = outbox.drain()
        self.stdout.write(f"{report.sent} sent, {report.failed} failed, {outbox.pending_count()} pending")
        for error in report.errors[:10]:
            self.stdout.write(self.style.WARNING(error))
