"""Link tokens never reach a log (issue 18, item 4; issues 20 and 21).

A court link ``/court/<token>/…`` is the referee's credential: whoever reads it can enter
results for that court. A club's entry link ``/club/<token>/…`` lets its holder edit the club's
teams and players, and a reader link ``/reader/<token>/…`` starts readings for a court; the
problems download of an uploaded entry sheet ``/manage/<event>/teams/import/<token>/…`` names
the kept upload. Django's
warnings ("Not Found: /court/…"), the error log and gunicorn's access log (the request line and
the Referer) would keep them in files that are copied with the laptop. ``mask_court_tokens``
keeps the first 4 characters of each token (enough to tell the links apart when reading a log)
and replaces the rest. Only a token's length is masked (tokens are 32 characters): public paths
such as ``/e/<event>/court/12/``, ``/reader/practice/`` or ``/reader/decks/`` stay whole.
"""

from __future__ import annotations

import logging
import re

# A token is at least 20 URL-safe characters (``new_court_token`` makes 32): shorter path parts
# after /court/, /club/ or /reader/ are pages, not credentials.
LINK_TOKEN = re.compile(r"(/(?:court|club|reader|teams/import)/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{16,}")


def mask_court_tokens(text: str) -> str:
    """``text`` with every ``/court/<token>``, ``/club/<token>``, ``/reader/<token>`` and an entry
    sheet's kept upload ``/teams/import/<token>`` (its problems download, issue 28) shortened to
    ``/court/<first 4>…`` (and so on); other paths unchanged."""
    return LINK_TOKEN.sub(r"\1\2…", text)


class MaskCourtTokens(logging.Filter):
    """A logging filter (``LOGGING["filters"]``) that masks court tokens in every record's message.

    The message is formatted once here and its arguments dropped, so a handler never sees
    the token; records without a link path pass untouched. Never drops a record.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(area in message for area in ("/court/", "/club/", "/reader/", "/teams/import/")):
            record.msg, record.args = mask_court_tokens(message), ()
        return True
