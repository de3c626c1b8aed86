"""The Japanese catalogue is complete, consistent with its sources, and in use.

Japanese is the default language, so an untranslated or fuzzy entry shows English on a
screen a Japanese referee or organiser reads. The .po file is read with a small stdlib
parser (polib is not a dependency).
"""

import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parent.parent
# The project's catalogue (templates/, tournament/, judging/) and each app's own
# (hanafuda/locale, dosai/locale): makemessages puts a file's strings in the nearest one.
CATALOGUES = [ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po"] + sorted(
    ROOT.glob("*/locale/ja/LC_MESSAGES/django.po")
)
CATALOGUE_IDS = [str(p.relative_to(ROOT)) for p in CATALOGUES]

# %(name)s / %(n)d, bare %s / %d, {name} (python-brace-format) and HTML tags must survive.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}|<[^>]+>")


def read_po(path):
    """Entries of a .po file as dicts: msgid, msgid_plural, msgstr {index or None: text}, flags."""
    entries, entry, target = [], None, None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if entry is not None:
                entries.append(entry)
            entry = None
            continue
        if entry is None:
            entry = {"msgid": None, "msgid_plural": None, "msgstr": {}, "flags": set(), "obsolete": False}
        if line.startswith("#~"):
            entry["obsolete"] = True
            continue
        if line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$", line)
        if match:
            keyword, index, text = match.group(1), match.group(2), ast.literal_eval(match.group(3))
            if keyword.startswith("msgstr"):
                target = ("msgstr", int(index) if index is not None else None)
                entry["msgstr"][target[1]] = text
            else:
                target = (keyword, None)
                entry[keyword] = text
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if target[0] == "msgstr":
                entry["msgstr"][target[1]] += text
            else:
                entry[target[0]] += text
        else:
            raise AssertionError(f"unexpected line in {path.name}: {raw!r}")
    return entries


@pytest.fixture(scope="module", params=CATALOGUES, ids=CATALOGUE_IDS)
def po(request):
    assert request.param.exists(), f"{request.param} is missing: run makemessages -l ja"
    return request.param


@pytest.fixture(scope="module")
def entries(po):
    return read_po(po)


def messages(entries):
    return [e for e in entries if e["msgid"] and not e["obsolete"]]


def test_the_catalogue_is_japanese_with_one_plural_form(entries):
    header = entries[0]
    assert header["msgid"] == ""
    assert "fuzzy" not in header["flags"]
    assert "Language: ja\n" in header["msgstr"][None]
    assert "Plural-Forms: nplurals=1; plural=0;\n" in header["msgstr"][None]


def test_every_entry_is_translated(entries):
    untranslated = [e["msgid"] for e in messages(entries) if not all(e["msgstr"].values()) or not e["msgstr"]]
    assert untranslated == [], f"{len(untranslated)} untranslated entries: {untranslated[:10]}"


def test_no_entry_is_fuzzy(entries):
    fuzzy = [e["msgid"] for e in messages(entries) if "fuzzy" in e["flags"]]
    assert fuzzy == [], f"{len(fuzzy)} fuzzy entries (check them, then remove the flag): {fuzzy[:10]}"


def test_plural_entries_have_exactly_one_form(entries):
    wrong = [e["msgid"] for e in messages(entries) if e["msgid_plural"] is not None and set(e["msgstr"]) != {0}]
    assert wrong == []


def test_translations_keep_placeholders_and_markup(entries):
    wrong = []
    for e in messages(entries):
        for index, text in e["msgstr"].items():
            source = e["msgid_plural"] if index and e["msgid_plural"] else e["msgid"]
            if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(text)):
                wrong.append((e["msgid"], text))
    assert wrong == []


def test_msgattrib_finds_nothing_untranslated(po):
    if shutil.which("msgattrib") is None:
        pytest.skip("GNU gettext (msgattrib) is not installed")
    result = subprocess.run(
        ["msgattrib", "--untranslated", "--no-obsolete", str(po)], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_msgfmt_accepts_the_catalogue(po):
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext (msgfmt) is not installed")
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_compiled_catalogue_matches_the_po_file(po, entries):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run compilemessages -l ja"
    with mo.open("rb") as f:
        catalogue = gettext.GNUTranslations(f)
    stale = []
    for e in messages(entries):
        if e.get("msgctxt") is not None:  # pgettext: the same words in another sense
            if catalogue.pgettext(e["msgctxt"], e["msgid"]) != e["msgstr"][None]:
                stale.append(f"{e['msgctxt']}|{e['msgid']}")
        elif e["msgid_plural"] is None:
            if catalogue.gettext(e["msgid"]) != e["msgstr"][None]:
                stale.append(e["msgid"])
        elif catalogue.ngettext(e["msgid"], e["msgid_plural"], 2) != e["msgstr"][0]:
            stale.append(e["msgid"])
    assert stale == [], f"django.mo is out of date (run compilemessages -l ja): {stale[:10]}"


@pytest.mark.django_db
def test_the_public_home_page_is_in_japanese(client):
    with translation.override("ja"):  # the middleware activates a language; leave the thread as it was
        response = client.get("/", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="ja">' in page
    assert "ひたち郷土かるた" in page
    assert "Hitachi Folk Karuta" not in page


@pytest.mark.django_db
def test_the_public_home_page_is_in_english_on_request(client):
    with translation.override("en"):
        response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "Hitachi Folk Karuta" in response.content.decode()
