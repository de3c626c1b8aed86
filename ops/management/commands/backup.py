from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from ops import backups


class Command(BaseCommand):
    help = (
        "Back up the whole database while the server runs: SQLite through its online backup API, "
        "PostgreSQL with pg_dump. Default file: DATA_DIR/backups/karuta-<UTC time>-manual.<ext>."
    )

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", help="write the backup to this file instead")
        parser.add_argument(
            "--list", dest="list_only", action="store_true", help="list the backups, oldest first, and stop"
        )

    def handle(self, output=None, list_only=False, **options):
        if list_only:
            try:
                for path in backups.list_backups():
                    self.stdout.write(f"{path}  {path.stat().st_size:>12,} bytes")
            except OSError as e:  # the folder cannot be read: one sentence
                raise CommandError(backups.unreadable_message(backups.backup_dir(), e)) from None
            return
        try:
            path = backups.create_backup(output)
        except backups.BackupError as e:
            raise CommandError(str(e)) from None
        except DatabaseError as e:  # the database itself failed: one sentence, never a traceback
            raise CommandError(backups.database_message(e)) from None
        self.stdout.write(str(path))
