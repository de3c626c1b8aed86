"""What a court's tablet reports about itself: when it was last heard from and how many
results it still holds unsent."""

from __future__ import annotations

from django.utils import timezone

from tournament.models import Court


def record_tablet_report(court, unsent):
    """Note that ``court``'s tablet was heard from now, holding ``unsent`` results.

    In: a court and the number of results its page keeps unacknowledged (0 or more). Out: the
    time stored on ``Court.tablet_heard_at`` (``tablet_unsent`` holds the count), which the
    desk's court board shows. No game rule is involved: a result counts only once
    ``submit_sheet`` has recorded it (docs/rules/hitachi-karuta.md, "Result and winner").
    """
    heard_at = timezone.now()
    Court.objects.filter(pk=court.pk).update(tablet_heard_at=heard_at, tablet_unsent=unsent)
    return heard_at
