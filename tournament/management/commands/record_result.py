from django.core.management.base import CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.engine import rules
from judging.forms import MESSAGES
from judging.models import RecordingSheet
from judging.services import record_confirmed_result, submit_sheet
from tournament.management.commands._base import EventCommand, get_event
from tournament.models import Match
from tournament.reports import stage_notes, stages

JOKERS = {"A": rules.JokerHolder.A, "B": rules.JokerHolder.B, "referee": rules.JokerHolder.REFEREE}
FIELDS = {
    "__all__": "CARDS_A + CARDS_B + --referee",
    "cards_a": "CARDS_A",
    "cards_b": "CARDS_B",
    "referee_cards": "--referee",
    "joker_holder": "--joker",
    "rps_winner": "--rps-winner",
}


def sheet_values(cards_a, cards_b, referee, joker, rps_winner):
    """The ``rules.SheetValues`` typed on the command line; 「り」 defaults to the side with more
    cards (the referee when level)."""
    if joker is None:
        joker = "A" if cards_a > cards_b else "B" if cards_b > cards_a else "referee"
    return rules.SheetValues(
        cards_a, cards_b, referee, JOKERS[joker], rules.Side(rps_winner) if rps_winner else None, 0
    )


def problems_text(match, values, card_total):
    """The sheet's problems, each naming its field, or "" when it is valid."""
    texts = []
    for field, problem in rules.validate_sheet(values, card_total):
        message = MESSAGES[problem] % {
            "total": card_total,
            "a": values.cards_a,
            "b": values.cards_b,
            "ref": values.referee_cards,
            "sum": values.cards_a + values.cards_b + values.referee_cards,
        }
        texts.append(f"{FIELDS.get(field, field)}: {message}")
    return " ".join(texts)


def what_if(match, values, card_total):
    """An unsaved ``RecordingSheet`` holding ``values`` with its derived winner (for
    ``stages.changes_if_confirmed``)."""
    outcome = rules.decide_winner(values, card_total)
    return RecordingSheet(
        match=match,
        cards_a=values.cards_a,
        cards_b=values.cards_b,
        referee_cards=values.referee_cards,
        winner_side=outcome.winner.value,
        decided_by=outcome.decided_by.value,
    )


class Command(EventCommand):
    help = (
        "A recorder's entry of a game's (corrected) recording sheet: a new version, confirmed with --confirm. "
        "Prints what confirming it changes after the groups (places, slots, games out of date)."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("number", type=int, help="the game's match number")
        parser.add_argument("cards_a", type=int, help="cards taken by team A")
        parser.add_argument("cards_b", type=int, help="cards taken by team B")
        parser.add_argument("--referee", type=int, default=0, help="cards held by the referee (default 0)")
        parser.add_argument("--joker", choices=["A", "B", "referee"], help="who holds 「り」 (default: more cards)")
        parser.add_argument(
            "--rps-winner", choices=["A", "B"], help="leaders' じゃんけん winner (level, referee holds 「り」)"
        )
        parser.add_argument("--confirm", action="store_true", help="confirm the new version as the organiser would")

    def handle(self, event, number, cards_a, cards_b, referee, joker, rps_winner, confirm, **options):
        event = get_event(event)
        match = (
            Match.objects.select_related("division", "team_a", "team_b")
            .filter(event=event, match_number=number)
            .first()
        )
        if match is None:
            raise CommandError(f"No game {number} in {event.slug}.")
        if not match.teams_known:
            raise CommandError(_("Both teams of game %(number)s are not known yet.") % {"number": number})
        values = sheet_values(cards_a, cards_b, referee, joker, rps_winner)
        problems = problems_text(match, values, event.card_total)
        if problems:
            raise CommandError(f"{match}: {problems}")
        before = stages.changes_if_confirmed(what_if(match, values, event.card_total), past=confirm)
        try:
            with transaction.atomic():
                if confirm:
                    sheet = record_confirmed_result(match, values)
                else:
                    sheet, _created = submit_sheet(match, values)
        except UserError as e:
            raise CommandError(f"{match}: {e}") from None
        state = _("confirmed") if sheet.is_confirmed else _("waiting for confirmation")
        self.stdout.write(
            f"{match}: version {sheet.version} ({state}), {match.team_a} {cards_a} – {cards_b} {match.team_b}"
        )
        if sheet.is_confirmed and before:
            self.stdout.write("  Confirmed. " + " ".join(before[:1]))
            before = before[1:]
        for sentence in before:
            self.stdout.write(f"  {sentence}")
        if sheet.is_confirmed:
            for found in stage_notes.division_out_of_date(match.division):
                self.stdout.write(
                    f"  {_('out of date')}: {found.match} ({found.match.get_stage_display()}): {found.text}"
                )
