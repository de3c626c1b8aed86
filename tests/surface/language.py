"""One language per page (issue 27, item 1): in an English session no Japanese outside names
and places, in a Japanese session no English outside names.

A heuristic over the page's visible text (``page_checks.js``; parts marked with another
``lang`` left out): the names of the played day (teams, players, clubs, places, the event;
``build.py``) are taken out first, then the terms either language writes the same way
(``SHARED``), addresses and file names. What is left in the wrong script is a finding, one per
word.
"""

import re

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f々〆ヶ]+")
WORD = re.compile(r"(?<![\w@/.-])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![\w@/])")
ADDRESS = re.compile(r"(https?://\S+|\S+@\S+|/\S*|\S+\.(pdf|xlsx|csv|json|svg|wav|mp3|jpg)\b)", re.I)
# Written so in both languages: the language switch, brands and standard abbreviations.
SHARED_JA = {"日本語"}
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
}


def names_pattern(names):
    """One regular expression matching any of the day's names, longest first."""
    names = sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in names)) if names else None


def wrong_words(text, lang, names):
    """The words of ``text`` in the other language than ``lang`` ("ja" or "en"), each once."""
    if names is not None:
        text = names.sub(" ", text)
    text = ADDRESS.sub(" ", text)
    if lang == "en":
        found = [w for w in JAPANESE.findall(text) if w not in SHARED_JA]
    else:
        found = [w for w in WORD.findall(text) if w not in SHARED_EN and len(w) > 1]
    return sorted(set(found))
