"""Photos sent from a tablet's camera: checked, turned upright and made small with Pillow.

Only real images are accepted (the bytes are decoded, the file name and the browser's
content type are not trusted); the result is always a JPEG whose long side is at most
``LONG_SIDE`` pixels, without the camera's metadata (no location is kept).
"""

import io

from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from common.errors import UserError

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
LONG_SIDE = 1600
# Formats a phone or tablet camera (or its gallery) produces and Pillow decodes.
ACCEPTED_FORMATS = {"JPEG", "MPO", "PNG", "WEBP", "GIF", "BMP", "TIFF"}
# Refused before decoding: an image this large is a decompression bomb, not a photo.
MAX_PIXELS = 60_000_000


class ImageRefused(UserError):
    """The upload is not a photo we can keep (not an image, too large, unreadable)."""


def downscaled_jpeg(upload, *, long_side=LONG_SIDE, max_bytes=MAX_UPLOAD_BYTES, quality=85) -> bytes:
    """The JPEG bytes of the uploaded image ``upload`` (a file object with ``size`` and
    ``read``), upright (EXIF orientation applied), at most ``long_side`` pixels on its long
    side, without metadata.

    Raises ``ImageRefused`` naming the reason: empty, larger than ``max_bytes``, not an
    image of an accepted type, or damaged.
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
        with Image.open(upload) as image:
            if image.format not in ACCEPTED_FORMATS:
                raise ImageRefused(_("This file is not a photo (JPEG, PNG, WebP …)."))
            if image.width * image.height > MAX_PIXELS:
                raise ImageRefused(_("The photo has too many pixels; take it with the camera's usual setting."))
            image.draft("RGB", (long_side, long_side))  # JPEG: decode at a smaller scale, faster
            image.load()
            image = ImageOps.exif_transpose(image).convert("RGB")
            image.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
            out = io.BytesIO()
            image.save(out, "JPEG", quality=quality, optimize=True)
    except UnidentifiedImageError as e:
        raise ImageRefused(_("This file is not a photo (JPEG, PNG, WebP …).")) from e
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise ImageRefused(_("The photo could not be read (the file is damaged); take it again.")) from e
    return out.getvalue()
