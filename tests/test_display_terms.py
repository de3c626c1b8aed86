"""One name for each thing (issue 33, item 4; docs/glossary.md, "Display terms"): the Japanese
of the three message catalogues and of the templates writes each glossary term in its one form
and uses full-width punctuation (「：」「（）」), never ASCII ``: `` or ``( )``.

Read as text, no Django needed: the catalogues' msgstrs, and the templates' literal text (the
Japanese written in them, and the ``: `` / `` (…)`` a template puts after a translated label or
a value outside ``blocktranslate``, which a Japanese page would show as ASCII: those are written
``{% colon %}`` and ``|paren``, common/templatetags/karuta.py).
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = [
    ROOT / "locale/ja/LC_MESSAGES/django.po",
    ROOT / "dosai/locale/ja/LC_MESSAGES/django.po",
    ROOT / "hanafuda/locale/ja/LC_MESSAGES/django.po",
]
TEMPLATES = sorted({*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")})

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# Left out before looking for ASCII punctuation: placeholders, addresses, and the date's weekday
# as common.dates writes it on every page (2027年1月17日(日): the organisers' own form).
HIDDEN = re.compile(r"%\([a-z_0-9]+\)[+ #0-]*(?:\.\d+)?[sdrf]|\{[a-z_0-9]+\}|https?://\S+|日\([日月火水木金土]\)")
ASCII = re.compile(r"(?<!\d):(?!\d)|[()]")

# The second spellings of the glossary's terms: (pattern, the one form).
SECOND_SPELLINGS = [
    (re.compile(r"No\.\s?(\d|%)"), "第N試合 (a game by its number)"),
    (re.compile(r"予選リーグ ?[A-Z%]|(?<!予選)%\((group|name)\)sリーグ"), "予選Aリーグ (a group)"),
    (re.compile(r"コート ?(\d|%\()|(?<!第)%\(number\)sコート"), "第1コート (a numbered court)"),
    (re.compile(r"(?<![第\d])\d位[:：]"), "第3位 (a final place)"),
    (re.compile(r"得失差|合計枚数"), "枚数差 / 取り札合計"),
    (re.compile(r"お手付き|ジャンケン|ジョーカー"), "お手つき / じゃんけん / 「り」"),
    (re.compile(r"第\d+版|第%\(\w+\)s版"), "N回目の入力 (a version)"),
]

# Real exceptions, each with its reason: (catalogue msgid or template path, what is allowed).
ALLOWED = {
    ("one group per court (official format)", "コート1"),  # 「1コート1リーグ」: one court, one group
}


def _entries(path):
    """(msgctxt, msgid, [msgstr …]) of a .po file, obsolete entries left out."""
    out, cur, key = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        m = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (\".*\")$", line)
        if m:
            if m.group(1) in ("msgctxt", "msgid") and cur and any(k.startswith("msgstr") for k in cur):
                out.append(cur)
                cur = None
            if m.group(1) == "msgid" and cur and "msgctxt" not in cur:
                cur = None
            cur = cur or {}
            key = m.group(1)
            cur[key] = ast.literal_eval(m.group(2))
        elif line.startswith('"') and cur is not None:
            cur[key] += ast.literal_eval(line)
        elif not line.strip() and cur:
            out.append(cur)
            cur = None
    return [
        (e.get("msgctxt", ""), e["msgid"], [v for k, v in e.items() if k.startswith("msgstr")])
        for e in out
        if "msgid" in e
    ]


def _japanese_msgstrs():
    for path in CATALOGUES:
        for _ctx, msgid, strs in _entries(path):
            for s in strs:
                if s and JAPANESE.search(s):
                    yield path.relative_to(ROOT), msgid, s


def _ascii_punctuation(text):
    return ASCII.findall(HIDDEN.sub("", text))


def test_the_catalogues_are_read():
    found = list(_japanese_msgstrs())
    assert len(found) > 2000
    assert any(msgid == "Game %(number)s" and s == "第%(number)s試合" for _p, msgid, s in found)


def test_japanese_msgstrs_use_full_width_punctuation():
    bad = [f"{p}: {msgid!r} → {s!r}" for p, msgid, s in _japanese_msgstrs() if _ascii_punctuation(s)]
    assert not bad, f"{len(bad)} Japanese msgstrs with ASCII ': ' or '( )' (write 「：」「（）」):\n" + "\n".join(bad)


def test_japanese_msgstrs_use_one_name_for_each_thing():
    bad = []
    for p, msgid, s in _japanese_msgstrs():
        for pattern, one in SECOND_SPELLINGS:
            m = pattern.search(s)
            if m and (msgid, m.group(0)) not in ALLOWED:
                bad.append(f"{p}: {msgid!r} → {s!r}: {m.group(0)!r}, write {one}")
    assert not bad, "\n".join(bad)


def test_one_game_says_cards_taken_not_their_total():
    entries = {(ctx, msgid): strs for ctx, msgid, strs in _entries(CATALOGUES[0])}
    assert entries[("one game", "cards taken")] == ["取り札数"]
    assert entries[("", "cards taken")] == ["取り札合計"]  # the standings' sum over games


TOKEN = re.compile(r"(\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\})", re.S)
LABEL = re.compile(r"\{%\s*(translate|trans|endblocktranslate|endblocktrans)\b|\{\{")


def _template_problems(text):
    """What a Japanese page would show in ASCII: Japanese literal text with ': ' or '( )', and
    ': ' or ' (…)' right after a translated label or a value, outside blocktranslate."""
    parts = TOKEN.split(text)
    depth, problems = 0, []
    for i, part in enumerate(parts):
        if i % 2:
            if re.match(r"\{%\s*blocktrans", part):
                depth += 1
            elif re.match(r"\{%\s*endblocktrans", part):
                depth -= 1
            continue
        # the text of the page, without attribute-free markup: tags stripped
        visible = re.sub(r"<[^>]*>", " ", part)
        if JAPANESE.search(visible) and _ascii_punctuation(visible):
            problems.append(visible.strip()[:80])
        if depth == 0 and i and LABEL.match(parts[i - 1]):
            if part.startswith(": ") or re.match(r" \([^)<]*\)", part):
                problems.append(f"{parts[i - 1][:40]}{part[:20]}")
            if part.endswith(" (") and i + 2 < len(parts) and parts[i + 2].startswith(")"):
                problems.append(f"{part[-10:]}{parts[i + 1]})")
    return problems


def test_the_template_reader_finds_what_it_should():
    assert _template_problems('{% translate "winner" %}: {{ x }}')
    assert _template_problems("{{ team.name }} (A)")
    assert _template_problems("{{ a }} ({{ b }})")
    assert _template_problems("<p>部門: {{ x }}</p>")
    assert not _template_problems('{% translate "winner" %}{% colon %}{{ x }}')
    assert not _template_problems("{% blocktranslate %}{{ n }}: cards{% endblocktranslate %}")
    assert not _template_problems('<a data-draft="{{ pk }}:{{ n }}">')  # a key, not text


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_use_full_width_punctuation_in_japanese(path):
    text = path.read_text(encoding="utf-8")
    assert not _template_problems(text), f"{path.relative_to(ROOT)}: write {{% colon %}} / |paren or 「：」「（）」"
