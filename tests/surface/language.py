"""One language per page (issue 27, item 1): in an English session no Japanese outside names
and places, in a Japanese session no English outside names.

A heuristic over the page's visible text (``page_checks.js``; parts marked with another
``lang`` left out): the names of the played day (teams, players, clubs, places, the event;
``build.py``) are taken out first, then the terms either language writes the same way
(``SHARED``), addresses and file names. What is left in the wrong script is a finding, one per
word.

Addresses and units go before names: a court called 「A」 or 「3」 is a name, and taking it out of a link
first cut the link's secret into "words". Left alone as well: placeholders a form asks for
(``{edition}``), units after a number (``12 mm``, ``480 ms``), punctuation that is no word
(「・」 between parts), and, on an English page, Japanese quoted in 「」: what is said, printed
or typed in Japanese (the reader's 「次、読みます」, a column heading 「頭字」 of the Excel file
to fill in, the card 「り」), which an English page names but does not translate.
"""

import re

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f々〆ヶ]+")
WORD = re.compile(r"(?<![\w@/.-])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![\w@/])")
ADDRESS = re.compile(r"(https?://\S+|\S+@\S+|/\S*|\S+\.(pdf|xlsx|csv|json|svg|wav|mp3|jpg)\b|\blocalhost\b)", re.I)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
UNIT = re.compile(r"(?:(?<=\d)\s?|(?<=[（(]))(mm|cm|ms|KB|MB|GB|px|pt|dpi)\b")
QUOTED = re.compile(r"「[^「」]*」")
PUNCTUATION = re.compile(r"^[・ー々〆ヶ]+$")
GROUP_PAIR = re.compile(r"^[A-Z](-[A-Z])+$")  # 「A-B」: two groups by their letters (names)
# Written so in both languages: the language switch, brands and standard abbreviations.
# 「り」: the card's name, the one letter printed on it, written so on English pages too (docs/glossary.md).
SHARED_JA = {"日本語", "り"}
SHARED_EN = {
    "English",
    "PDF",
    "Excel",
    "QR",
    "CSV",
    "API",
    "JSON",
    "URL",
    "Wi-Fi",
    "WiFi",
    "ID",
    "OK",
    "A4",
    "A3",
    "B5",
    "LAN",
    "iPad",
    "Android",
    "iPhone",
    "HTML",
    "Open",
    "JTalk",
    "Mei",
    "WAV",
    "MP3",
    "Safari",
    "Chrome",
    "Django",
    "vs",
    "HMAC",
    "SHA",
    "JST",
    "http",
    "https",
    "USB",
    "PC",
    "HTTP",
    "OGG",
    "Opus",
    "M4A",
    "ICS",
    "ODS",
    # the outgoing webhook's service, by its product name (issue 35): 「LINE Messaging API」
    "LINE",
    "Messaging",
}


def names_pattern(names):
    """One regular expression matching any of the day's names, longest first."""
    names = sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True)

    def one(name):
        # a name in Latin letters or digits ("A", "3", "organiser") only as a whole word: not
        # the 3 of "MP3" nor the A of "A4"
        if name.isascii():
            return rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])"
        return re.escape(name)

    return re.compile("|".join(one(n) for n in names)) if names else None


def wrong_words(text, lang, names):
    """The words of ``text`` in the other language than ``lang`` ("ja" or "en"), each once."""
    # units before names: a court called 「3」 would take the number away from "3 KB"
    text = UNIT.sub(" ", PLACEHOLDER.sub(" ", ADDRESS.sub(" ", text)))
    if names is not None:
        text = names.sub(" ", text)
    if lang == "en":
        text = QUOTED.sub(" ", text)
        found = [w for w in JAPANESE.findall(text) if w not in SHARED_JA and not PUNCTUATION.match(w)]
    else:
        found = [w for w in WORD.findall(text) if w not in SHARED_EN and len(w) > 1 and not GROUP_PAIR.match(w)]
    return sorted(set(found))
