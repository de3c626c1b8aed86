"""The games of an event as every medium shows them: timetable, results, games list.

Nothing here writes. A result is shown only once its recording sheet is confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from judging.models import HistoryEntry, RecordingSheet
from tournament.engine import slots as slot_refs
from tournament.models import Match, Team
from tournament.reports.stages import division_slots


def confirmed_sheets():
    """The recording sheets that count (confirmed ones), for ``Prefetch``."""
    return RecordingSheet.objects.confirmed()


def match_queryset(event):
    """The event's games by match number, with division, group, court, teams, winner and
    the confirmed sheets (``match.confirmed_sheets``, a list) loaded: no query per game."""
    return (
        event.matches.select_related("division", "group", "court", "team_a", "team_b", "winner")
        .prefetch_related(Prefetch("sheets", to_attr="confirmed_sheets", queryset=confirmed_sheets()))
        .order_by("match_number")
    )


def confirmed_sheet(match):
    """The confirmed ``RecordingSheet`` of a game from ``match_queryset``, or None."""
    sheets = match.confirmed_sheets
    return sheets[0] if sheets else None


def is_annulled(match):
    """Whether ``match`` is a group game annulled by a withdrawal: a team of it withdrew during
    the group stage in a division whose setting is "annul", so the game leaves the standings
    (the rule of ``reports.standings.division_standings``; docs/rules/stages.md, "Withdrawals").
    Every medium shows such a game as annulled (無効), never as a confirmed result. Reads
    ``match.division``, ``team_a`` and ``team_b`` (loaded by ``match_queryset``)."""
    if match.stage != Match.Stage.GROUP or match.division.withdrawal != "annul":
        return False
    return any(
        team is not None and team.withdrawn and not team.withdrawn_after_groups for team in (match.team_a, match.team_b)
    )


def status_text(match):
    """A game's status in words (active language): "Annulled (withdrawal)" for an annulled game
    (``is_annulled``), "Started" for a game whose referee tapped 開始 and that has no result
    entered yet, else its ``Match.Status`` label."""
    if is_annulled(match):
        return str(_("Annulled (withdrawal)"))
    if match.status == Match.Status.SCHEDULED and match.actual_start is not None:
        return str(_("Started"))
    return str(match.get_status_display())


def result_text(sheet):
    """ "30-26", "walkover" (active language) or "" for no confirmed sheet."""
    if sheet is None:
        return ""
    return str(_("walkover")) if sheet.is_walkover else f"{sheet.cards_a}-{sheet.cards_b}"


@dataclass(frozen=True)
class SideSlot:
    """Where one side of a game after the groups comes from, as every medium shows it.

    ``label`` says it in the active language ("Aリーグ 1位", "第12試合の勝者"; "" for a team
    fixed by hand), ``short`` is the bracket's short form ("A1", "W12"); ``from_groups``: the
    reference is a group place or a best-of place (not an earlier game); ``final``: the team
    filling it can no longer change through the groups (docs/rules/stages.md, "Slots");
    ``changed``: the game is out of date and this side's place is now filled by another team
    (or by nobody yet); ``kept``: the organiser kept the played result although this side's
    place is now filled by ``now`` (a team name, "" for nobody yet): the team shown played as
    ``short`` and is not ``short`` now (docs/rules/stages.md, "Out of date: keep or replay")."""

    label: str
    short: str
    from_groups: bool
    final: bool
    changed: bool
    kept: bool = False
    now: str = ""

    @property
    def kept_text(self):
        """「A2として出場・保留」 for a kept side, else ""."""
        if not self.kept:
            return ""
        return _("played as %(slot)s, kept") % {"slot": self.short or self.label}

    @property
    def now_text(self):
        """「A2は現在かもめ台B」: who fills the place of a kept side now, else ""."""
        if not self.kept:
            return ""
        return _("%(slot)s is now %(team)s") % {"slot": self.short or self.label, "team": self.now or _("nobody yet")}


@dataclass(frozen=True)
class GameSlots:
    """The two ``SideSlot``s of a knockout or placement game and whether a later change has
    left the game out of date (it started or has a result, and a side's place is now filled
    by another team: ``tournament.reports.stages``)."""

    a: SideSlot
    b: SideSlot
    out_of_date: bool
    kept_note: str = ""

    @property
    def kept(self):
        """Whether the organiser kept the game's played result against a change of its places."""
        return self.a.kept or self.b.kept

    @property
    def sides(self):
        return (self.a, self.b)

    @property
    def kept_text(self):
        """The workbook's "kept" cell: 「保留: <note> ・ A2は現在かもめ台B」, "" when not kept."""
        if not self.kept:
            return ""
        parts = [_("Result kept") + (f": {self.kept_note}" if self.kept_note else "")]
        parts += [side.now_text for side in self.sides if side.kept]
        return " ・ ".join(parts)

    @property
    def changed_places(self):
        """The labels of the places that changed, side A first ("Aリーグ 1位")."""
        return [side.label for side in (self.a, self.b) if side.changed and side.label]

    @property
    def out_of_date_text(self):
        """ "Out of date: Group A place 1 changed" (active language), "" when not out of date."""
        if not self.out_of_date:
            return ""
        places = "、".join(self.changed_places) or _("its teams")
        return _("Out of date: %(places)s changed since this game was played") % {"places": places}


def _is_kept(state, side):
    return state.frozen and not state.out_of_date and bool(state.match.kept_teams) and side.differs


def game_slots(state, names=None, kept_notes=None):
    """The ``GameSlots`` of a ``stages.SlotState``; ``names`` (team id -> name) names who fills
    the place of a kept side now, ``kept_notes`` (match pk -> the note it was kept with)."""
    sides = []
    for side in state.sides:
        kind = slot_refs.parse(side.reference).kind if side.reference else ""
        kept = _is_kept(state, side)
        sides.append(
            SideSlot(
                label=side.label,
                short=side.short,
                from_groups=kind in ("group", "best"),
                final=side.final,
                changed=state.out_of_date and side.differs,
                kept=kept,
                now=(names or {}).get(side.settled_team, "") if kept else "",
            )
        )
    note = (kept_notes or {}).get(state.match.pk, "") if any(s.kept for s in sides) else ""
    return GameSlots(*sides, out_of_date=state.out_of_date, kept_note=note)


def division_game_slots(division):
    """Match pk -> ``GameSlots`` of every knockout and placement game of ``division`` (a kept
    game's sides say who fills their places now, and carry the note it was kept with)."""
    states = division_slots(division)
    kept = [s for s in states if any(_is_kept(s, side) for side in s.sides)]
    names, notes = {}, {}
    if kept:
        wanted = {side.settled_team for s in kept for side in s.sides} - {None}
        names = dict(Team.objects.filter(pk__in=wanted).values_list("pk", "name"))
        entries = HistoryEntry.objects.filter(
            match__in=[s.match for s in kept], action=HistoryEntry.Action.KEPT
        ).order_by("at", "pk")
        notes = dict(entries.values_list("match_id", "note"))  # the newest keep of each game
    return {state.match.pk: game_slots(state, names, notes) for state in states}


def event_slots(event):
    """Match pk -> ``GameSlots`` of every knockout and placement game of ``event`` (the
    standings of each division with such games are read once)."""
    found = {}
    for division in event.divisions.filter(matches__stage__in=Match.Stage.AFTER_GROUPS).distinct():
        found.update(division_game_slots(division))
    return found


def side_text(team, slot):
    """What a side shows: the team's name, else its slot's label ("Aリーグ 1位"), else "to be
    decided" (active language)."""
    if team is not None:
        return team.name
    if slot is not None and slot.label:
        return slot.label
    return str(_("to be decided"))


@dataclass(frozen=True)
class MatchLine:
    """One game as shown in a timetable or a results list.

    ``start`` is an aware datetime (None before the schedule); ``stage`` the code of
    ``Match.Stage`` and ``stage_text`` its name; ``team_a``/``team_b`` are Teams or None
    (to be decided); ``sheet`` is the confirmed recording sheet or None, and
    ``result`` its text ("30-26", "walkover", ""). ``slots`` is the ``GameSlots`` of a
    knockout or placement game (None for a group game): ``team_a_text``/``team_b_text`` show
    a side's slot label while it has no team, ``out_of_date`` marks a game a later change
    reached."""

    match: Match
    number: int
    court: str
    start: object
    division: str
    stage: str
    stage_text: str
    group: str
    team_a: object
    team_b: object
    status: str
    sheet: RecordingSheet | None
    result: str
    slots: GameSlots | None = None

    @property
    def slot_a(self):
        return self.slots.a if self.slots else None

    @property
    def slot_b(self):
        return self.slots.b if self.slots else None

    @property
    def team_a_text(self):
        return side_text(self.team_a, self.slot_a)

    @property
    def team_b_text(self):
        return side_text(self.team_b, self.slot_b)

    @property
    def out_of_date(self):
        return bool(self.slots and self.slots.out_of_date)

    @property
    def annulled(self):
        """The game is annulled by a withdrawal (``is_annulled``): shown 無効, not as a result."""
        return is_annulled(self.match)

    @property
    def status_code(self):
        """``status``, or "annulled" for an annulled game (the API's status)."""
        return "annulled" if self.annulled else self.status

    @property
    def status_text(self):
        return status_text(self.match)

    @property
    def stage_and_group(self):
        """ "Group stage A" for a group game, the stage alone otherwise."""
        return f"{self.stage_text} {self.group}".strip()


def match_line(match, slots=None):
    """The ``MatchLine`` of a game loaded by ``match_queryset``; ``slots`` maps match pk ->
    ``GameSlots`` (``event_slots``; None: a group game's line, or no labels)."""
    sheet = confirmed_sheet(match)
    return MatchLine(
        match=match,
        number=match.match_number,
        court=match.court.name if match.court else "",
        start=match.start_at,
        division=match.division.name,
        stage=match.stage,
        stage_text=str(match.get_stage_display()),
        group=match.group.name if match.group else "",
        team_a=match.team_a,
        team_b=match.team_b,
        status=match.status,
        sheet=sheet,
        result=result_text(sheet),
        slots=(slots or {}).get(match.pk),
    )


def match_lines(event, order=("match_number",)):
    """``[MatchLine]`` of every game of ``event`` in ``order`` (field names of ``Match``)."""
    slots = event_slots(event)
    return [match_line(m, slots) for m in match_queryset(event).order_by(*order)]


def court_timetables(event):
    """``[(Court, [MatchLine])]``: each court's games by slot, courts without games left out."""
    by_court = {court.pk: (court, []) for court in event.courts.all()}
    for line in match_lines(event, order=("slot", "match_number")):
        if line.match.court_id in by_court:
            by_court[line.match.court_id][1].append(line)
    return [(court, lines) for court, lines in by_court.values() if lines]
