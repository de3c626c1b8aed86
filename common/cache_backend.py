"""The embedded page cache's backend: diskcache's Django cache, kept open across requests.

``config/settings.py`` uses it when no Redis is configured (``CACHES``; the page cache's rules
are ``common/page_cache.py``'s). Django closes every cache at the end of each request
(``request_finished`` → ``close_caches``); diskcache's ``close`` drops the thread's SQLite
connections, so every request opened them again and read the cache's settings table: under
the day shape's polls (issue 31, item 3) an eighth of the server's time (py-spy). The
connections are per thread (and per process: diskcache reopens them after a fork), so they
stay open for the worker thread's life.
"""

from diskcache import DjangoCache


class KeptOpenDiskCache(DjangoCache):
    """``diskcache.DjangoCache`` whose ``close`` (called after every request) keeps the thread's
    connections; ``close_connections`` closes them (tests, a worker shutting down)."""

    def close(self, **kwargs):
        """Called by Django after each request: nothing to do (the connections are kept)."""

    def close_connections(self):
        """Close this thread's SQLite connections to the cache's shards."""
        super().close()
