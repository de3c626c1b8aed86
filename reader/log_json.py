"""The JSON the reader reads: the reading page's log lines (issue 21, item 2; the outside
tester's findings, item 1).

Before ``json.loads`` sees a body it is checked against two limits, so a body nested
10,000 deep (Python's parser would recurse until ``RecursionError``) or of many megabytes is
refused with a sentence and status 400, never a 500. A log line is a flat record inside a list
inside an object, so :data:`MAX_DEPTH` leaves room and :data:`MAX_BYTES` holds
``reader.sessions.MAX_LINES`` lines several times over.
"""

from django.utils.translation import gettext as _

from common import bounded_json, limits
from common.errors import UserError

#: The deepest nesting of ``[`` and ``{`` accepted (the log is 3 deep: object, list, line).
MAX_DEPTH = limits.READER_LOG_DEPTH
#: The largest body accepted, in bytes (500 lines of ~150 bytes are ~75 kB).
MAX_BYTES = limits.READER_LOG_BYTES


def too_large() -> UserError:
    """The refusal of a body over :data:`MAX_BYTES`."""
    return UserError(_("The log is too large: send at most %(kb)d kB at a time.") % {"kb": MAX_BYTES // 1024})


def parse_body(body: bytes):
    """The JSON value of a request's ``body`` (bytes; empty means ``{}``), read through
    ``common.bounded_json``.

    Raises ``UserError`` with a sentence for a body over :data:`MAX_BYTES`, not UTF-8, nested
    deeper than :data:`MAX_DEPTH`, or not JSON. docs/rules/reader.md, "The log".
    """
    try:
        return bounded_json.loads(body or b"{}", max_bytes=MAX_BYTES, max_depth=MAX_DEPTH, clean=False)
    except bounded_json.TooLarge:
        raise too_large() from None
    except bounded_json.TooDeep:
        raise UserError(_("The log is nested too deeply: a log line is a flat record.")) from None
    except bounded_json.NotJson as error:
        raise UserError(_("The log is not JSON.")) from error
