"""``manage.py send_webhooks [--once] [--interval SECONDS]``: send the outgoing webhook's waiting
messages (issue 35 item 2; docs/family-page.md, "The outgoing webhook").

Without ``--once`` it keeps going, every ``--interval`` seconds (10), until Ctrl+C: run it beside
``serve`` on a server with internet. With ``--once`` it sends what is due now and stops (a cron
job). A message that fails waits longer each time and is given up after 8 attempts; the
organiser's webhook page lists each with its last error.
"""

import time

from django.core.management.base import BaseCommand

from webhooks import sender


class Command(BaseCommand):
    help = "Send the outgoing webhook's waiting messages (results confirmed, teams called)."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="send what is due now, then stop")
        parser.add_argument("--interval", type=float, default=10.0, help="seconds between rounds (default 10)")

    def handle(self, once=False, interval=10.0, **options):
        while True:
            sent, failed = sender.send_due(transport=sender.TRANSPORT)
            if sent or failed or once:
                self.stdout.write(f"{sent} sent, {failed} failed (to be tried again or given up).")
            if once:
                return
            try:
                time.sleep(max(interval, 1.0))
            except KeyboardInterrupt:
                return
