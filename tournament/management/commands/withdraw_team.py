from django.core.management.base import CommandError

from common.errors import UserError
from tournament.management.commands._base import EventCommand, get_event
from tournament.services.withdrawal import find_team, withdraw_team


class Command(EventCommand):
    help = (
        "Withdraw a team (棄権): during the group stage its games follow the division's setting; once its "
        "group is complete it keeps its group results and its later games go to its opponents. Prints what changed."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("team", help="the team's name (spaces and full-width letters as in the forms)")
        parser.add_argument("--division", help="the team's division, when its name recurs in several divisions")

    def handle(self, event, team, division, **options):
        event = get_event(event)
        try:
            report = withdraw_team(find_team(event, team, division))
        except UserError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"{report.team} ({report.division}): {report.rule()}")
        for line in report.game_lines() + report.place_lines() + report.slot_lines():
            self.stdout.write(f"- {line}")
        self.stdout.write(report.summary())
