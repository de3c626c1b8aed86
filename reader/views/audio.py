"""The audio the reader plays: one public, cacheable GET per card or phrase (issue 21).

Card audio holds no personal data, so it is public like the cards' pages. A tablet plays it
with a plain ``<audio>`` element over the venue's http; Safari asks for byte ranges, so a
``Range: bytes=a-b`` request is answered with 206 and that part.
"""

import re

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from common.errors import UserError
from reader import voices
from reader.models import DeckEdition

#: A URL whose ?v= names the current content never changes: the browser keeps it a year.
_LONG = "public, max-age=31536000, immutable"
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


@require_safe
def audio(request, slug, kind, name):
    """``/reader/audio/<edition>/<card|phrase>/<head kana or phrase>/``: the audio to play;
    ``?speed=slow`` for the synthetic voice read slowly (``reader.synth.SPEEDS``; another
    value plays the normal speed).

    200 with the recording or the synthesised WAV; 206 for a byte range; 404 for an unknown
    edition, card or phrase, and for a card nothing can read (the reader checks
    ``voices.unreadable_cards`` before it starts, so this is never heard in a game).
    """
    edition = get_object_or_404(DeckEdition, slug=slug)
    try:
        found = voices.audio_for(edition, f"{kind}:{name}", request.GET.get("speed", "normal"))
    except UserError as error:
        raise Http404(error.message) from error
    etag = f'"{found.version}"'  # the recording's or the voice's version: it names the sound
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified
    data = found.read()
    response = _ranged(request, data, found.content_type)
    response["Cache-Control"] = _LONG if request.GET.get("v") == found.version else "no-cache"
    response["ETag"] = etag
    response["Accept-Ranges"] = "bytes"
    response["Content-Disposition"] = f'inline; filename="{kind}.{found.extension}"'
    return response


def _ranged(request, data: bytes, content_type: str) -> HttpResponse:
    match = _RANGE.match(request.headers.get("Range", "").strip())
    if not match or not data:
        return HttpResponse(data, content_type=content_type)
    first, last = match.groups()
    size = len(data)
    if first:
        start, end = int(first), min(int(last) if last else size - 1, size - 1)
    else:
        start, end = max(size - int(last or 0), 0), size - 1
    if start > end or start >= size:
        response = HttpResponse(status=416)
        response["Content-Range"] = f"bytes */{size}"
        return response
    response = HttpResponse(data[start : end + 1], status=206, content_type=content_type)
    response["Content-Range"] = f"bytes {start}-{end}/{size}"
    return response
