from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from ops import backups


class Command(BaseCommand):
    help = (
        "Replace the WHOLE database by a backup (from `manage.py backup` or the automatic ones). "
        "A backup of the current database is taken first. Stop the server before restoring."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file (.sqlite3 for SQLite, .pgdump for PostgreSQL)")
        parser.add_argument("--yes", action="store_true", help="really replace the database")
        parser.add_argument("--no-safety-backup", action="store_true", help="do not back up the current database first")

    def handle(self, file, yes=False, no_safety_backup=False, **options):
        try:
            backups.check_backup(file)
        except backups.BackupError as e:
            raise CommandError(str(e)) from None
        except DatabaseError as e:  # the database itself failed: one sentence, never a traceback
            raise CommandError(backups.database_message(e)) from None
        if not yes:
            raise CommandError(
                f"This replaces every tournament in the database by the contents of {file}. "
                "Stop the server, then run again with --yes."
            )
        try:
            safety = backups.restore_backup(file, safety_backup=not no_safety_backup)
        except backups.BackupError as e:
            raise CommandError(str(e)) from None
        except DatabaseError as e:  # the database itself failed: one sentence, never a traceback
            raise CommandError(backups.database_message(e)) from None
        if safety:
            self.stdout.write(f"The database before the restore was saved to {safety}")
        self.stdout.write(f"Restored {file}")
