"""The teams of an event with their players: personal data (names, furigana, grades), for
the organiser's reception list (受付名簿) and the "teams" sheet of the workbook only.

Callers check who may see it; the public pages and the JSON API never read this module.
"""

from django.db.models import Prefetch

from tournament.models import Player, Team


def teams_with_players(event):
    """The event's teams by division order and entry number, with ``division``, ``group``
    and the players (in their order, as ``team.players.all()``) loaded in three queries."""
    return (
        Team.objects.filter(division__event=event)
        .select_related("division", "group")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("order", "pk")))
        .order_by("division__order", "entry_number")
    )
