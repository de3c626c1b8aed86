"""Court tokens never reach a log (issue 18, item 4).

A court link ``/court/<token>/…`` is the referee's credential: whoever reads it can enter
results for that court. Django's warnings ("Not Found: /court/…"), the error log and
gunicorn's access log (the request line and the Referer) would keep it in files that
are copied with the laptop. ``mask_court_tokens`` keeps the first 4 characters (enough to
tell the courts apart when reading a log) and replaces the rest.
"""

from __future__ import annotations

import logging
import re

COURT_TOKEN = re.compile(r"(/court/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]+")


def mask_court_tokens(text: str) -> str:
    """``text`` with every ``/court/<token>`` shortened to ``/court/<first 4>…``."""
    return COURT_TOKEN.sub(r"\1\2…", text)


class MaskCourtTokens(logging.Filter):
    """A logging filter (``LOGGING["filters"]``) that masks court tokens in every record's message.

    The message is formatted once here and its arguments dropped, so a handler never sees
    the token; records without "/court/" pass untouched. Never drops a record.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/court/" in message:
            record.msg, record.args = mask_court_tokens(message), ()
        return True
