"""Where each division stands between its groups and its knockout, and what changed in a game
that is out of date: the words of the knockout page, the game's page, the status board, the hall
display and the commands.

Nothing here writes. The slots and their states come from ``tournament.reports.stages``; the
rules are in ``docs/rules/stages.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.models import Match, Team
from tournament.reports import stages
from tournament.reports.standings import division_standings, qualifiers

# What a division's card on the knockout page says (``DivisionStage.state``).
PLAYING = "playing"  # some group games have no confirmed result yet
BLOCKED = "blocked"  # groups complete, but a tie at a qualifying place needs a lot
READY = "ready"  # can be seeded now
SEEDED = "seeded"  # has its games after the groups
SINGLE = "single"  # one qualifier only: the group winner is the champion
NO_KNOCKOUT = "none"  # nothing follows its groups (its setting)


@dataclass(frozen=True)
class SideChange:
    """A side of an out-of-date game: its slot's ``label`` ("Aリーグ1位"), the team the game
    holds (``before``) and the team that fills the slot now (``now``), as names ("nobody yet" in
    the active language for nobody), and their ids (``before_id``, ``now_id``: None for nobody)."""

    label: str
    before: str
    now: str
    before_id: int | None = None
    now_id: int | None = None

    def __str__(self):
        return _("%(slot)s: was %(before)s, now %(now)s") % {"slot": self.label, "before": self.before, "now": self.now}


@dataclass
class OutOfDate:
    """An out-of-date game (``state``: its ``stages.SlotState``) and what changed, side by side."""

    state: stages.SlotState
    changes: list

    @property
    def match(self):
        return self.state.match

    @property
    def places(self):
        """The slots that changed, by name ("Aリーグ1位、Bリーグ1位")."""
        return "、".join(change.label for change in self.changes)

    @property
    def text(self):
        """The changes in one line ("Aリーグ1位: 前は○○、今は△△ / …")."""
        return " / ".join(str(change) for change in self.changes)


@dataclass
class DivisionStage:
    """One division on the knockout page: ``state`` (one of the constants above), the groups
    still playing (``[(Group, games left)]``), why it cannot be seeded (``reason``), the
    ``champion`` (and its ``champion_group``) when it has a single qualifier, its ``out_of_date``
    games, and its ``kept`` games (``Match`` whose played result the organiser kept after a
    change; the knockout page offers to undo each keep)."""

    division: object
    state: str
    groups_left: list = field(default_factory=list)
    reason: str = ""
    champion: Team | None = None
    champion_group: object = None
    out_of_date: list = field(default_factory=list)
    blocked: list = field(default_factory=list)
    kept: list = field(default_factory=list)

    @property
    def can_seed(self):
        return self.state == READY

    @property
    def can_reset(self):
        return self.state == SEEDED


def _names(states):
    """Team id -> name for every team a list of ``SlotState``s holds or would hold."""
    wanted = {side.stored for s in states for side in s.sides} | {side.settled_team for s in states for side in s.sides}
    wanted.discard(None)
    return dict(Team.objects.filter(pk__in=wanted).values_list("pk", "name"))


def describe(state, names=None):
    """The ``OutOfDate`` of ``state``: per side whose settled team differs from the team the game
    holds, a ``SideChange`` (nobody yet: "未定")."""
    names = names if names is not None else _names([state])
    nobody = _("nobody yet")
    changes = [
        SideChange(
            side.sentence,
            names.get(side.stored, nobody),
            names.get(side.settled_team, nobody),
            side.stored,
            side.settled_team,
        )
        for side in state.sides
        if side.differs
    ]
    return OutOfDate(state, changes)


def division_out_of_date(division, states=None):
    """``[OutOfDate]`` of the division's games after the groups that are out of date
    (``states``: its ``division_slots``, read when not given)."""
    states = [s for s in (states if states is not None else stages.division_slots(division)) if s.out_of_date]
    names = _names(states)
    return [describe(state, names) for state in states]


def held_as(match):
    """How ``match`` holds its teams, in words: "result kept" (保留した結果), "already played", "already
    started" or "not started yet" (the refusals and notes of docs/rules/stages.md, "One game per round")."""
    if match.kept_teams:
        return _("result kept")
    if match.has_result:
        return _("already played")
    if stages.is_frozen(match):
        return _("already started")
    return _("not started yet")


def clash_text(team_name, other):
    """「城南中学校Bは第52試合（保留した結果）にも出ています。」: ``team_name`` holds a side of the
    game ``other`` already."""
    return _("%(team)s also plays %(game)s (%(held)s).") % {"team": team_name, "game": other, "held": held_as(other)}


def blocked_notes(states):
    """The sentences of the open games of ``states`` (``division_slots``) with a side left empty
    because its team already plays another game of the round: "第53試合：城南中学校Bは第52試合（保留
    した結果）にも出ています。…Aリーグ1位は空けたままにします。" (docs/rules/stages.md, "One game per round")."""
    wanted = {side.wanted_team for state in states for side in state.blocked}
    names = dict(Team.objects.filter(pk__in=wanted).values_list("pk", "name")) if wanted else {}
    notes = []
    for state in states:
        for side in state.blocked:
            name = names.get(side.wanted_team, "?")
            if side.blocked_by.pk == state.match.pk:
                text = _("%(team)s would be on both sides.") % {"team": name}
            else:
                text = clash_text(name, side.blocked_by)
            notes.append(
                _("%(game)s: %(clash)s %(slot)s stays empty: a team plays one game per round.")
                % {"game": state.match, "clash": text, "slot": side.label or side.short}
            )
    return notes


def match_out_of_date(match):
    """The ``OutOfDate`` of ``match`` when it is a game after the groups that is out of date, else None."""
    if match.is_group_match:
        return None
    for state in stages.out_of_date(match.division):
        if state.match.pk == match.pk:
            return describe(state)
    return None


def _reaches(match, side):
    """Whether a slot side's reference depends on ``match``'s result."""
    if not side.reference:
        return False
    kind, _sep, rest = side.reference.partition(":")
    if match.is_group_match:
        return kind == "best" or (kind == "group" and rest.split(":")[0] == str(match.group_id))
    return kind in ("winner", "loser") and rest == str(match.pk)


def frozen_after(match):
    """The games after the groups that have started or have a result and that a correction of
    ``match`` (which has a result or a waiting version) can reach: those whose slots name its
    group's places, a best-of place, or its winner or loser. ``[]`` for a game without a result."""
    if match.status not in Match.Status.ENTERED:
        return []
    return [
        state.match
        for state in stages.division_slots(match.division)
        if state.frozen and any(_reaches(match, side) for side in state.sides)
    ]


def event_out_of_date(event):
    """``{match pk: OutOfDate}`` of every out-of-date game of ``event`` (status board, hall, API).

    Only divisions with a game after the groups that has started or has a result can have one,
    so the others cost no standings (the hall displays poll the API every few seconds)."""
    frozen = Match.objects.filter(event=event).after_groups().frozen()
    divisions = event.divisions.filter(pk__in=frozen.values("division_id"))
    states = [state for division in divisions for state in stages.out_of_date(division)]
    names = _names(states)
    return {state.match.pk: describe(state, names) for state in states}


def _groups_left(division):
    """``[(Group, games left)]`` of the division's groups with group games not yet decided."""
    left = {}
    open_games = Match.objects.filter(division=division).group_stage().not_done()
    for group_id in open_games.values_list("group_id", flat=True):
        left[group_id] = left.get(group_id, 0) + 1
    return [(g, left[g.pk]) for g in division.groups.all() if g.pk in left]


def division_stage(division):
    """The ``DivisionStage`` of ``division`` (docs/rules/stages.md, "Per division"): each
    division moves on at its own time (a knockout, placement games or both, as
    ``tournament.services.knockout.seed_divisions`` makes them); a single qualifier is its
    champion and blocks nothing."""
    if division.after_groups not in ("knockout", "both", "placement"):
        return DivisionStage(division, NO_KNOCKOUT, out_of_date=division_out_of_date(division))
    if Match.objects.filter(division=division).after_groups().exists():
        states = stages.division_slots(division)
        return DivisionStage(
            division,
            SEEDED,
            out_of_date=division_out_of_date(division, states),
            blocked=blocked_notes(states),
            kept=[s.match for s in states if s.match.kept_teams],
        )
    if not division.groups.exists():
        return DivisionStage(division, PLAYING, reason=_("%(division)s has no groups yet.") % {"division": division})
    tables = division_standings(division)
    if not all(table.complete for table in tables):
        return DivisionStage(division, PLAYING, groups_left=_groups_left(division))
    if division.after_groups == "placement":
        return DivisionStage(division, READY)  # equal places play each other: no qualifier to settle
    try:
        going_through = qualifiers(division, tables)
    except UserError as refusal:
        return DivisionStage(division, BLOCKED, reason=str(refusal))
    if len(going_through) < 2:
        if not going_through:
            return DivisionStage(division, SINGLE)
        first = going_through[0]
        champion = Team.objects.filter(pk=first.team).first()
        return DivisionStage(division, SINGLE, champion=champion, champion_group=tables[first.group].group)
    return DivisionStage(division, READY)


def seeded_text(division, count):
    """What seeding ``division`` made, in the active language ("小学生の部：トーナメント表を作成しました
    （4試合）。", or its placement games)."""
    if division.after_groups == "placement":
        return _("%(division)s: placement games made, %(count)s games.") % {"division": division, "count": count}
    return _("%(division)s: bracket seeded, %(count)s games.") % {"division": division, "count": count}


def event_stages(event):
    """``[DivisionStage]`` of every division of ``event``, in the divisions' order."""
    return [division_stage(d) for d in event.divisions.all()]
