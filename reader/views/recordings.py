"""Uploading, recording and deleting the club's recordings (issue 21, item 3).

POST only; deck editors only (``reader.access``). The browser's recorder
(``static/js/reader_record.js``) posts the same form with ``fetch`` and reads the JSON answer.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.errors import UserError
from reader import voices
from reader.access import edition_for_editor
from reader.forms import RecordingForm
from reader.services import recordings


def _label(edition, key) -> str:
    kind, name = voices.parse_key(key)
    if kind == "phrase":
        return _("The phrase 「%(words)s」") % {"words": voices.PHRASES[name][0]}
    if not edition.cards.filter(head_kana=name).exists():
        raise voices.UnknownKey(_("The deck has no card %(kana)s.") % {"kana": name})
    return _("Card 「%(kana)s」") % {"kana": name}


def _answer(request, edition, ok, message):
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": ok, "message": message}, status=200 if ok else 400)
    (messages.success if ok else messages.error)(request, message)
    return redirect("reader:deck_detail", edition.slug)


@never_cache
@login_required
@require_POST
def recording_upload(request, slug):
    """Keep an uploaded (or recorded) audio file as the card's or phrase's recording; refuse
    a file that is not audio, too long or too large, naming the card."""
    edition = edition_for_editor(request, slug)
    form = RecordingForm(request.POST, request.FILES)
    if not form.is_valid():
        return _answer(request, edition, False, _("Choose an audio file first."))
    key = form.cleaned_data["key"]
    try:
        label = _label(edition, key)
        recording = recordings.save_recording(edition, key, form.cleaned_data["file"], label)
    except UserError as error:
        return _answer(request, edition, False, error.message)
    seconds = recording.duration_ms / 1000
    return _answer(request, edition, True, _("%(what)s: recording kept (%(s).1f s).") % {"what": label, "s": seconds})


@never_cache
@login_required
@require_POST
def recording_delete(request, slug):
    """Delete the recording of a card or phrase (the synthetic voice reads it again)."""
    edition = edition_for_editor(request, slug)
    key = request.POST.get("key", "")
    try:
        label = _label(edition, key)
    except UserError as error:
        return _answer(request, edition, False, error.message)
    recordings.delete_recording(edition, key)
    return _answer(request, edition, True, _("%(what)s: recording deleted.") % {"what": label})
