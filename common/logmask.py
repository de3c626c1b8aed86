"""Link tokens never reach a log (issue 18, item 4; issues 20 and 21).

A court link ``/court/<token>/…`` is the referee's credential: whoever reads it can enter
results for that court. A club's entry link ``/club/<token>/…`` lets its holder edit the club's
teams and players, and a reader link ``/reader/<token>/…`` starts readings for a court. Django's
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
LINK_TOKEN = re.compile(r"(/(?:court|club|reader)/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{16,}")


def mask_court_tokens(text: str) -> str:
    """``text`` with every ``/court/<token>``, ``/club/<token>`` and ``/reader/<token>`` shortened
    to ``/court/<first 4>…`` (and so on); other paths unchanged."""
    return LINK_TOKEN.sub(r"\1\2…", text)


class MaskCourtTokens(logging.Filter):
    """A logging filter (``LOGGING["filters"]``) that masks court tokens in every record's message.

    The message is formatted once here and its arguments dropped, so a handler never sees
    the token; records without a link path pass untouched. Never drops a record.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/court/" in message or "/club/" in message or "/reader/" in message:
            record.msg, record.args = mask_court_tokens(message), ()
        return True
