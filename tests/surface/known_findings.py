"""Findings of the crawl that are known and owned elsewhere, each with its reason.

An entry is (check, pattern name regex, detail regex, reason). A finding matching an entry
does not fail the crawl; every other finding does. Entries owned by other branches are for
the lead to remove after merging them: the test ``test_known_findings_still_occur`` prints
the entries that no longer match anything.
"""

FIXES = "fixed on branch fixes"
FORMS = "fixed on branch forms"
LANG_34 = "PDFs without /Lang: issue 34"

KNOWN = []
