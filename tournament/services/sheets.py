"""The paper of a game: when its recording sheet was printed (issue 15, item 9)."""

from django.utils import timezone

from tournament.models import Match


def mark_sheets_printed(matches, at=None):
    """Record that the recording sheets of ``matches`` (a queryset or list of games) were
    printed at ``at`` (default now), so the print page can offer the sheets of games moved
    since (``tournament.reports.sheets.moved_since_printed``). Returns the number of games.
    Rule: docs/rules/scheduling-standings-seeding.md, §5 (a moved game needs a new sheet)."""
    keys = [m.pk for m in matches]
    return Match.objects.filter(pk__in=keys).update(sheet_printed_at=at or timezone.now())
