"""JSON read from outside, with bounds on size and nesting depth.

Everything parsed from a file or a request that a person (or a tablet) sent comes through
``loads``: a text nested 10,000 deep made ``json.loads`` raise ``RecursionError`` (a 500), and a
huge one would be read whole. The size is checked before decoding and the nesting is measured on
the text before parsing (``nesting_depth``: linear, no recursion, brackets inside strings do not
count); the parser's own ``RecursionError`` is caught too. With ``clean`` every text of what was
parsed (keys and values) is then checked in one place (``clean_texts``): a lone surrogate
(``"\\ud800"``, which no page, PDF or terminal can encode), a control character, or a text
longer than any field of ours is refused naming where it is.

Used by the results exchange (series/exchange/signing.py; docs/exchange.md, "Refusals"), the
reader's log lines (reader/log_json.py; docs/rules/reader.md, "The log") and the club games'
hidden list of draws (hanafuda/forms.py). Pure: no Django; the limits are ``common.limits``.
"""

from __future__ import annotations

import json
import unicodedata

from common import limits

# No text field of a results or key file is near this long (names ≤ 120, ids ≤ 64): the one
# table of input limits, common.limits.
MAX_TEXT = limits.JSON_TEXT_CHARS
# Control characters refused in any text; a tab or a line break is kept (a venue on two lines).
_ALLOWED_CONTROLS = frozenset("\t\n")


class TooBig(ValueError):
    """The text is longer or nested deeper than allowed, or is not UTF-8 JSON (one of the three
    subclasses below says which)."""


class TooLarge(TooBig):
    """More bytes than allowed."""


class TooDeep(TooBig):
    """Arrays and objects nested deeper than allowed."""


class NotJson(TooBig):
    """Not UTF-8, or not JSON."""


class BadText(ValueError):
    """A text in the JSON has a lone surrogate or a control character, or is too long;
    ``where`` names it (its keys and list positions, e.g. ``divisions/0/teams/2/name``)."""

    def __init__(self, where: str):
        super().__init__(where)
        self.where = where


def _bad(text: str, max_chars: int) -> bool:
    if len(text) > max_chars:
        return True
    return any(
        unicodedata.category(c) in ("Cs", "Cc") and c not in _ALLOWED_CONTROLS for c in text if not c.isprintable()
    )


def clean_texts(value, max_chars: int = MAX_TEXT) -> None:
    """Raise ``BadText`` naming the first text (a key or a value, at any depth) of ``value``
    with a lone surrogate, a control character other than tab or line break, or more than
    ``max_chars`` characters. Iterative; linear in the number of items and characters."""
    stack = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _bad(item, max_chars):
                raise BadText(where or "text")
        elif isinstance(item, dict):
            for key, child in item.items():
                place = f"{where}/{key}" if where else str(key)
                if _bad(key, max_chars):
                    raise BadText(where or "key")
                stack.append((child, place))
        elif isinstance(item, list):
            stack.extend((child, f"{where}/{i}" if where else str(i)) for i, child in enumerate(item))


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


def depth(value) -> int:
    """How deep lists and dicts nest in ``value`` (0 for a scalar, 1 for a flat list or dict).
    Iterative: any depth is measured without recursion; linear in the number of items."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return deepest


def loads(data: bytes, *, max_bytes: int, max_depth: int, clean: bool = True):
    """``data`` (UTF-8 JSON) parsed.

    In: the bytes, the most bytes and the deepest nesting allowed; ``clean``: check every text
    (``clean_texts``). Out: the parsed value. Raises ``TooLarge`` for more than ``max_bytes``,
    ``NotJson`` for a text not UTF-8 or not JSON, ``TooDeep`` for nesting deeper than
    ``max_depth`` (all ``TooBig``, a ``ValueError``); never ``RecursionError``. With ``clean``,
    raises ``BadText`` for a string with a lone surrogate, a control character or too long."""
    if len(data) > max_bytes:
        raise TooLarge(f"longer than {max_bytes} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotJson("UnicodeDecodeError") from None
    if nesting_depth(text) > max_depth:
        raise TooDeep(f"nested deeper than {max_depth}")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise NotJson(type(error).__name__) from None
    if clean:
        clean_texts(value)
    return value
