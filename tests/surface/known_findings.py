"""Findings of the crawl that are known, each with its reason (issue 27).

An entry is (check, pattern name regex, detail regex, reason). A finding matching an entry
does not fail the crawl; every other finding does. ``test_known_findings_still_occur`` prints
the entries that match nothing any more, for the lead to remove.

The entries (the crawl is a ratchet: a finding of another check or another page fails):
- OPEN: found by the first full crawl (2026-12-02) in this branch's scope and not fixed yet;
  each says what it is. The lead narrows or removes them as they are fixed.
"""

OPEN = "open: found by the first crawl, not fixed yet"
LAYOUT = ("sideways-scroll", "clipped", "one-char-per-line", "button-cut", "out-of-column")

KNOWN = [
    (
        "language-en",
        r"^hanafuda:",
        r".",
        OPEN
        + ": the dekiyaku's and the card types' Japanese names beside the English by design"
        + " (hanafuda/labels.py: the players' own words); to mark lang=ja (issue 33, item 6)",
    ),
    *[
        (
            check,
            r"^dosai:edition$",
            r".",
            OPEN + ": the points' sources (dosai.engine.cards, e.g. TK2), the engine's English notes, in the"
            " values table's titles in both languages (issue 33, items 5 and 6)",
        )
        for check in ("language-ja", "language-en")
    ],
    (
        "language-ja",
        r"^reader:(link_read|manage_read|practice)$",
        r"^docs$",
        OPEN + ": the file path docs/rules/reader.md in the reader's explanation: developer text (issue 33, item 5)",
    ),
    (
        "language-en",
        r"^club_entry:links$",
        r".",
        OPEN + ": the change log's text is stored as written (club_entry.services.describe_change: grades as typed,"
        " 中1, in the language of the session that saved it); to be shaped when shown",
    ),
    # Django's own admin (the superuser's tool): its pages are Django's templates.
    *[
        (check, r"^admin:", r".", "Django's admin: Django's own templates")
        for check in (
            "axe",
            "html",
            "unnamed-control",
            "radio-group-unnamed",
            "symbol-name",
            "language-ja",
            "language-en",
            *LAYOUT,
        )
    ],
]
