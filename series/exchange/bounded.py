"""JSON read with bounds on size and nesting depth.

Everything the exchange parses from outside (a results file's header line, its contents, a
series' key file) comes through ``loads``: a file nested 10,000 deep made ``json.loads`` raise
``RecursionError`` (a 500) even under a valid signature, and a huge one would be read whole.
The size is checked before parsing; the parser's own recursion guard stops a deep text early
(``RecursionError``, caught), and the depth of what was parsed is measured without recursion.
Every text in what was parsed (keys and values) is then checked in one place (``clean_texts``):
a lone surrogate (``"\\ud800"``, which no page, PDF or terminal can encode), a control
character, or a text longer than any field of ours is refused naming where it is.
docs/exchange.md, "Refusals".
"""

from __future__ import annotations

import json
import unicodedata

# No text field of a results or key file is near this long (names ≤ 120, ids ≤ 64).
MAX_TEXT = 1000
# Control characters refused in any text; a tab or a line break is kept (a venue on two lines).
_ALLOWED_CONTROLS = frozenset("\t\n")


class TooBig(ValueError):
    """The text is longer or nested deeper than allowed, or is not UTF-8 JSON."""


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


def loads(data: bytes, *, max_bytes: int, max_depth: int):
    """``data`` (UTF-8 JSON) parsed, or ``TooBig`` (a ``ValueError``).

    In: the bytes, the most bytes and the deepest nesting allowed. Out: the parsed value.
    Raises ``TooBig`` for a text longer than ``max_bytes``, nested deeper than ``max_depth``,
    not UTF-8 or not JSON; never ``RecursionError``. Raises ``BadText`` (``clean_texts``)
    for a string with a lone surrogate, a control character or too long."""
    if len(data) > max_bytes:
        raise TooBig(f"longer than {max_bytes} bytes")
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise TooBig(type(error).__name__) from None
    if depth(value) > max_depth:
        raise TooBig(f"nested deeper than {max_depth}")
    clean_texts(value)
    return value
