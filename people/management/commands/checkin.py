"""``manage.py checkin EVENT TEAM [--absent PLAYER …] [--undo] [--division NAME]``: receive a team (受付済) with
its players present except those named absent, or undo its reception (issue 32; docs/people.md).

TEAM is the team's name (compared after normalisation) or its id; a name found in two
divisions needs ``--division`` or the id. Logged as the reception desk's ticks are (source "command").
"""

from django.core.management.base import CommandError

from common.errors import UserError
from people.services import reception
from tournament.engine.names import name_key
from tournament.management.commands._base import EventCommand, get_event
from tournament.models import Team


def find_team(event, text, division=None):
    """The team of ``event`` named or numbered ``text`` (in the division named ``division``, if
    given). Raises ``CommandError`` naming it."""
    teams = Team.objects.filter(division__event=event)
    if division:
        teams = teams.filter(division__name=division)
    if text.isdigit() and teams.filter(pk=int(text)).exists():
        return teams.get(pk=int(text))
    found = list(teams.filter(name_key=name_key(text)).select_related("division"))
    if not found:
        raise CommandError(f"No team {text!r} in {event.slug}.")
    if len(found) > 1:
        ids = ", ".join(f"{t.pk} ({t.division.name})" for t in found)
        raise CommandError(f"Two teams are named {text!r}: give --division or the id, one of {ids}.")
    return found[0]


class Command(EventCommand):
    help = "Receive a team at reception (players present except --absent), or undo it (--undo)."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("team", help="the team's name or id")
        parser.add_argument("--absent", nargs="*", default=[], metavar="PLAYER", help="players who are absent")
        parser.add_argument("--undo", action="store_true", help="undo the team's reception")
        parser.add_argument("--division", help="the division's name, when two divisions have a team of that name")

    def handle(self, *args, **options):
        event = get_event(options["event"])
        team = find_team(event, options["team"], options["division"])
        try:
            if options["undo"]:
                _checkin, changed = reception.set_received(team, False, source="command")
                self.stdout.write(f"Reception of {team.name} undone." if changed else f"{team.name} was not received.")
                return
            reception.check_in(team, absent=options["absent"], source="command")
        except UserError as error:
            raise CommandError(error.message) from None
        absent = ", ".join(options["absent"])
        self.stdout.write(f"{team.name} received." + (f" Absent: {absent}." if absent else ""))
