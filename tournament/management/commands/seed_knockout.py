from django.core.management.base import CommandError

from tournament.management.commands._base import EventCommand, get_event
from tournament.models import Match
from tournament.reports import stage_notes
from tournament.services.knockout import seed_divisions


def plural(count, word):
    """ "1 knockout game", "3 placement games"."""
    return f"{count} {word} game" if count == 1 else f"{count} {word} games"


def named_once(division, reason):
    """The refusal ``reason`` naming ``division`` once: a leading "<division>: " is dropped when
    the rest names it again, and added when nothing names it."""
    text = str(reason)
    for separator in (": ", "："):
        prefix = f"{division.name}{separator}"
        if text.startswith(prefix) and division.name in text[len(prefix) :]:
            text = text[len(prefix) :]
    return text if division.name in text else f"{division.name}: {text}"


def created_text(event, divisions):
    """ "hitachi27: 3 knockout games and 4 placement games created." for the games after the
    groups of the divisions just seeded (placement games counted apart)."""
    games = Match.objects.filter(division__in=divisions).after_groups()
    placement = games.placement().count()
    knockout = games.count() - placement
    if placement and knockout:
        made = f"{plural(knockout, 'knockout')} and {plural(placement, 'placement')}"
    elif placement:
        made = plural(placement, "placement")
    else:
        made = plural(knockout, "knockout")
    return f"{event.slug}: {made} created."


class Command(EventCommand):
    help = (
        "Seed the knockout of every division that is ready (or only --division), each at its own time; "
        "says which divisions were seeded and why the others were not."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--division", help="the division's name (as on the entry sheet)")
        parser.add_argument("--reset", action="store_true", help="delete knockout games not started and seed again")

    def handle(self, event, division, reset, **options):
        """Exit code 0 unless the named ``--division`` is refused (unknown, or not ready)."""
        event = get_event(event)
        named = None
        if division is not None:
            named = event.divisions.filter(name=division.strip()).first()
            if named is None:
                known = "、".join(event.divisions.values_list("name", flat=True))
                raise CommandError(f"No division named {division!r} in {event.slug} (divisions: {known}).")
        report = seed_divisions(event, division=named, reset=reset)
        for d, count in report.seeded:
            self.stdout.write(stage_notes.seeded_text(d, count))
        if named is not None and report.not_seeded:
            raise CommandError(named_once(*report.not_seeded[0]))
        for d, reason in report.not_seeded:
            self.stdout.write(named_once(d, reason))
        self.stdout.write(created_text(event, [d for d, _count in report.seeded]))
