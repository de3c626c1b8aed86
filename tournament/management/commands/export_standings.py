from tournament.exports import event_workbook
from tournament.management.commands._base import EventCommand, get_event, in_site_language, write_output


class Command(EventCommand):
    help = "Write the final ranking, the standings (one sheet per group) and all games to an Excel file."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("-o", "--output", required=True)

    def handle(self, event, output, **options):
        event = get_event(event)
        with in_site_language():
            data = event_workbook(event)
        write_output(output, data)
        self.stdout.write(f"{event.slug}: standings and results written to {output}.")
