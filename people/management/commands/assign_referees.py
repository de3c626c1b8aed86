"""``manage.py assign_referees EVENT [--rest N]``: give every scheduled game a referee from the
event's list, keeping the games given by hand, with a rest after N games in a row (default: the
event's setting) and never a referee on a game of their own club (issue 32; docs/people.md)."""

from django.core.management.base import CommandError

from common.errors import UserError
from people.services import referees
from tournament.management.commands._base import EventCommand, get_event
from tournament.models import Match


class Command(EventCommand):
    help = "Assign referees to the scheduled games of an event (rest after N games in a row)."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("--rest", type=int, default=None, help="rest after this many games in a row (0: none)")

    def handle(self, *args, **options):
        event = get_event(options["event"])
        try:
            plan = referees.assign(event, options["rest"])
        except UserError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"{len(plan.assigned)} games have a referee.")
        if plan.unassigned:
            numbers = Match.objects.filter(pk__in=plan.unassigned).order_by("match_number")
            listed = ", ".join(str(n) for n in numbers.values_list("match_number", flat=True))
            self.stdout.write(f"No referee could take games {listed}: add referees or lower the rest.")
