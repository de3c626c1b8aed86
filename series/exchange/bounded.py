"""JSON read with bounds on size and nesting depth.

Everything the exchange parses from outside (a results file's header line, its contents, a
series' key file) comes through ``loads``: a file nested 10,000 deep made ``json.loads`` raise
``RecursionError`` (a 500) even under a valid signature, and a huge one would be read whole.
The size is checked before parsing; the parser's own recursion guard stops a deep text early
(``RecursionError``, caught), and the depth of what was parsed is measured without recursion.
docs/exchange.md, "Refusals".
"""

from __future__ import annotations

import json


class TooBig(ValueError):
    """The text is longer or nested deeper than allowed, or is not UTF-8 JSON."""


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
    not UTF-8 or not JSON; never ``RecursionError``."""
    if len(data) > max_bytes:
        raise TooBig(f"longer than {max_bytes} bytes")
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise TooBig(type(error).__name__) from None
    if depth(value) > max_depth:
        raise TooBig(f"nested deeper than {max_depth}")
    return value
