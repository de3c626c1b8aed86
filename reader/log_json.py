"""The JSON the reader reads: the reading page's log lines (issue 21, item 2; the outside
tester's findings, item 1).

Before ``json.loads`` sees a body it is checked against two limits, so a body nested
10,000 deep (Python's parser would recurse until ``RecursionError``) or of many megabytes is
refused with a sentence and status 400, never a 500. A log line is a flat record inside a list
inside an object, so :data:`MAX_DEPTH` leaves room and :data:`MAX_BYTES` holds
``reader.sessions.MAX_LINES`` lines several times over.
"""

import json

from django.utils.translation import gettext as _

from common.errors import UserError

#: The deepest nesting of ``[`` and ``{`` accepted (the log is 3 deep: object, list, line).
MAX_DEPTH = 8
#: The largest body accepted, in bytes (500 lines of ~150 bytes are ~75 kB).
MAX_BYTES = 256 * 1024


def too_large() -> UserError:
    """The refusal of a body over :data:`MAX_BYTES`."""
    return UserError(_("The log is too large: send at most %(kb)d kB at a time.") % {"kb": MAX_BYTES // 1024})


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in the JSON ``text`` (brackets inside
    strings do not count). Linear, no recursion; for any text, JSON or not."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_body(body: bytes):
    """The JSON value of a request's ``body`` (bytes; empty means ``{}``).

    Raises ``UserError`` with a sentence for a body over :data:`MAX_BYTES`, not UTF-8, nested
    deeper than :data:`MAX_DEPTH`, or not JSON. docs/rules/reader.md, "The log".
    """
    if len(body) > MAX_BYTES:
        raise too_large()
    try:
        text = (body or b"{}").decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(_("The log is not JSON.")) from error
    if nesting_depth(text) > MAX_DEPTH:
        raise UserError(_("The log is nested too deeply: a log line is a flat record."))
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise UserError(_("The log is not JSON.")) from error
