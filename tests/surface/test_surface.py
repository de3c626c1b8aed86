"""The whole surface, as a person meets it (issue 27, items 1 and 4): the crawl of every URL
pattern as every role that may open it, at 390, 768, 1366 and 1920 px (English at 1366), with
the outside checkers; each test reads the crawl's findings of its kind (``conftest.crawled``).
A finding listed in ``known_findings.KNOWN`` (owned by another branch or issue) is reported,
not failed. The coverage list is test-artifacts/surface-coverage.txt, the findings
test-artifacts/surface-findings.txt.
"""

import re

from tests.surface import known_findings, urls

LAYOUT = {"sideways-scroll", "clipped", "one-char-per-line", "button-cut", "out-of-column"}
A11Y = {"axe", "unnamed-control", "symbol-name", "radio-group-unnamed"}
LOAD = {"http", "console", "csp", "subrequest", "dead-link"}
FILES = {"pdf", "xlsx", "json", "csv", "text", "svg", "jpeg", "png", "audio"}


def _known(finding):
    for check, name, detail, _reason in known_findings.KNOWN:
        if check == finding.check and re.search(name, finding.name) and re.search(detail, finding.detail):
            return True
    return False


def _new(crawled, checks):
    found = [f for f in crawled.findings if (f.check in checks or f.check.split("-")[0] in checks) and not _known(f)]
    return sorted({f.line() for f in found})


def _say(lines):
    return f"{len(lines)} findings:\n" + "\n".join(lines[:80])


def test_every_url_pattern_is_crawled(crawled):
    declared = urls.declared()
    missing = [d.name for d in declared if d.name not in crawled.crawled and not urls.not_visited(d)]
    assert not crawled.unfilled, (
        f"patterns whose parameters the crawl cannot fill (tests/surface/urls.py): {crawled.unfilled}"
    )
    assert not missing, f"URL patterns never crawled: {missing}"
    wrong = {n: s for n, s in crawled.refused_get.items() if s not in (302, 303, 405)}
    assert not wrong, f"POST-only patterns answering a GET otherwise than 405 or a redirect: {wrong}"
    assert set(crawled.refused_get) == {d.name for d in declared if d.name in urls.POST_ONLY}


def test_pages_load_without_errors(crawled):
    lines = _new(crawled, LOAD)
    assert not lines, _say(lines)


def test_pages_fit_every_width(crawled):
    lines = _new(crawled, LAYOUT)
    assert not lines, _say(lines)


def test_pages_are_accessible(crawled):
    lines = _new(crawled, A11Y)
    assert not lines, _say(lines)


def test_html_is_valid(crawled):
    lines = _new(crawled, {"html"})
    assert not lines, _say(lines)


def test_qr_codes_scan_to_this_server(crawled):
    lines = _new(crawled, {"qr"})
    assert not lines, _say(lines)


def test_one_language_per_page(crawled):
    lines = _new(crawled, {"language"})
    assert not lines, _say(lines)


def test_files_open_and_keep_their_contents(crawled):
    kinds = {k for k, *_ in crawled.files}
    assert {"pdf", "xlsx"} <= kinds, kinds
    lines = _new(crawled, FILES)
    assert not lines, _say(lines)


def test_known_findings_still_occur(crawled):
    """Reports (never fails) the entries of known_findings.py that match no finding any more:
    the lead removes them after merging the branch that fixed them."""
    stale = [
        entry
        for entry in known_findings.KNOWN
        if not any(
            entry[0] == f.check and re.search(entry[1], f.name) and re.search(entry[2], f.detail)
            for f in crawled.findings
        )
    ]
    for entry in stale:
        print("known finding no longer found:", entry)
