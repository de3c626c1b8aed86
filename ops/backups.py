"""Backups of the whole database: by hand, automatically before big steps, and restore.

SQLite (the venue): SQLite's online backup API copies a consistent snapshot while the
server keeps running (readers and the writer go on; WAL is kept). PostgreSQL: ``pg_dump``
in its custom format, restored with ``pg_restore --clean`` in one transaction.

Files go to ``DATA_DIR/backups`` (or ``KARUTA_BACKUP_DIR``), named
``karuta-<UTC timestamp>-<reason>.sqlite3`` (or ``.pgdump``), written under a temporary
name and renamed, so a half-written file never looks like a backup. Automatic backups
(before ``make_schedule``, ``seed_knockout`` and an entry import) are pruned to the
newest ``KARUTA_BACKUP_KEEP`` (20); backups taken by hand are never pruned.

A backup holds every tournament, every account's password hash and the open sessions (the
expired ones are dropped from the copy: ``_drop_expired_sessions``), so only a superuser may
download one (``ops.views``).
"""

from __future__ import annotations

import datetime
import errno
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connections
from django.utils.translation import gettext as _

from common.private_files import write_private
from ops import sessions

logger = logging.getLogger("tournament.backups")

AUTO_PREFIX = "auto-"
NAME = re.compile(r"^karuta-(\d{8}-\d{6}-\d{6})-([a-z0-9_-]+)\.(sqlite3|pgdump)$")


class BackupError(Exception):
    """A backup or restore could not be done; the message says why."""


def is_disk_full(error) -> bool:
    """Whether ``error`` means the disk is full: ``OSError`` ENOSPC (or EDQUOT, a quota), or
    SQLite's "database or disk is full" while writing a copy."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return isinstance(error, sqlite3.Error) and "disk is full" in str(error).lower()


def disk_full_message(directory) -> str:
    """What to tell a person when the disk is full while writing to ``directory``."""
    return _(
        "The disk is full: nothing could be written to %(directory)s. Nothing was changed. Free some space "
        "(old backups in that folder, or other files), then try again."
    ) % {"directory": directory}


def damaged_message(path) -> str:
    """What to tell a person about a backup file that is cut short or damaged."""
    return _(
        "%(path)s is damaged (cut short or overwritten, for example copied to a full USB stick): it cannot be "
        "restored. Nothing was changed. Choose another backup (manage.py backup --list)."
    ) % {"path": path}


def unreadable_message(path, error) -> str:
    """What to tell a person about a backup file that cannot be opened at all (no permission,
    a name the system cannot read)."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
    return _("%(path)s cannot be read (%(reason)s). Nothing was changed.") % {"path": path, "reason": reason}


def database_message(error) -> str:
    """What to tell a person when this installation's own database fails during a backup or a
    restore (it is locked, missing or unreadable); a full disk is said as such."""
    if is_disk_full(error) or "disk is full" in str(error).lower():
        return _(
            "The disk is full: the database could not be written. Nothing was changed. Free some space "
            "(old backups, other files), then try again."
        )
    return _(
        "The tournament database could not be opened (%(reason)s). Nothing was changed. Check that the "
        "server's data folder is there and readable, then try again."
    ) % {"reason": str(error).strip().splitlines()[0][:200] if str(error).strip() else type(error).__name__}


def _ro_uri(path: Path) -> str:
    """The SQLite URI that opens ``path`` read-only, whatever its name holds (``#``, ``?``,
    spaces: percent-encoded)."""
    return Path(path).resolve().as_uri() + "?mode=ro"


def backup_dir() -> Path:
    return Path(getattr(settings, "BACKUP_DIR", None) or Path(settings.DATA_DIR) / "backups")


def _vendor(using="default"):
    return connections[using].vendor


def _extension(using="default"):
    vendor = _vendor(using)
    if vendor == "sqlite":
        return "sqlite3"
    if vendor == "postgresql":
        return "pgdump"
    raise BackupError(f"backups of a {vendor} database are not supported")


def _slug(reason):
    return re.sub(r"[^a-z0-9_-]+", "-", reason.lower()).strip("-") or "manual"


def new_backup_path(reason="manual", using="default") -> Path:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S-%f")
    return backup_dir() / f"karuta-{stamp}-{_slug(reason)}.{_extension(using)}"


def list_backups(*, automatic=None) -> list[Path]:
    """Backup files, oldest first (by the timestamp in the name); ``automatic`` filters."""
    directory = backup_dir()
    if not directory.is_dir():
        return []
    found = []
    for path in directory.iterdir():
        match = NAME.match(path.name)
        if not match or not path.is_file():
            continue
        if automatic is not None and match.group(2).startswith(AUTO_PREFIX) != automatic:
            continue
        found.append((match.group(1), path.name, path))
    return [path for _stamp, _name, path in sorted(found)]


def latest_backup() -> Path | None:
    backups = list_backups()
    return backups[-1] if backups else None


# --- Backup ----------------------------------------------------------------------------


def create_backup(output=None, *, reason="manual", using="default") -> Path:
    """Write a consistent copy of the whole database to ``output`` (or a new file); return its path."""
    target = Path(output) if output else new_backup_path(reason, using)
    partial = target.with_name(f".{target.name}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_backup(partial, using)
        os.replace(partial, target)
    except DatabaseError as error:
        # Django's own connection could not be opened (a full disk, a locked or missing file;
        # issue 28, item 6): a sentence, never a traceback.
        raise BackupError(database_message(error)) from None
    except (OSError, sqlite3.Error) as error:
        # A full disk (issue 18, item 5) or another write fault: a sentence, never a traceback;
        # the half-written copy goes below.
        if is_disk_full(error):
            raise BackupError(disk_full_message(target.parent)) from None
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise BackupError(
            _("The backup could not be written to %(path)s: %(reason)s") % {"path": target, "reason": reason}
        ) from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def _write_backup(target: Path, using):
    """Write the copy of the database ``using`` to ``target``: SQLite's online backup, or
    ``pg_dump``. Raises ``OSError`` (ENOSPC when the disk is full), ``sqlite3.Error`` or
    ``BackupError``. The copy is the owner's only (mode 0600 from its first byte: it holds the
    series' secret and children's names; issue 20, re-check item 7)."""
    write_private(target, b"")
    if _vendor(using) == "sqlite":
        _sqlite_backup(target, using)
        _drop_expired_sessions(target)
    elif _vendor(using) == "postgresql":
        if not connections[using].in_atomic_block:
            _clear_live_sessions()
        _pg_dump(target, using)
    else:
        raise BackupError(f"backups of a {_vendor(using)} database are not supported")


def _drop_expired_sessions(target: Path) -> None:
    """Delete the expired sessions from the SQLite copy ``target`` (issue 28, item 2: every
    backup copied them), their bytes overwritten (``secure_delete``). Raises ``sqlite3.Error``
    (a full disk), said in a sentence by the caller."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    copy = sqlite3.connect(str(target))
    try:
        tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "django_session" in tables:
            copy.execute("PRAGMA secure_delete = ON")
            with copy:
                copy.execute("DELETE FROM django_session WHERE expire_date < ?", (now,))
    finally:
        copy.close()


def _clear_live_sessions() -> None:
    """PostgreSQL: pg_dump copies whole tables, so the expired sessions are deleted from the
    database first; a failure only leaves them in the copy."""
    try:
        sessions.clear_expired()
    except Exception as error:
        logger.warning("expired sessions not cleared before the backup: %s", error)


BACKUP_DEADLINE = 60  # seconds a backup may wait for the database before giving up


def _copy(source, destination):
    """source.backup(destination) in one step (one consistent snapshot), never waiting forever.

    Python retries a busy step without end; the progress callback, called after every
    step, stops it at the deadline.
    """
    deadline = time.monotonic() + BACKUP_DEADLINE

    def progress(status, remaining, total):
        if time.monotonic() > deadline:
            raise BackupError("the database stayed busy; try the backup again")

    source.backup(destination, progress=progress)


def _sqlite_backup(target: Path, using):
    connection = connections[using]
    destination = sqlite3.connect(str(target))
    try:
        if not connection.in_atomic_block:
            # Through Django's own connection: it sees an in-memory test database too.
            connection.ensure_connection()
            _copy(connection.connection, destination)
        elif not connection.is_in_memory_db():
            # Inside a transaction SQLite cannot back up through the connection that holds
            # the write lock (it answers "busy" for ever): a second connection copies the
            # committed state (WAL lets it read beside the writer).
            source = sqlite3.connect(_ro_uri(connection.settings_dict["NAME"]), uri=True)
            try:
                _copy(source, destination)
            finally:
                source.close()
        else:
            raise BackupError("an in-memory database cannot be backed up from inside a transaction")
    finally:
        destination.close()


def _pg_env(settings_dict):
    env = dict(os.environ)
    for key, var in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
        if settings_dict.get(key):
            env[var] = str(settings_dict[key])
    env["PGDATABASE"] = settings_dict["NAME"]
    return env


def _run(command, env):
    if shutil.which(command[0]) is None:
        raise BackupError(f"{command[0]} is not installed (Debian: apt-get install postgresql-client)")
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        if "No space left on device" in result.stderr:
            raise OSError(errno.ENOSPC, "No space left on device")  # said in a sentence by the caller
        raise BackupError(f"{command[0]} failed: {result.stderr.strip()[-2000:]}")
    return result


def _pg_dump(target: Path, using):
    connection = connections[using]
    _run(
        ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", str(target)],
        _pg_env(connection.settings_dict),
    )


# --- Automatic backups -----------------------------------------------------------------


def auto_backup(reason: str, *, skip=False, using="default") -> Path | None:
    """Back up before a big step (make_schedule, seed_knockout, an import); keep the newest few.

    Never stops the step it protects: a failed backup is logged as an error and None
    returned. ``skip`` (a dry run) and ``KARUTA_AUTO_BACKUP=0`` take none.
    """
    if skip or not getattr(settings, "AUTO_BACKUP", True):
        return None
    if connections[using].in_atomic_block:
        # Called from inside a larger transaction (a script, a test): its own changes
        # could not be in the copy, and the step is one part of a bigger operation whose
        # caller decides about backups. The views and commands call these steps outside
        # any transaction.
        logger.debug("no automatic backup before %s: inside a transaction", reason)
        return None
    try:
        path = create_backup(reason=AUTO_PREFIX + reason, using=using)
    except BackupError as error:
        logger.error("automatic backup before %s failed: %s", reason, error)
        return None
    except Exception:
        logger.exception("automatic backup before %s failed", reason)
        return None
    prune(getattr(settings, "BACKUP_KEEP", 20))
    logger.info("backup before %s: %s", reason, path)
    return path


def prune(keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` automatic backups; return the deleted paths."""
    automatic = list_backups(automatic=True)
    doomed = automatic[: max(0, len(automatic) - keep)]
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


# --- Restore ---------------------------------------------------------------------------


def check_backup(path: Path, using="default"):
    """Refuse a file that is not a backup of this kind of database: ``BackupError`` with one
    sentence (missing, unreadable, not SQLite, damaged, not this application's), never another
    exception (issue 28, item 6)."""
    path = Path(path)
    try:
        if not path.is_file():
            raise BackupError(f"{path} does not exist")
        with path.open("rb") as f:
            head = f.read(16)
    except (OSError, ValueError) as error:  # no permission; a name with a NUL byte
        raise BackupError(unreadable_message(path, error)) from None
    vendor = _vendor(using)
    if vendor == "sqlite":
        if head != b"SQLite format 3\x00":
            raise BackupError(f"{path} is not an SQLite database")
        ok, tables = _sqlite_check(path)
        if ok != "ok":
            raise BackupError(damaged_message(path))
        if "django_migrations" not in tables or "tournament_event" not in tables:
            raise BackupError(f"{path} is not a backup of this application")
    elif vendor == "postgresql":
        if not head.startswith(b"PGDMP"):
            raise BackupError(f"{path} is not a pg_dump custom-format file")
    else:
        raise BackupError(f"restoring a {vendor} database is not supported")


def _sqlite_check(path: Path):
    """``(quick_check's answer, table names)`` of an SQLite file; a file SQLite cannot read
    (truncated: "database disk image is malformed") is refused as damaged."""
    try:
        source = sqlite3.connect(_ro_uri(path), uri=True)
        try:
            ok = source.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in source.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            source.close()
        if ok == "ok" and path.stat().st_size < _expected_size(path):
            ok = "shorter than its header says"
    except (sqlite3.Error, UnicodeError, TypeError, OSError):
        # unreadable pages, a name or a schema that is not text: damaged, in a sentence
        raise BackupError(damaged_message(path)) from None
    return ok, tables


def _expected_size(path: Path) -> int:
    """The size in bytes an SQLite file's header promises: page size (bytes 16–17; 1 means
    65536) times the page count (bytes 28–31, 0 when the header does not say)."""
    with path.open("rb") as f:
        header = f.read(32)
    size = int.from_bytes(header[16:18], "big")
    return (65536 if size == 1 else size) * int.from_bytes(header[28:32], "big")


def restore_backup(path, *, using="default", safety_backup=True) -> Path | None:
    """Replace the whole database by the backup at ``path``; return the safety backup taken first.

    Stop the server first (or expect its workers to see the restored data at once).
    """
    path = Path(path)
    check_backup(path, using)
    safety = create_backup(reason="before-restore", using=using) if safety_backup else None
    connection = connections[using]
    if connection.in_atomic_block:
        raise BackupError("cannot restore inside a transaction")
    if _vendor(using) == "sqlite":
        try:
            connection.ensure_connection()
        except DatabaseError as error:
            raise BackupError(database_message(error)) from None
        try:
            source = sqlite3.connect(_ro_uri(path), uri=True)
        except sqlite3.Error:
            raise BackupError(damaged_message(path)) from None
        try:
            source.backup(connection.connection)
        except sqlite3.DatabaseError as error:
            raise BackupError(
                disk_full_message(path.parent) if is_disk_full(error) else damaged_message(path)
            ) from None
        finally:
            source.close()
    else:
        connection.close()
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--dbname",
                connection.settings_dict["NAME"],
                str(path),
            ],
            _pg_env(connection.settings_dict),
        )
    return safety
