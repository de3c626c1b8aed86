"""The player history across editions (issue 35, item 3; docs/rules/records.md): organisers
only. A player is matched from one event to the next by the ``name_key`` of the name and of the
furigana (``series.models.player_key``); a player whose history was removed
(``ForgottenPlayer``) is never listed. Reads only: who may open it is ``series.access``'s."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, Sum

from judging.models import PlayerCards
from series.models import ForgottenPlayer, player_key
from tournament.models import Event, Player


@dataclass
class Entry:
    """One edition of a player: the ``event``, its ``division`` and ``team`` names, the team's
    ``affiliation``, and the ``cards`` the player took in confirmed games (None: not recorded)."""

    event: object
    division: str
    team: str
    affiliation: str
    cards: int | None


@dataclass
class PlayerHistory:
    """One player across editions: ``key`` (``player_key``), the newest ``name`` and
    ``furigana`` written, and ``entries`` by date (``[Entry]``)."""

    key: str
    name: str
    furigana: str
    entries: list = field(default_factory=list)

    @property
    def editions(self):
        return len({e.event.pk for e in self.entries})

    @property
    def cards(self):
        counted = [e.cards for e in self.entries if e.cards is not None]
        return sum(counted) if counted else None


def visible_events(user):
    """The events whose players ``user`` may see in the history: every event for a superuser or
    a staff user, else the events they organise."""
    if user.is_superuser or user.is_staff:
        return Event.objects.all()
    return Event.objects.filter(organisers=user)


def histories(events, query=""):
    """``[PlayerHistory]`` of the players of ``events`` (a queryset of ``Event``), by furigana then
    name; only those whose name or furigana contains ``query`` (after trimming) when given.
    Players of a removed history are left out."""
    players = (
        Player.objects.filter(team__division__event__in=events)
        .select_related("team__division__event")
        .order_by("team__division__event__date", "pk")
    )
    query = query.strip()
    if query:
        players = players.filter(Q(name__icontains=query) | Q(furigana__icontains=query))
    players = list(players)
    cards = dict(
        PlayerCards.objects.confirmed()
        .filter(player__in=players)
        .values("player")
        .annotate(n=Sum("cards"))
        .values_list("player", "n")
    )
    removed = set(ForgottenPlayer.objects.values_list("key", flat=True))
    found = {}
    for player in players:
        key = player_key(player.name, player.furigana)
        if key in removed:
            continue
        history = found.setdefault(key, PlayerHistory(key, player.name, player.furigana))
        history.name, history.furigana = player.name, player.furigana or history.furigana
        team = player.team
        history.entries.append(
            Entry(team.division.event, team.division.name, team.name, team.affiliation, cards.get(player.pk))
        )
    return sorted(found.values(), key=lambda h: (h.furigana or h.name, h.name, h.key))
