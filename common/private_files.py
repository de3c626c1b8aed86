"""Files only their owner may read: a series' key file (its secret), a results file (children's
names), a club's entry links (their tokens). Written 0600 from the first byte (issue 20,
acceptance findings item 7), whatever the umask."""

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
            os.fchmod(fd, PRIVATE)
        with os.fdopen(fd, "wb") as out:
            fd = None
            out.write(data)
    finally:
        if fd is not None:
            os.close(fd)
    return path
