"""The version of one team's page: what changes when what that page shows changes.

``reports.api.event_version`` changes with every result of the event, and the public pages key
their cached fragment on it. The team page (the family's page, ``tournament.family``) shows much
less: its own games, its group's standings, its division's teams, stage path and places. Under a
full hall half the phones are on their team's page (issue 31, item 3), and keyed on the event's
version every result made every team's page stale at once: one render per team and result, the
server saturated. Keyed on ``team_version`` a result in a group makes only the pages of the
teams that read that group stale.

What a page reads, by *part* of the event:

- ``("group", pk)``: the group's games, their recording sheets and history lines, and the
  group's play-offs (``TieBreak``);
- ``("division", pk)``: the division's games after the groups (and a group-stage game with no group),
  their sheets and history, its teams (count, edits, withdrawals, who is in which group) and
  its runners-up lots (``RunnerUpLot``).

A team's page reads its division's part, its own group's part and the parts of every group it
has a game in; and every group's part of its division once the division has games after the
groups (their slots come from every group's standings) or is finished (the final places and
prizes come from the whole division: ``finished`` is the caller's, from the awards desk's count
of open games, which ``tournament`` does not read below the views).

- ``("event", pk)``: what every page of the event reads: the event's row, its courts,
  divisions and groups (names and settings) and its players' names (shown where the event
  publishes them).

So the team page's fragment needs no short life for changes the event's version does not see
(a court renamed): it is kept ``views.public.SCOPED_SECONDS``. What the awards desk adds (a
prize by hand) is not in ``tournament``: the view adds the desk's own stamp
(``awards.reports.team_page_stamp``) to the version. A write that bypasses the signals
(``QuerySet.update``) shows once the parts are made again, within
``page_cache.FRESH_SECONDS``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Max, Q, Sum

from common import page_cache
from judging.models import HistoryEntry, RecordingSheet
from tournament.models import Court, Division, Event, Group, Match, Player, RunnerUpLot, Team, TieBreak

SCOPES_KEY = "event-scopes:{pk}"


@dataclass(frozen=True)
class TeamPlace:
    """Where a team is, as ``team_version`` and the team page's refresh read it without its row:
    ``pk``, ``division_id``, ``group_id`` (None before the draw) and ``name``."""

    pk: int
    division_id: int
    group_id: int | None
    name: str


@dataclass(frozen=True)
class EventScopes:
    """What ``team_version`` reads, per data version: ``parts`` (a part's key, ``("group", pk)``
    or ``("division", pk)``, -> a short text that changes when the part does), ``groups_of``
    (division pk -> the pks of its groups that have games), ``plays_in`` (team pk -> the keys
    of the parts its games are in), ``after_groups`` (the pks of divisions that have games
    after the groups) and ``teams`` (team pk -> its ``TeamPlace``)."""

    parts: dict
    groups_of: dict
    plays_in: dict
    after_groups: frozenset
    teams: dict


def game_figures():
    """The aggregates of games that change whenever what a page shows of them does: counts by
    status, the teams and winners placed, the newest move, start and end. Shared with
    ``reports.api.compute_event_version`` (the whole event in one row)."""
    return {
        "n": Count("pk"),
        "newest": Max("pk"),
        "done": Count("pk", filter=Q(status__in=Match.Status.PLAYED)),
        "open": Count("pk", filter=Q(status__in=Match.Status.WAITING)),
        "void": Count("pk", filter=Q(status=Match.Status.VOID)),
        "teams": Sum("team_a_id", default=0) * 7 + Sum("team_b_id", default=0),
        "winners": Sum("winner_id", default=0),
        "moved": Max("changed_at"),
        "started": Max("actual_start"),
        "ended": Max("actual_end"),
    }


def sheet_figures():
    """The aggregates of recording sheets: how many, confirmed, the newest sent and confirmed."""
    return {
        "n": Count("pk"),
        "confirmed": Count("pk", filter=Q(is_confirmed=True)),
        "submitted_at": Max("submitted_at"),
        "confirmed_at": Max("confirmed_at"),
        "newest": Max("pk"),
    }


def row_figures():
    """How many rows and the newest (history lines, play-offs, lots): rows only added or removed."""
    return {"n": Count("pk"), "newest": Max("pk")}


def team_figures():
    """The aggregates of teams: how many, their edits (version counters), the withdrawn."""
    return {
        "n": Count("pk"),
        "edits": Sum("version", default=0),
        "withdrawn": Count("pk", filter=Q(withdrawn=True)),
    }


def _part(division_id, group_id, stage):
    """The part a game is in: its group's for a group-stage game, else its division's."""
    return ("group", group_id) if stage == Match.Stage.GROUP and group_id is not None else ("division", division_id)


def event_scopes(event) -> EventScopes:
    """The ``EventScopes`` of ``event``: thirteen queries, whatever the size, made once per
    data version and kept in the shared cache (``page_cache.kept_per_data_version``: never
    behind a committed write)."""
    return page_cache.kept_per_data_version(SCOPES_KEY.format(pk=event.pk), lambda: compute_event_scopes(event))


def compute_event_scopes(event) -> EventScopes:
    """``event_scopes`` from the database, never from the cache."""
    found = defaultdict(list)
    by_part = {"division_id": F("match__division_id"), "group_id": F("match__group_id"), "stage": F("match__stage")}
    games = Match.objects.filter(event=event).order_by().values("division_id", "group_id", "stage")
    games = games.annotate(**game_figures())
    sheets = RecordingSheet.objects.filter(match__event=event).order_by().values(**by_part)
    sheets = sheets.annotate(**sheet_figures())
    history = HistoryEntry.objects.filter(match__event=event).order_by().values(**by_part)
    history = history.annotate(**row_figures())
    for kind, rows in (("games", games), ("sheets", sheets), ("history", history)):
        for row in rows:
            found[_part(row.pop("division_id"), row.pop("group_id"), row.pop("stage"))].append(
                (kind, sorted(row.items()))
            )
    ties = TieBreak.objects.filter(group__division__event=event).order_by().values("group_id")
    for row in ties.annotate(**row_figures()):
        found[("group", row.pop("group_id"))].append(("ties", sorted(row.items())))
    lots = RunnerUpLot.objects.filter(division__event=event).order_by().values("division_id")
    for row in lots.annotate(**row_figures()):
        found[("division", row.pop("division_id"))].append(("lots", sorted(row.items())))
    teams = Team.objects.filter(division__event=event).order_by().values("division_id")
    # placed: a move between groups, or two teams swapped
    for row in teams.annotate(**team_figures(), placed=Sum(F("group_id") * F("id"), default=0)):
        found[("division", row.pop("division_id"))].append(("teams", sorted(row.items())))

    # What every page of the event reads: the event, its courts, divisions and groups (their
    # names and settings) and the players' names (shown where the event publishes them).
    settings = (
        Event.objects.filter(pk=event.pk).values(),
        # Not the tablets' reports (``tablet_heard_at`` changes at every one): what pages show.
        Court.objects.filter(event=event).order_by("pk").values_list("pk", "name", "order"),
        Division.objects.filter(event=event).order_by("pk").values(),
        Group.objects.filter(division__event=event).order_by("pk").values(),
        Player.objects.filter(team__division__event=event).order_by("pk").values_list("pk", "team_id", "name", "order"),
    )
    found[("event", event.pk)] = [list(rows) for rows in settings]

    groups_of, plays_in, after_groups = defaultdict(set), defaultdict(set), set()
    sides = (
        Match.objects.filter(event=event)
        .order_by()
        .values_list("division_id", "group_id", "stage", "team_a_id", "team_b_id")
    )
    for division_id, group_id, stage, team_a, team_b in sides.distinct():
        part = _part(division_id, group_id, stage)
        if part[0] == "division":
            after_groups.add(division_id)
        else:
            groups_of[division_id].add(group_id)
        for team in (team_a, team_b):
            if team is not None:
                plays_in[team].add(part)
    places = Team.objects.filter(division__event=event).values_list("pk", "division_id", "group_id", "name")
    parts = {key: hashlib.sha256(repr(value).encode()).hexdigest()[:16] for key, value in found.items()}
    return EventScopes(
        parts=parts,
        groups_of={k: frozenset(v) for k, v in groups_of.items()},
        plays_in={k: frozenset(v) for k, v in plays_in.items()},
        after_groups=frozenset(after_groups),
        teams={row[0]: TeamPlace(*row) for row in places},
    )


def team_place(event, pk) -> TeamPlace | None:
    """The ``TeamPlace`` of team ``pk`` of ``event``, or None (no such team in the event): from
    the event's kept parts, no query once they are kept."""
    return event_scopes(event).teams.get(pk)


def team_version(event, team, finished=False) -> str:
    """A short text (16 hex digits) that changes whenever what ``team``'s page (a ``Team`` of
    ``event``, or its ``TeamPlace``) shows from the database changes (the parts it reads: this module's docstring).
    ``finished``: its division has no game left without a result (the awards desk's count), so
    its places read the whole division. One cache read once the event's parts are kept."""
    scopes = event_scopes(event)
    keys = {("event", event.pk), ("division", team.division_id)} | scopes.plays_in.get(team.pk, frozenset())
    if team.group_id is not None:
        keys.add(("group", team.group_id))
    if finished or team.division_id in scopes.after_groups:
        keys |= {("group", pk) for pk in scopes.groups_of.get(team.division_id, ())}
    text = repr(sorted((key, scopes.parts.get(key)) for key in keys))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
