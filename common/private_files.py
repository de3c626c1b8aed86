"""Files only their owner may read: a series' key file (its secret), a results file (children's
names), a club's entry links (their tokens). Written 0600 from the first byte (issue 20,
acceptance findings item 7), whatever the umask. The SQLite database file too (it holds the
series' secret and children's names; issue 20 re-check item 7): on every new database connection
(at startup, after ``migrate`` created it, after a restore) it and its ``-wal``/``-shm`` files are
set to 0600 when they are not already (``on_connection``, connected in ``common.apps``); a
PostgreSQL or in-memory database is left alone."""

import os
import stat
from pathlib import Path

PRIVATE = 0o600


def write_private(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` readable and writable by its owner only (mode 0600).

    In: a path (str or Path), the bytes. Out: the Path. An existing file is truncated and its
    mode set to 0600 before the bytes go in; a device (``/dev/null``) keeps its mode. Raises ``OSError`` as ``open`` does."""
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # never the mode of a device such as /dev/null
            if hasattr(os, "fchmod"):
                os.fchmod(fd, PRIVATE)
            else:  # Windows before Python 3.13: no fchmod (its modes are only read-only or not)
                os.chmod(path, PRIVATE)
        with os.fdopen(fd, "wb") as out:
            fd = None
            out.write(data)
    finally:
        if fd is not None:
            os.close(fd)
    return path


def make_private_files(path) -> list[Path]:
    """Set ``path`` and its ``-wal``, ``-shm`` and ``-journal`` files (those that exist and are
    regular files) to mode 0600. Out: the files changed. Never raises: a file that cannot be
    changed (another owner) is left as it is."""
    changed = []
    for name in (str(path), f"{path}-wal", f"{path}-shm", f"{path}-journal"):
        try:
            mode = os.stat(name).st_mode
            if stat.S_ISREG(mode) and stat.S_IMODE(mode) != PRIVATE:
                os.chmod(name, PRIVATE)
                changed.append(Path(name))
        except OSError:
            continue
    return changed


def on_connection(sender, connection, **kwargs):
    """``connection_created`` receiver: a SQLite database on disk is made the owner's only."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return
    make_private_files(connection.settings_dict["NAME"])
