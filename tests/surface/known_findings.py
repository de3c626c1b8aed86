"""Findings of the crawl that are known, each with its reason (issue 27).

An entry is (check, pattern name regex, detail regex, reason). A finding matching an entry
does not fail the crawl; every other finding does. ``test_known_findings_still_occur`` prints
the entries that match nothing any more, for the lead to remove.

Two kinds of entries:
- LANG_34: PDFs without /Lang, issue 34;
- OPEN: found by the first full crawl (2026-12-02) in this branch's scope and not fixed yet;
  each says what it is. The lead narrows or removes them as they are fixed.
"""

LANG_34 = "PDFs without /Lang: issue 34"
OPEN = "open: found by the first crawl, not fixed yet"
LAYOUT = ("sideways-scroll", "clipped", "one-char-per-line", "button-cut", "out-of-column")

KNOWN = [
    (
        "language-ja",
        r".",
        r".",
        OPEN + ": English words on Japanese pages; the heuristic's allowlist needs tuning first",
    ),
    ("pdf", r".", r"/Lang", LANG_34),
    (
        "pdf",
        r"^hanafuda:",
        r"font not embedded: Helvetica",
        OPEN + ": hanafuda PDFs use reportlab's Helvetica unembedded",
    ),
    ("xlsx", r".", r"as text", OPEN + ": workbook cells of numbers stored as text (results 全試合!E, Dôsai B20)"),
    (
        "console",
        r"^tournament:division_display$",
        r"404",
        OPEN + ": the division screen requests an address that answers 404",
    ),
    ("html", r"^dosai:edition_new$", r"No “p” element in scope", OPEN + ": a stray </p> in the new edition form"),
    (
        "html",
        r"^hanafuda:round_(entry|detail)$",
        r"hidden.*aria",
        "fixed in this branch (hanafuda grid); the first crawl predates it",
    ),
    ("axe", r"^dosai:hand$", r"color-contrast", OPEN + ": small proverb marks on the Dôsai hand page below 4.5:1"),
    (
        "unnamed-control",
        r"^(hanafuda|dosai):",
        r".",
        OPEN + ": the club games' grids and new-session forms (radio cards, player inputs)",
    ),
    (
        "unnamed-control",
        r"^judging:(match_detail|court_entry)$",
        r".",
        OPEN + ": desk re-typing inputs, reason and icon buttons",
    ),
    ("radio-group-unnamed", r"^(hanafuda|dosai):", r".", OPEN + ": radio groups of the club games' forms"),
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
