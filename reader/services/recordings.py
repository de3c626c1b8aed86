"""The club's recordings: an uploaded audio file checked and kept (issue 21, item 3).

The file must really be audio (read by ``mutagen``, never trusted by its name or type):
WAV, MP3, OGG (Opus or Vorbis) or M4A; at most :data:`MAX_BYTES` and :data:`MAX_SECONDS`.
An M4A's boxes are counted and their nesting measured before mutagen reads them
(``check_boxes``, iterative: mutagen reads nested boxes recursively, and a file of boxes
nested a thousand deep answered 500 with ``RecursionError``; issue 28). The limits are
``common.limits`` (``AUDIO_*``). A refusal is a ``UserError`` naming the card or the phrase
and the limit; nothing is written then.
"""

from __future__ import annotations

import hashlib
import struct
from io import BytesIO

import mutagen
from django.db import transaction
from django.utils.translation import gettext as _
from mutagen.mp3 import MP3
from mutagen.mp4 import MP4
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis
from mutagen.wave import WAVE

from common import limits
from common.errors import UserError
from reader.models import DeckEdition, Recording

#: Largest file accepted (bytes).
MAX_BYTES = limits.AUDIO_BYTES
#: Longest recording (seconds): a card read once takes some 5 s.
MAX_SECONDS = limits.AUDIO_SECONDS
#: Shortest recording (seconds): less is a click, not a reading.
MIN_SECONDS = limits.AUDIO_MIN_SECONDS
#: The boxes mutagen looks inside (its own list, ``mutagen.mp4._atom._CONTAINERS``), and the
#: bytes skipped at the start of one ("meta" has four of version and flags).
CONTAINERS = frozenset({b"moov", b"udta", b"trak", b"mdia", b"meta", b"ilst", b"stbl", b"minf", b"moof", b"traf"})
_SKIP = {b"meta": 4}


class TooManyBoxes(ValueError):
    """An MP4 file's boxes nest deeper or are more than the limits; ``str()`` says which."""


def check_boxes(data: bytes) -> None:
    """Count the boxes of an MP4 (M4A) file ``data`` and measure how deep they nest, without
    recursion, before mutagen reads it. Raises ``TooManyBoxes`` past ``AUDIO_BOX_DEPTH`` levels or
    ``AUDIO_BOXES`` boxes; a box cut short ends the walk (mutagen then refuses the file).
    Linear in the number of boxes."""
    boxes = 0
    stack = [(0, len(data), 0)]  # (start, end, depth) of the box lists still to walk
    while stack:
        at, end, depth = stack.pop()
        while at + 8 <= end:
            size, name = struct.unpack(">I4s", data[at : at + 8])
            header = 8
            if size == 1 and at + 16 <= end:
                size, header = struct.unpack(">Q", data[at + 8 : at + 16])[0], 16
            elif size == 0:
                size = end - at
            if size < header or at + size > end:
                return
            boxes += 1
            if boxes > limits.AUDIO_BOXES:
                raise TooManyBoxes("boxes")
            if name in CONTAINERS:
                if depth + 1 > limits.AUDIO_BOX_DEPTH:
                    raise TooManyBoxes("depth")
                stack.append((at + header + _SKIP.get(name, 0), at + size, depth + 1))
            at += size


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
    if b"ftyp" in data[:128] or b"mp4" in data[:128]:  # what makes mutagen try it as MP4
        try:
            check_boxes(data)
        except TooManyBoxes as error:
            if str(error) == "depth":
                raise UserError(
                    _("%(what)s: the file's boxes nest more than %(max)d deep; it is not a recording.")
                    % {"what": label, "max": limits.AUDIO_BOX_DEPTH}
                ) from None
            raise UserError(
                _("%(what)s: the file has more than %(max)s boxes; it is not a recording.")
                % {"what": label, "max": f"{limits.AUDIO_BOXES:,}"}
            ) from None
    try:
        found = mutagen.File(BytesIO(data), options=list(KINDS))
    except (mutagen.MutagenError, ValueError, EOFError, OSError, RecursionError, struct.error):
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
