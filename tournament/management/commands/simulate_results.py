import random

from django.core.management.base import CommandError

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result
from tournament.management.commands._base import EventCommand, get_division, get_event
from tournament.models import Match


def random_sheet(rng, card_total=rules.CARD_TOTAL):
    """Valid random recording-sheet values: mostly clear wins, some level games."""
    referee = rng.choice([0] * 8 + [1, 2])
    if rng.random() < 0.12:
        a = b = (card_total - referee) // 2
        referee = card_total - a - b
    else:
        a = rng.randint(10, card_total - referee - 10)
        b = card_total - referee - a
    holders = [
        h for h, n in ((rules.JokerHolder.A, a), (rules.JokerHolder.B, b), (rules.JokerHolder.REFEREE, referee)) if n
    ]
    holder = rng.choice(holders)
    rps_winner = rng.choice([rules.Side.A, rules.Side.B]) if a == b and holder is rules.JokerHolder.REFEREE else None
    return rules.SheetValues(a, b, referee, holder, rps_winner, rng.choice([0, 0, 0, 1, 2]))


STAGES = {
    "groups": lambda games: games.group_stage(),
    "knockout": lambda games: games.bracket(),
    "placement": lambda games: games.placement(),
}
# The words of a stage in "16 group results entered".
STAGE_WORDS = {"groups": "group", "knockout": "knockout", "placement": "placement"}


def describe(match):
    """ "No.12 港かるた会 v 日立南クラブ (waiting for confirmation, 2 versions)" for the lists."""
    versions = match.sheets.count()
    state = match.get_status_display() if match.status != Match.Status.SCHEDULED else "sent back"
    return f"No.{match.match_number} {match.team_a} v {match.team_b} ({state}, {versions} version{'s' if versions != 1 else ''})"


class Command(EventCommand):
    help = (
        "Rehearsals and load tests: give every game of the stage that has no result yet a valid random, "
        "confirmed result. A game with a result a person entered (waiting for confirmation, disputed, sent back) "
        "is left alone and counted; --replace replaces those too and lists them first. Confirmed games are "
        "never touched."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--stage", choices=["groups", "knockout", "placement"], default="groups")
        parser.add_argument("--division", help="only this division (its name)")
        parser.add_argument("--seed", type=int)
        parser.add_argument(
            "--replace",
            action="store_true",
            help="also replace the unconfirmed results people entered (listed before they are replaced)",
        )

    def handle(self, event, stage, seed, division=None, replace=False, **options):
        event = get_event(event)
        rng = random.Random(seed)
        entered = 0
        open_games = event.matches.open().filter(
            team_a__isnull=False,
            team_b__isnull=False,
        )
        if division is not None:
            open_games = open_games.filter(division=get_division(event, division))
        open_games = STAGES[stage](open_games)
        # A result a person typed: any recording sheet on a game not yet confirmed (waiting,
        # disputed, or sent back to the court). The command never overwrites those unless told.
        by_people = list(
            open_games.filter(sheets__isnull=False)
            .distinct()
            .order_by("match_number")
            .select_related("team_a", "team_b")
        )
        if by_people and replace:
            self.stdout.write(f"{event.slug}: replacing {len(by_people)} result(s) people entered (--replace):")
            for match in by_people:
                self.stdout.write(f"  {describe(match)}")
        waiting = open_games if replace else open_games.filter(sheets__isnull=True)
        # Knockout rounds fill one after another: a later game learns its teams as we go.
        while True:
            batch = list(waiting.order_by("match_number"))
            if not batch:
                break
            for match in batch:
                try:
                    record_confirmed_result(match, random_sheet(rng, event.card_total))
                except UserError as e:
                    raise CommandError(str(e)) from None
                entered += 1
        where = f" ({division})" if division is not None else ""
        results = "result" if entered == 1 else "results"
        self.stdout.write(f"{event.slug}{where}: {entered} {STAGE_WORDS[stage]} {results} entered.")
        if by_people and not replace:
            self.stdout.write(
                f"{len(by_people)} game(s) with a result people entered left alone "
                "(replace them with --replace): " + ", ".join(f"No.{m.match_number}" for m in by_people)
            )
