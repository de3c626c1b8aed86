from awards.ceremony import ceremony_pdf
from tournament.management.commands._base import EventCommand, get_event, in_site_language, write_output


class Command(EventCommand):
    help = "Write the MC's list of the awards ceremony (表彰式の読み上げ, names with furigana) to a PDF."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, event, output, **options):
        event = get_event(event)
        with in_site_language():
            data = ceremony_pdf(event)
        write_output(output, data)
        self.stdout.write(f"{event.slug}: the MC's list written to {output}.")
