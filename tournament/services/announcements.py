"""Announcements on the hall screens: the organiser's calls (「第3コートへ集合：○○チーム」),
shown large for a chosen number of minutes (issue 17, item 2; docs/hall-screens.md).

Each function is one write; a refusal is a ``UserError`` raised before anything is written.
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.models import Announcement

MAX_TEXT = 200
MAX_MINUTES = 240


def announce(event, text, minutes, now=None):
    """Show ``text`` (1–200 characters after trimming) on every hall screen of ``event`` from
    ``now`` (default: the present moment) for ``minutes`` (1–240). Returns the ``Announcement``.

    Raises ``UserError`` naming the field for an empty or too long text or a duration out of
    range (docs/hall-screens.md, "Announcements")."""
    text = " ".join((text or "").split())
    if not text:
        raise UserError(_("Announcement: type the text to show."))
    if len(text) > MAX_TEXT:
        raise UserError(
            _("Announcement: at most %(max)d characters (%(count)d typed).") % {"max": MAX_TEXT, "count": len(text)}
        )
    if not 1 <= minutes <= MAX_MINUTES:
        raise UserError(_("Minutes shown: between 1 and %(max)d.") % {"max": MAX_MINUTES})
    start = now or timezone.now()
    return Announcement.objects.create(
        event=event, text=text, shown_from=start, shown_until=start + datetime.timedelta(minutes=minutes)
    )


@transaction.atomic
def end_announcement(event, pk, now=None):
    """End the announcement ``pk`` of ``event`` at ``now`` (default: the present moment): the
    screens drop it at their next poll. Ending one already over changes nothing. Returns it.

    Raises ``UserError`` when the event has no such announcement."""
    announcement = Announcement.objects.select_for_update().filter(event=event, pk=pk).first()
    if announcement is None:
        raise UserError(_("This announcement does not exist (any more)."))
    moment = now or timezone.now()
    if announcement.shown_until > moment:
        announcement.shown_until = max(moment, announcement.shown_from)
        announcement.save(update_fields=["shown_until"])
    return announcement
