"""Django's PostgreSQL backend (psycopg 3), with a health check that asks the server only when
the connection's socket says something happened, and joins planned in the order Django writes
them.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` before the first query of every request
that reuses a kept connection. Under a full hall's polls (``bench/load.py --shape day``) that
round trip was a third of the public pages' time in the server workers (py-spy; issue 31,
item 3): each one waits for the PostgreSQL process to be scheduled on the same cores.

A kept connection between two requests is idle: the server sends nothing on it unless it is
going away (a restart, ``pg_terminate_backend``, an idle timeout: an error message, then the
end of the stream) or it has news (``NOTIFY``, a changed setting). So :meth:`is_usable` looks
first, without waiting, at what libpq and the socket know: a connection libpq already knows
broken or closed is not usable; a socket with nothing to read is usable; a socket with
something to read gets Django's ``SELECT 1``, which reads it and says whether the connection
still answers. A link that died silently (a cable pulled) looks the same to both checks: the
next query fails, and Django closes the connection at the end of that request.

A game's page, the hall's ticker and most lists read a game with its division, group, court
and three teams: eight tables joined. PostgreSQL searched every order of them each time,
38 ms of planning for 1 ms of execution (the ticker; ``EXPLAIN ANALYZE``, 500 games), so every
connection is set up with ``join_collapse_limit = 1``: the joins in the order Django writes
them, the filtered table first and each related row by its key, PostgreSQL still choosing
how to join each pair (1.6 ms of planning). The tables of an event are small (a few
thousand rows at most), so no order is far from the best.
"""

import select

from django.db.backends.postgresql import base

#: Sent once on every new connection (and on every connection a pool opens).
SESSION_SETTINGS = "SET join_collapse_limit = 1"


class DatabaseWrapper(base.DatabaseWrapper):
    def _configure_connection(self, connection):
        """Django's set-up of a new connection (time zone, role), then ``SESSION_SETTINGS``;
        ``True``: Django commits it when the connection is not in autocommit."""
        super()._configure_connection(connection)
        with connection.cursor() as cursor:
            cursor.execute(SESSION_SETTINGS)
        return True

    def is_usable(self):
        """``True`` when the kept connection can take the next query (see the module text):
        ``bool``; never raises."""
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            quiet = not _readable(connection.fileno())
        except base.Database.Error:  # no socket: libpq has closed it
            return False
        except (OSError, ValueError):  # the socket cannot be watched here: ask the server
            quiet = False
        return quiet or super().is_usable()


def _readable(fd):
    """Whether the socket ``fd`` has something to read (or its end) now, without waiting:
    ``poll`` where the system has it (any descriptor number), ``select`` on Windows."""
    if hasattr(select, "poll"):
        watch = select.poll()
        watch.register(fd, select.POLLIN | select.POLLPRI)
        return bool(watch.poll(0))
    return bool(select.select([fd], [], [], 0)[0])
