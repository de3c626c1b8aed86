"""What the reader plays: audio keys, their URLs, and the cards that cannot be read (issue 21).

The contract used by the reader's pages (the reading itself):

- audio keys: ``card:<head_kana>`` for a card; ``phrase:start`` 「では、始めます」,
  ``phrase:next`` 「次、読みます」, ``phrase:check`` 「札の確認をします」 (the rules' words,
  docs/rules: reading procedure);
- :func:`audio_url` (one key) and :func:`audio_urls` (all keys of an edition, two queries):
  a plain GET URL answered with the audio (``audio/wav`` or the recording's type), public
  and cacheable (its ``?v=`` changes when the text or the recording changes);
- :func:`unreadable_cards`: the cards with neither a text the synthetic voice can read nor a
  recording; the reader refuses to start while there is one (:func:`unreadable_message`);
- :func:`voice_status`: whether the synthetic voice is installed, and what is missing.

The club's recording wins over the synthetic voice; the voice reads the kana reading when
the card has one (names of places read right), else the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from reader import synth
from reader.models import Card, DeckEdition, Recording
from reader.synth import VoiceStatus

__all__ = [
    "DECK_SIZE",
    "PHRASES",
    "Audio",
    "audio_for",
    "audio_url",
    "audio_urls",
    "card_key",
    "parse_key",
    "unreadable_cards",
    "unreadable_message",
    "voice_status",
]

#: Cards in the Hitachi deck (docs/rules: the deck).
DECK_SIZE = 56
#: The rules' phrases: key name → (the words shown, the kana the synthetic voice reads).
PHRASES = {
    "start": ("では、始めます", "では、はじめます"),
    "next": ("次、読みます", "つぎ、よみます"),
    "check": ("札の確認をします", "ふだのかくにんをします"),
}


class UnknownKey(UserError):
    """An audio key that names no card of the edition and no phrase."""


@dataclass(frozen=True)
class Audio:
    """What is played for one key: bytes of a recording, or the path of a synthesised WAV."""

    content_type: str
    extension: str
    version: str
    data: bytes | None = None
    path: Path | None = None

    def read(self) -> bytes:
        return self.data if self.data is not None else self.path.read_bytes()


def card_key(head_kana: str) -> str:
    return f"card:{head_kana}"


def parse_key(key: str) -> tuple[str, str]:
    """``("card", head_kana)`` or ``("phrase", name)`` of ``key``; ``UnknownKey`` otherwise."""
    kind, _sep, name = str(key).partition(":")
    if kind == "card" and name:
        return kind, name
    if kind == "phrase" and name in PHRASES:
        return kind, name
    raise UnknownKey(_("Unknown audio %(key)s.") % {"key": key})


def voice_status() -> VoiceStatus:
    """Whether the synthetic voice is installed (``installed``) and a sentence (``message``)."""
    return synth.voice_status()


def spoken_text(card: Card) -> str:
    """What the synthetic voice reads for ``card``: its kana reading, else its text."""
    return (card.furigana or card.text).strip()


def unreadable_cards(edition: DeckEdition) -> list[Card]:
    """The cards of ``edition`` that nothing can read: no recording, and no text (or the
    synthetic voice is not installed). In deck order; empty when every card can be read.
    Issue 21, "Bad input": the reader names them and refuses to start."""
    recorded = set(edition.recordings.values_list("key", flat=True))
    can_speak = synth.voice_status().installed
    return [
        card
        for card in edition.cards.all()
        if card_key(card.head_kana) not in recorded and not (can_speak and spoken_text(card))
    ]


def unreadable_message(cards: list[Card]) -> str:
    """「3枚は読み札の文も録音もありません: …」 naming the cards, or "" when there are none."""
    if not cards:
        return ""
    names = "、".join(card.head_kana for card in cards)
    return ngettext(
        "%(count)d card has neither a reading text nor a recording: %(cards)s",
        "%(count)d cards have neither a reading text nor a recording: %(cards)s",
        len(cards),
    ) % {"count": len(cards), "cards": names}


def _url(edition: DeckEdition, key: str, version: str, speed: str = "normal") -> str:
    kind, name = parse_key(key)
    url = reverse("reader:audio", args=[edition.slug, kind, name]) + f"?v={version}"
    # A recording plays as recorded: only the synthetic voice has a speed.
    return url + (f"&speed={speed}" if speed != "normal" and version.startswith("s") else "")


def _synth_version(text: str, speed: str = "normal") -> str:
    return "s" + synth.text_hash(text, speed)[:16]


def audio_urls(edition: DeckEdition, speed: str = "normal") -> dict[str, str]:
    """The URL of every key of ``edition`` (its cards and the phrases), in two queries.

    ``speed``: the synthetic voice's speed (``synth.SPEEDS``; a recording plays as recorded).
    A key with nothing to play (an unreadable card) has a URL too; it answers 404.
    """
    speed = synth.speed_name(speed)
    versions = {rec.key: "r" + rec.sha256[:16] for rec in edition.recordings.only("key", "sha256")}
    urls = {}
    for card in edition.cards.all():
        key = card_key(card.head_kana)
        urls[key] = _url(edition, key, versions.get(key) or _synth_version(spoken_text(card), speed), speed)
    for name, (_words, kana) in PHRASES.items():
        key = f"phrase:{name}"
        urls[key] = _url(edition, key, versions.get(key) or _synth_version(kana, speed), speed)
    return urls


def audio_url(edition: DeckEdition, key: str, speed: str = "normal") -> str:
    """The URL the reader plays for ``key`` of ``edition`` at ``speed`` (see :func:`audio_urls`).

    Raises ``UnknownKey`` for a key that names no card of the edition and no phrase.
    """
    kind, name = parse_key(key)
    if kind == "card" and not edition.cards.filter(head_kana=name).exists():
        raise UnknownKey(_("The deck has no card %(kana)s.") % {"kana": name})
    return audio_urls(edition, speed)[key]


def _text_of(edition: DeckEdition, kind: str, name: str) -> str:
    if kind == "phrase":
        return PHRASES[name][1]
    card = edition.cards.filter(head_kana=name).first()
    if card is None:
        raise UnknownKey(_("The deck has no card %(kana)s.") % {"kana": name})
    return spoken_text(card)


def audio_for(edition: DeckEdition, key: str, speed: str = "normal") -> Audio:
    """The audio the reader plays for ``key``: the club's recording, else the synthetic voice
    at ``speed`` (``synth.SPEEDS``; another name is "normal").

    Raises ``UnknownKey`` (no such card or phrase), ``synth.VoiceMissing`` (no recording and
    no voice installed), ``UserError`` (no recording and no text, or the voice failed).
    """
    kind, name = parse_key(key)
    recording = Recording.objects.filter(edition=edition, key=key).first()
    if recording is not None:
        return Audio(
            recording.content_type, recording.extension, "r" + recording.sha256[:16], data=bytes(recording.audio)
        )
    text = _text_of(edition, kind, name)
    if not text:
        raise UserError(_("Card %(kana)s has neither a reading text nor a recording.") % {"kana": name})
    speed = synth.speed_name(speed)
    path = synth.synthesize(text, speed)
    return Audio("audio/wav", "wav", _synth_version(text, speed), path=path)
