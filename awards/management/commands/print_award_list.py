from pathlib import Path

from django.core.management.base import CommandError

from awards.ceremony import ceremony_pdf
from tournament.management.commands._base import EventCommand, get_event, in_site_language


class Command(EventCommand):
    help = "Write the MC's list of the awards ceremony (表彰式の読み上げ, names with furigana) to a PDF."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, event, output, **options):
        event = get_event(event)
        with in_site_language():
            data = ceremony_pdf(event)
        try:
            Path(output).write_bytes(data)
        except OSError as e:
            raise CommandError(f"Cannot write {output}: {e.strerror}.") from None
        self.stdout.write(f"{event.slug}: the MC's list written to {output}.")
