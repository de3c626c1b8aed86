"""The offline synthetic voice: Open JTalk with the HTS voice "Mei" (issue 21, item 3).

Nothing is downloaded at run time. The binary and its dictionary come from Debian's packages
``open-jtalk`` and ``open-jtalk-mecab-naist-jdic`` (``make run``/``make test`` and CI install
them); the voice ``mei_normal.htsvoice`` (CC BY 3.0, Nagoya Institute of Technology,
MMDAgent project) ships in ``reader/htsvoice/mei/`` with its licence.

A text is synthesised once and kept as a WAV file under ``DATA_DIR/reader-voice/<voice>/``,
named by the SHA-256 of the voice and the text, so an edited text is synthesised anew and
the old file is simply no longer asked for. Two requests for the same text at once each
write a temporary file and move it into place (``os.replace``, atomic): the reader never
sees half a file.

Settings (all optional): ``READER_OPEN_JTALK`` (the binary, default ``open_jtalk`` on the
PATH), ``READER_OPEN_JTALK_DIC`` (default Debian's ``/var/lib/mecab/dic/open-jtalk/naist-jdic``),
``READER_VOICE`` (the ``.htsvoice`` file, default the shipped Mei).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from common.errors import UserError

DEFAULT_DIC = Path("/var/lib/mecab/dic/open-jtalk/naist-jdic")
DEFAULT_VOICE = Path(__file__).resolve().parent / "htsvoice" / "mei" / "mei_normal.htsvoice"
#: Seconds one synthesis may take (a card takes well under one second on a laptop).
TIMEOUT_SECONDS = 30
#: The longest text handed to the voice (a card's text is some 20 characters).
MAX_TEXT_CHARS = 300
#: The voice's speeds (Open JTalk's ``-r``, speech speed rate; 1.0 is the voice's own pace).
#: A tournament reads slowly (the rule sheet: "read the card slowly"; issue 33), so "slow"
#: is the default of a reading; "normal" is the voice as it comes.
SPEEDS = {"slow": 0.8, "normal": 1.0}
DEFAULT_SPEED = "slow"


def speed_name(value) -> str:
    """``value`` if it names a speed of :data:`SPEEDS`, else "normal" (an old or altered
    address plays the voice's own pace, never an error)."""
    return value if value in SPEEDS else "normal"


class VoiceMissing(UserError):
    """The synthetic voice is not installed; the message says which part is missing."""


@dataclass(frozen=True)
class VoiceStatus:
    """Whether the synthetic voice can speak, and a sentence saying what is missing."""

    installed: bool
    message: str


def _binary() -> str | None:  # the program's full path, or None when it is not installed
    name = getattr(settings, "READER_OPEN_JTALK", "open_jtalk")
    return shutil.which(name)


def _dictionary() -> Path:
    return Path(getattr(settings, "READER_OPEN_JTALK_DIC", DEFAULT_DIC))


def _voice() -> Path:
    return Path(getattr(settings, "READER_VOICE", DEFAULT_VOICE))


def voice_status() -> VoiceStatus:
    """Whether Open JTalk, its dictionary and the voice file are all there.

    Out: a :class:`VoiceStatus`; its message names every missing part and the Debian
    package that brings it (docs: README, "The reader's voices"). Never raises.
    """
    missing = []
    if _binary() is None:
        missing.append(_("the program open_jtalk (Debian package open-jtalk)"))
    if not (_dictionary() / "sys.dic").is_file():
        missing.append(_("its dictionary (Debian package open-jtalk-mecab-naist-jdic)"))
    if not _voice().is_file():
        missing.append(_("the voice file %(path)s") % {"path": _voice().name})
    if missing:
        return VoiceStatus(
            False,
            _("The synthetic voice is not installed: %(missing)s is missing. Recordings still play.")
            % {"missing": "、".join(missing)},
        )
    return VoiceStatus(True, _("The synthetic voice (Open JTalk, voice Mei) is installed."))


def voice_id() -> str:
    """A short name of the voice in use (its file name and size), part of every cache key."""
    voice = _voice()
    size = voice.stat().st_size if voice.is_file() else 0
    return f"{voice.stem}-{size}"


def clean_text(text: str) -> str:
    """``text`` on one line, as the voice reads it (line breaks become pauses 「、」)."""
    lines = [line.strip() for line in str(text).splitlines()]
    return "、".join(line for line in lines if line)[:MAX_TEXT_CHARS]


def text_hash(text: str, speed: str = "normal") -> str:
    """The cache key of ``text`` at ``speed`` for the voice in use: SHA-256 hex of voice,
    text and (when not "normal") the speed, so the files cached before speeds existed stay
    the normal ones."""
    speed = speed_name(speed)
    mark = "" if speed == "normal" else f"\n{speed}"
    return hashlib.sha256(f"{voice_id()}\n{clean_text(text)}{mark}".encode()).hexdigest()


def cache_dir() -> Path:
    """The folder of the voice's cached WAV files: ``DATA_DIR/reader-voice/<voice>/``."""
    return Path(settings.DATA_DIR) / "reader-voice" / voice_id()


def cached_path(text: str, speed: str = "normal") -> Path:
    """Where the WAV of ``text`` at ``speed`` is (or will be) cached."""
    return cache_dir() / f"{text_hash(text, speed)}.wav"


def synthesize(text: str, speed: str = "normal") -> Path:
    """The WAV file of ``text`` spoken by the synthetic voice, synthesised once and cached.

    In: the text to read (kana or kanji; the reading field when the card has one) and the
    ``speed`` (a name of :data:`SPEEDS`; another is "normal"). Out: the
    path of a mono 16-bit WAV (48 kHz) under ``DATA_DIR/reader-voice/``. Raises
    :class:`VoiceMissing` when the voice is not installed, ``UserError`` for an empty text
    or when Open JTalk fails or takes over :data:`TIMEOUT_SECONDS`. The text goes to the
    program on its standard input (never through a shell or its command line).
    """
    line = clean_text(text)
    if not line:
        raise UserError(_("There is no text to read."))
    speed = speed_name(speed)
    path = cached_path(line, speed)
    if path.is_file():
        return path
    status = voice_status()
    if not status.installed:
        raise VoiceMissing(status.message)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(suffix=".wav", dir=path.parent)
    os.close(handle)
    try:
        _run(line, Path(tmp), SPEEDS[speed])
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def _run(line: str, out: Path, rate: float = 1.0) -> None:
    command = [_binary(), "-x", str(_dictionary()), "-m", str(_voice()), "-r", f"{rate:.2f}", "-ow", str(out)]
    try:
        result = subprocess.run(  # fixed arguments; the text goes on stdin
            command, input=(line + "\n").encode("utf-8"), capture_output=True, timeout=TIMEOUT_SECONDS, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise UserError(_("The synthetic voice took too long (over %(s)d s).") % {"s": TIMEOUT_SECONDS}) from error
    if result.returncode != 0 or out.stat().st_size <= 44:
        detail = result.stderr.decode("utf-8", "replace").strip()[:200]
        raise UserError(_("The synthetic voice failed: %(detail)s") % {"detail": detail or result.returncode})
