from django.core.management.base import CommandError
from django.utils import timezone
from django.utils.translation import ngettext

from common.errors import UserError
from tournament.management.commands._base import EventCommand, get_event
from tournament.services.schedule import make_schedule, past_the_day


class Command(EventCommand):
    help = "Create the round-robin games of every drawn group, one group per court."

    def add_arguments(self, parser):
        parser.add_argument("event")

    def handle(self, event, **options):
        event = get_event(event)
        try:
            count = make_schedule(event)
        except UserError as e:
            raise CommandError(str(e)) from None
        last = timezone.localtime(event.matches.order_by("-start_at").first().start_at)
        day = "" if last.date() == event.date else f" on {last.date().isoformat()}"
        games = ngettext("%(count)s game scheduled", "%(count)s games scheduled", count) % {"count": count}
        self.stdout.write(f"{event.slug}: {games}; the last starts at {last:%H:%M}{day}.")
        warning = past_the_day(event)
        if warning:
            self.stdout.write(f"WARNING: {warning}")
            self.stderr.write(f"WARNING: {warning}")
