"""Photos sent from a tablet's camera: checked, turned upright and made small with Pillow.

Only real images are accepted (the bytes are decoded, the file name and the browser's
content type are not trusted); the result is always a JPEG whose long side is at most
``LONG_SIDE`` pixels, without the camera's metadata (no location is kept).
"""

import io
import threading
import warnings

from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from common import limits
from common.errors import UserError

MAX_UPLOAD_BYTES = limits.PHOTO_BYTES
LONG_SIDE = 1600
# Formats a phone or tablet camera (or its gallery) writes at 8 bits per channel.
ACCEPTED_FORMATS = limits.PHOTO_FORMATS
# Refused before decoding: an image this large is a decompression bomb, not a photo.
MAX_PIXELS = limits.PHOTO_PIXELS
# The decoders tried (an MPO is opened by the JPEG decoder).
_OPENERS = sorted(ACCEPTED_FORMATS - {"MPO"})
MAX_DECODED_BYTES = limits.PHOTO_DECODED_BYTES
# Pillow's own bomb check uses the same figure (it warns at it and refuses at twice it).
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
# One photo decoded at a time in this process: six posted at once wait their turn instead of
# holding six decoded images (issue 28: three workers went from 1.0 to 4.9 GB).
_DECODING = threading.BoundedSemaphore(limits.PHOTO_DECODERS)


class ImageRefused(UserError):
    """The upload is not a photo we can keep (not an image, too large, unreadable)."""


def _not_a_photo():
    return ImageRefused(_("This file is not a photo taken by a camera (JPEG, PNG or WebP with 8 bits per colour)."))


def check_before_decoding(image) -> int:
    """The bytes ``image`` (opened by Pillow, not decoded yet) will take once decoded.

    In: an ``Image`` after ``Image.open`` (its header read, no pixel decoded). Out: pixels (after
    a JPEG's reduced decoding, ``draft``, which the caller sets first) × bytes per pixel of its
    mode (``common.limits.PHOTO_MODES``). Raises ``ImageRefused`` for a format that is not a
    camera's (``PHOTO_FORMATS``), a mode that is not 8 bits per channel (a TIFF of 32-bit floats
    is mode "F"), more than ``PHOTO_PIXELS`` pixels in the file, or more than
    ``PHOTO_DECODED_BYTES`` decoded; each sentence names the limit. Issue 28, item 1."""
    if image.format not in ACCEPTED_FORMATS or image.mode not in limits.PHOTO_MODES:
        raise _not_a_photo()
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ImageRefused(
            _("The photo has too many pixels (%(pixels)s million; at most %(limit)s million).")
            % {"pixels": round(width * height / 1e6, 1), "limit": MAX_PIXELS // 1_000_000}
        )
    return width * height * limits.PHOTO_MODES[image.mode]


def downscaled_jpeg(upload, *, long_side=LONG_SIDE, max_bytes=MAX_UPLOAD_BYTES, quality=85) -> bytes:
    """The JPEG bytes of the uploaded image ``upload`` (a file object with ``size`` and
    ``read``), upright (EXIF orientation applied), at most ``long_side`` pixels on its long
    side, without metadata.

    The header is checked before any pixel is decoded (``check_before_decoding``: format,
    mode, pixels, decoded bytes), and photos are decoded one at a time in this process
    (``common.limits.PHOTO_DECODERS``; one waiting more than ``PHOTO_WAIT_SECONDS`` is refused
    as busy). Raises ``ImageRefused`` naming the reason: empty, larger than ``max_bytes``, not
    a camera's image, too many pixels or decoded bytes, damaged, or the server busy.
    """
    size = getattr(upload, "size", None)
    if not size:
        raise ImageRefused(_("The photo is empty; take it again."))
    if size > max_bytes:
        raise ImageRefused(
            _("The photo is too large (%(size)s MB; at most %(limit)s MB).")
            % {"size": round(size / 1024 / 1024, 1), "limit": max_bytes // (1024 * 1024)}
        )
    try:
        with warnings.catch_warnings():  # past MAX_PIXELS Pillow warns; check_before_decoding refuses
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(upload, formats=_OPENERS)
        with image:
            check_before_decoding(image)
            image.draft("RGB", (long_side, long_side))  # JPEG: decode at a smaller scale, faster
            decoded = check_before_decoding(image)
            if decoded > MAX_DECODED_BYTES:
                raise ImageRefused(
                    _(
                        "The photo would take %(mb)s MB to open (at most %(limit)s MB); take it with the camera's usual setting."
                    )
                    % {"mb": round(decoded / 1024 / 1024), "limit": MAX_DECODED_BYTES // (1024 * 1024)}
                )
            if not _DECODING.acquire(timeout=limits.PHOTO_WAIT_SECONDS):
                raise ImageRefused(_("The server is busy opening other photos; send this one again in a moment."))
            try:
                image.load()
                image = ImageOps.exif_transpose(image).convert("RGB")
                image.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
            finally:
                _DECODING.release()
            out = io.BytesIO()
            image.save(out, "JPEG", quality=quality, optimize=True)
    except UnidentifiedImageError as e:
        raise _not_a_photo() from e
    except Image.DecompressionBombError as e:  # Pillow's own check at opening: twice the limit
        raise ImageRefused(
            _("The photo has too many pixels (more than %(limit)s million).") % {"limit": MAX_PIXELS // 1_000_000}
        ) from e
    except (OSError, SyntaxError, ValueError) as e:
        raise ImageRefused(_("The photo could not be read (the file is damaged); take it again.")) from e
    return out.getvalue()
