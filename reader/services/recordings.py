"""The club's recordings: an uploaded audio file checked and kept (issue 21, item 3).

The file must really be audio (read by ``mutagen``, never trusted by its name or type):
WAV, MP3, OGG (Opus or Vorbis) or M4A; at most :data:`MAX_BYTES` and :data:`MAX_SECONDS`.
A refusal is a ``UserError`` naming the card or the phrase; nothing is written then.
"""

from __future__ import annotations

import hashlib
from io import BytesIO

import mutagen
from django.db import transaction
from django.utils.translation import gettext as _
from mutagen.mp3 import MP3
from mutagen.mp4 import MP4
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis
from mutagen.wave import WAVE

from common.errors import UserError
from reader.models import DeckEdition, Recording

#: Largest file accepted (bytes).
MAX_BYTES = 5 * 1024 * 1024
#: Longest recording (seconds): a card read once takes some 5 s.
MAX_SECONDS = 30
#: Shortest recording (seconds): less is a click, not a reading.
MIN_SECONDS = 0.2
#: mutagen type → (content type, extension).
KINDS = {
    WAVE: ("audio/wav", "wav"),
    MP3: ("audio/mpeg", "mp3"),
    OggOpus: ("audio/ogg", "opus"),
    OggVorbis: ("audio/ogg", "ogg"),
    MP4: ("audio/mp4", "m4a"),
}


def _read(upload) -> bytes:
    """At most MAX_BYTES + 1 bytes of ``upload`` (bytes or a Django uploaded file)."""
    if isinstance(upload, (bytes, bytearray)):
        return bytes(upload[: MAX_BYTES + 1])
    buf = bytearray()
    for chunk in upload.chunks():
        buf += chunk
        if len(buf) > MAX_BYTES:
            break
    return bytes(buf)


def check_audio(data: bytes, label: str) -> tuple[str, str, float]:
    """(content type, extension, seconds) of ``data``; ``UserError`` naming ``label`` when it
    is empty, too large, not one of the accepted kinds of audio, too short or too long."""
    if not data:
        raise UserError(_("%(what)s: the file is empty.") % {"what": label})
    if len(data) > MAX_BYTES:
        raise UserError(
            _("%(what)s: the file is larger than %(mb)d MB.") % {"what": label, "mb": MAX_BYTES // (1024 * 1024)}
        )
    try:
        found = mutagen.File(BytesIO(data), options=list(KINDS))
    except (mutagen.MutagenError, ValueError, EOFError, OSError):
        found = None
    seconds = float(getattr(getattr(found, "info", None), "length", 0) or 0)
    if found is None or seconds <= 0:
        raise UserError(
            _("%(what)s: the file is not audio that can be played (WAV, MP3, OGG/Opus or M4A).") % {"what": label}
        )
    if seconds > MAX_SECONDS:
        raise UserError(
            _("%(what)s: the recording lasts %(s).0f s; at most %(max)d s are accepted.")
            % {"what": label, "s": seconds, "max": MAX_SECONDS}
        )
    if seconds < MIN_SECONDS:
        raise UserError(_("%(what)s: the recording is too short to be a reading.") % {"what": label})
    content_type, extension = KINDS[type(found)]
    return content_type, extension, seconds


def save_recording(edition: DeckEdition, key: str, upload, label: str) -> Recording:
    """Check ``upload`` (see :func:`check_audio`) and keep it as the audio of ``key``,
    replacing an older recording of the same key. ``label`` names the card or phrase in
    messages ("「す」の札"). Raises ``UserError`` before any write."""
    data = _read(upload)
    content_type, extension, seconds = check_audio(data, label)
    with transaction.atomic():
        recording, _created = Recording.objects.update_or_create(
            edition=edition,
            key=key,
            defaults={
                "audio": data,
                "content_type": content_type,
                "extension": extension,
                "duration_ms": round(seconds * 1000),
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            },
        )
    return recording


def delete_recording(edition: DeckEdition, key: str) -> bool:
    """Remove the recording of ``key``; False when there was none."""
    with transaction.atomic():
        deleted, _kinds = Recording.objects.filter(edition=edition, key=key).delete()
    return bool(deleted)
