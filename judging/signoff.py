"""The leaders' sign-off of a version's counts and the photo of the paper sheet kept with it
(docs/rules/hitachi-karuta.md, "The recording sheet")."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from common.images import downscaled_jpeg
from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from judging.services import latest_sheet, lock_match
from tournament.models import Match


def sign_off(sheet, side: rules.Side, *, name="", court=None, user=None):
    """The leader of team ``side`` confirms the counts of version ``sheet`` on the tablet, as
    they sign the paper sheet (the leaders sign the counts, and from then on the result
    changes only through the desk; docs/rules/hitachi-karuta.md, "The recording sheet").

    ``name`` (optional, at most 60 characters) is the leader's name as written. Signing a
    side already signed changes nothing. Raises ``UserError`` when the event does not use
    sign-off, for a walkover, a version that is not the newest, or a void game. Returns the
    sheet.
    """
    side = rules.Side(side)
    with transaction.atomic():
        match = lock_match(sheet.match)
        sheet = RecordingSheet.objects.get(pk=sheet.pk)
        if not match.event.leaders_sign_off:
            raise UserError(_("This tournament does not use the leaders' sign-off."))
        if sheet.is_walkover:
            raise UserError(_("A walkover is not signed off by the leaders."))
        if match.status == Match.Status.VOID:
            raise UserError(_("This game is void."))
        newest = latest_sheet(match)
        if newest.pk != sheet.pk:
            raise UserError(
                _("Version %(v)s is not the newest (version %(newest)s is); sign the newest.")
                % {"v": sheet.version, "newest": newest.version}
            )
        field = "signed_a" if side is rules.Side.A else "signed_b"
        if getattr(sheet, f"{field}_at") is not None:
            return sheet
        name = " ".join((name or "").split())[:60]
        setattr(sheet, f"{field}_at", timezone.now())
        setattr(sheet, f"{field}_name", name)
        sheet.save(update_fields=[f"{field}_at", f"{field}_name"])
        team = match.team_a if side is rules.Side.A else match.team_b
        HistoryEntry.objects.create(
            match=match,
            sheet=sheet,
            court=court,
            user=user if user is not None and user.is_authenticated else None,
            action=HistoryEntry.Action.SIGNED,
            note=f"{side.value} {team.name if team else ''}{(' ' + name) if name else ''}"[:300],
        )
    return sheet


def photo_dir():
    """Where the photos of the paper sheets are kept: DATA_DIR/sheet-photos (never public)."""
    return Path(settings.DATA_DIR) / "sheet-photos"


def photo_path(sheet):
    """The file of ``sheet``'s photo, or None when it has none."""
    return photo_dir() / sheet.photo if sheet.photo else None


def attach_photo(sheet, upload, *, court=None, user=None):
    """Keep a photo of the paper sheet with version ``sheet`` (the evidence judges keep).

    The upload is checked and downscaled (``common.images.downscaled_jpeg``: image types
    only, at most 10 MB, long side 1600 px, JPEG) and written under ``photo_dir()``; a
    second photo replaces the first. Raises ``UserError`` (``ImageRefused``) for a file that
    is not an image, too large or unreadable: nothing is written and the result stays as it
    was saved. Returns the sheet.
    """
    data = downscaled_jpeg(upload)
    relative = (
        f"event-{sheet.match.event_id}/game-{sheet.match.match_number}-v{sheet.version}-{secrets.token_hex(4)}.jpg"
    )
    target = photo_dir() / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    old = None
    with transaction.atomic():
        sheet = RecordingSheet.objects.select_for_update().get(pk=sheet.pk)
        old = photo_path(sheet)
        sheet.photo = relative
        sheet.photo_at = timezone.now()
        sheet.save(update_fields=["photo", "photo_at"])
        HistoryEntry.objects.create(
            match_id=sheet.match_id,
            sheet=sheet,
            court=court,
            user=user if user is not None and user.is_authenticated else None,
            action=HistoryEntry.Action.PHOTO,
            note=f"{len(data) // 1024} KB",
        )
    if old is not None and old != target:
        old.unlink(missing_ok=True)
    return sheet
