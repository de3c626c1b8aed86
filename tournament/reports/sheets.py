"""Which recording sheets are out of date on paper (issue 15, item 9). Nothing here writes."""

from django.db.models import F, Q


def moved_since_printed(matches):
    """The games of ``matches`` (a queryset) whose recording sheet on paper is out of date:
    moved or re-timed (``changed_at``: a delay, a closed court, a late entry's new game)
    after their sheet was last printed (``sheet_printed_at``), or never printed since.
    Games never moved are left out. Out: a queryset, ordered by match number."""
    return (
        matches.filter(changed_at__isnull=False)
        .filter(Q(sheet_printed_at__isnull=True) | Q(sheet_printed_at__lt=F("changed_at")))
        .not_void()
        .order_by("match_number")
    )
