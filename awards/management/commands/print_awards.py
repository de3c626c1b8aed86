from django.core.management.base import CommandError
from django.db import transaction

from awards import printing
from awards.models import AwardSettings
from awards.reports import all_certificates, event_awards
from common.errors import UserError
from tournament.management.commands._base import EventCommand, get_division, get_event, in_site_language, write_output


class Command(EventCommand):
    help = (
        "Write the certificates (賞状) of the finished divisions to a PDF and record them as printed, "
        "or the calibration page of the paper set (--calibration)."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--division", help="only this division (its name)")
        parser.add_argument(
            "--per", choices=["member", "team"], help="one per member or per team (default: the setting)"
        )
        parser.add_argument("--pending", action="store_true", help="only those not printed or changed since printed")
        parser.add_argument("--calibration", action="store_true", help="the calibration page instead (logs nothing)")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, event, output, division=None, per=None, pending=False, calibration=False, **options):
        event = get_event(event)
        settings = AwardSettings.for_event(event)
        if calibration:
            try:
                write_output(output, printing.calibration_pdf(settings))
            except UserError as e:
                raise CommandError(f"{event.slug}: {e}") from None
            self.stdout.write(
                f"{event.slug}: calibration page ({settings.paper_size}, {settings.orientation}) written to {output}."
            )
            return
        chosen_division = get_division(event, division) if division is not None else None
        awards = event_awards(event, settings=settings, per=per, division=chosen_division)
        for entry in awards:
            if not entry.finished:
                self.stdout.write(
                    f"{entry.division.name}: not finished ({entry.reason}); its places get no certificate."
                )
        chosen = all_certificates(awards, "pending" if pending else "all")
        if not chosen:
            raise CommandError(f"{event.slug}: no certificate to print.")
        if not settings.issuer_lines():  # as the desk warns (issue 33): the paper names no organiser
            self.stderr.write(f"{event.slug}: no issuer (授与者) is set: the certificates name no organiser.")
        for cert in chosen:
            for note in cert.font_notes:  # before printing, as the desk says it
                self.stderr.write(f"{cert.summary}: {note}")
        try:
            with in_site_language(), transaction.atomic():  # a file not written records nothing
                write_output(output, printing.print_certificates(event, chosen, settings))
        except UserError as e:
            raise CommandError(f"{event.slug}: {e}") from None
        self.stdout.write(f"{event.slug}: {len(chosen)} certificates written to {output} and recorded as printed.")
