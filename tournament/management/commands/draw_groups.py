from django.core.management.base import CommandError
from django.utils.translation import ngettext

from common.errors import UserError
from tournament.management.commands._base import EventCommand, get_event
from tournament.services.draw import draw_groups


class Command(EventCommand):
    help = "Draw the groups of every division: one group per court of the division."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--seed", type=int, help="draw number: the same number repeats the same draw")

    def handle(self, event, seed, **options):
        event = get_event(event)
        try:
            drawn = draw_groups(event, seed=seed)
        except UserError as e:
            raise CommandError(str(e)) from None
        parts = [
            f"{d.name}: " + ngettext("%(count)s group", "%(count)s groups", len(groups)) % {"count": len(groups)}
            for d, groups in drawn.items()
        ]
        self.stdout.write(f"{event.slug}: " + "; ".join(parts) + ".")
