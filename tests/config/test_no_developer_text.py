"""No developer text in the Japanese UI (issue 33, item 5): no file path (docs/…, *.md, *.py),
no 「本製品での解釈」 and no option code (D7, M12) in a Japanese message of any catalogue, nor
written in a template outside its English messages. File paths and option codes stay in the
docs and the English explanations (the English msgids keep them)."""

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = [ROOT / "locale/ja/LC_MESSAGES/django.po"] + sorted(ROOT.glob("*/locale/ja/LC_MESSAGES/django.po"))
# An option code of the club games (D2–D18, M1–M17), never a file format such as M4A. A
# command the operator types (「manage.py restore」) is an instruction, not a source file.
DEVELOPER = re.compile(r"docs/|\w(?<!manage)\.(?:md|py)\b|本製品|(?<![A-Za-z0-9])[DM]\d{1,2}(?![0-9A-Za-z])")


def entries(path):
    """(msgid, msgstr) of a .po file, continuation lines joined."""
    found, key, current = [], None, {}
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
        if match:
            key = match.group(1)
            current[key] = current.get(key, "") + match.group(2)
        elif line.startswith('"') and key:
            current[key] += line[1:-1]
        elif not line.strip():
            if current.get("msgid"):
                strs = [v for k, v in current.items() if k.startswith("msgstr")]
                found += [(current["msgid"], s) for s in strs]
            current, key = {}, None
    return found


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_japanese_message_holds_developer_text(path):
    bad = [f"{msgid[:60]} → {msgstr[:80]}" for msgid, msgstr in entries(path) if DEVELOPER.search(msgstr)]
    assert not bad, "\n".join(bad)


def test_the_compiled_catalogues_agree():
    for path in CATALOGUES:
        mo = path.with_suffix(".mo")
        catalog = gettext.GNUTranslations(mo.open("rb"))._catalog
        bad = [v for v in catalog.values() if isinstance(v, str) and DEVELOPER.search(v)]
        assert not bad, (mo, bad[:3])


TAGS = re.compile(r"\{%.*?%\}|\{#.*?#\}|\{\{.*?\}\}|<[^>]*>", re.S)


def test_no_template_writes_developer_text_outside_its_messages():
    """Text written into a template (not through {% translate %}) is shown as it is in every
    language: it must hold no path nor code."""
    bad = []
    for template in sorted(ROOT.glob("**/templates/**/*.html")):
        if ".venv" in template.parts or "node_modules" in template.parts:
            continue
        text = TAGS.sub(" ", template.read_text(encoding="utf-8"))
        bad += [f"{template.relative_to(ROOT)}: {m.group(0)}" for m in DEVELOPER.finditer(text)]
    assert not bad, bad
