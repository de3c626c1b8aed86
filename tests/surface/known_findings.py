"""Findings of the crawl that are known, each with its reason (issue 27).

An entry is (check, pattern name regex, detail regex, reason). A finding matching an entry
does not fail the crawl; every other finding does. ``test_known_findings_still_occur`` prints
the entries that match nothing any more, for the lead to remove.

Three kinds of entries (the crawl is a ratchet: a finding of another check or another page fails):
- CRAWL_1202: each (check, page) the crawl of the merged build found on 2026-12-02, listed by
  the lead so that a new kind of finding on any page fails; each is to fix and remove;
- LANG_34: PDFs without /Lang, issue 34;
- OPEN: found by the first full crawl (2026-12-02) in this branch's scope and not fixed yet;
  each says what it is. The lead narrows or removes them as they are fixed.
"""

LANG_34 = "PDFs without /Lang: issue 34"
OPEN = "open: found by the first crawl, not fixed yet"
CRAWL_1202 = "open: found by the crawl of the merged build (2026-12-02), not fixed yet (issue 27)"
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
    ("axe", r"^dosai:hand$", r".", CRAWL_1202),
    ("button-cut", r"^judging:confirm_queue$", r".", CRAWL_1202),
    ("button-cut", r"^reader:deck_detail$", r".", CRAWL_1202),
    ("button-cut", r"^tournament:event_detail$", r".", CRAWL_1202),
    ("clipped", r"^dosai:hand$", r".", CRAWL_1202),
    ("clipped", r"^hanafuda:round_entry$", r".", CRAWL_1202),
    ("clipped", r"^tournament:court_display$", r".", CRAWL_1202),
    ("clipped", r"^tournament:courts_display$", r".", CRAWL_1202),
    ("clipped", r"^tournament:display_rotation$", r".", CRAWL_1202),
    ("clipped", r"^tournament:division_display$", r".", CRAWL_1202),
    ("clipped", r"^tournament:podium_display$", r".", CRAWL_1202),
    ("console", r"^tournament:division_display$", r".", CRAWL_1202),
    ("html", r"^dosai:edition_new$", r".", CRAWL_1202),
    ("http", r"^tournament:event_visibility$", r".", CRAWL_1202),
    ("one-char-per-line", r"^reader:deck_detail$", r".", CRAWL_1202),
    ("out-of-column", r"^awards:mc_list$", r".", CRAWL_1202),
    ("out-of-column", r"^club_entry:links$", r".", CRAWL_1202),
    ("out-of-column", r"^dosai:hand$", r".", CRAWL_1202),
    ("out-of-column", r"^judging:confirm_queue$", r".", CRAWL_1202),
    ("out-of-column", r"^judging:court_dispute$", r".", CRAWL_1202),
    ("out-of-column", r"^judging:court_rules$", r".", CRAWL_1202),
    ("out-of-column", r"^judging:court_saved$", r".", CRAWL_1202),
    ("out-of-column", r"^judging:organiser_dispute$", r".", CRAWL_1202),
    ("out-of-column", r"^reader:deck_detail$", r".", CRAWL_1202),
    ("out-of-column", r"^reader:link_home$", r".", CRAWL_1202),
    ("out-of-column", r"^tournament:division_add$", r".", CRAWL_1202),
    ("out-of-column", r"^tournament:division_edit$", r".", CRAWL_1202),
    ("out-of-column", r"^tournament:event_detail$", r".", CRAWL_1202),
    ("out-of-column", r"^tournament:schedule_checks$", r".", CRAWL_1202),
    ("out-of-column", r"^tournament:team_add$", r".", CRAWL_1202),
    ("out-of-column", r"^tournament:team_edit$", r".", CRAWL_1202),
    ("pdf", r"^dosai:points_table$", r".", CRAWL_1202),
    ("pdf", r"^hanafuda:reference_card$", r".", CRAWL_1202),
    ("pdf", r"^hanafuda:reference_card_default$", r".", CRAWL_1202),
    ("pdf", r"^hanafuda:score_sheet$", r".", CRAWL_1202),
    ("radio-group-unnamed", r"^dosai:edition_new$", r".", CRAWL_1202),
    ("radio-group-unnamed", r"^dosai:session_new$", r".", CRAWL_1202),
    ("radio-group-unnamed", r"^hanafuda:session_create$", r".", CRAWL_1202),
    ("sideways-scroll", r"^awards:mc_list$", r".", CRAWL_1202),
    ("sideways-scroll", r"^awards:settings$", r".", CRAWL_1202),
    ("sideways-scroll", r"^club_entry:links$", r".", CRAWL_1202),
    ("sideways-scroll", r"^judging:confirm_queue$", r".", CRAWL_1202),
    ("sideways-scroll", r"^judging:court_rules$", r".", CRAWL_1202),
    ("sideways-scroll", r"^judging:court_saved$", r".", CRAWL_1202),
    ("sideways-scroll", r"^reader:deck_detail$", r".", CRAWL_1202),
    ("sideways-scroll", r"^reader:deck_list$", r".", CRAWL_1202),
    ("sideways-scroll", r"^reader:link_home$", r".", CRAWL_1202),
    ("sideways-scroll", r"^tournament:event_detail$", r".", CRAWL_1202),
    ("sideways-scroll", r"^tournament:schedule_checks$", r".", CRAWL_1202),
    ("unnamed-control", r"^dosai:edition$", r".", CRAWL_1202),
    ("unnamed-control", r"^dosai:session$", r".", CRAWL_1202),
    ("unnamed-control", r"^dosai:session_new$", r".", CRAWL_1202),
    ("unnamed-control", r"^hanafuda:round_detail$", r".", CRAWL_1202),
    ("unnamed-control", r"^hanafuda:session_create$", r".", CRAWL_1202),
    ("unnamed-control", r"^judging:court_entry$", r".", CRAWL_1202),
    ("unnamed-control", r"^judging:match_detail$", r".", CRAWL_1202),
    ("xlsx", r"^dosai:hand_xlsx$", r".", CRAWL_1202),
    ("xlsx", r"^dosai:session_xlsx$", r".", CRAWL_1202),
    ("xlsx", r"^tournament:export_workbook$", r".", CRAWL_1202),
    ("xlsx", r"^tournament:print_menu$", r".", CRAWL_1202),
    ("xlsx", r"^tournament:public_export$", r".", CRAWL_1202),
    ("xlsx", r"^tournament:schedule$", r".", CRAWL_1202),
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
