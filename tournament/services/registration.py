"""Registering teams: one team typed in, or a whole entry workbook at once (all or nothing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import UserError
from ops import backups
from tournament.engine import names
from tournament.imports import ImportProblem, ParsedEntries
from tournament.models import (
    Division,
    Player,
    Team,
)


def lookalike_note(typed, stored) -> str:
    """A sentence for the organiser when ``typed`` and ``stored`` are one name by
    ``names.name_key`` though spelt differently by an invisible mark only (a variation selector
    such as 葛󠄀 / 葛, a zero-width character: issue 28, item 8), else ``""``. Appended to the
    refusal or warning of a duplicate so the organiser sees why two names that look different
    are one."""
    if not names.differ_only_invisibly(typed, stored):
        return ""
    return " " + _(
        "The two spellings differ only by an invisible mark (a variation selector or a zero-width "
        "character), so they count as one name."
    )


@dataclass
class PlayerData:
    name: str
    furigana: str = ""
    grade: str = ""
    is_leader: bool = False
    is_substitute: bool = False


def save_team(division, name, affiliation, players, *, team=None, seed=None, chaperone=""):
    """Create or update a team with its players (a list of ``PlayerData``) and its 引率者.

    Names keep the spelling typed (trimmed, spaces collapsed: ``names.clean_display``); the
    team name must be unique in the division by ``names.name_key`` (issue 18, item 7: one key
    for forms, import and the database constraint). Raises ``UserError`` on a duplicate name;
    nothing is saved. An edited team keeps the rows of the players still in it, matched by
    ``names.name_key`` (``_save_players``): what hangs on a player (a club's absence report on
    the day, the players' cards of recorded games) survives an edit (issue 20 item 4).
    """
    key = names.name_key(name)
    clash = Team.objects.filter(division=division, name_key=key)
    if team is not None:
        clash = clash.exclude(pk=team.pk)
    other = clash.first()
    if other is not None:
        raise UserError(
            _("A team named “%(name)s” is already registered in %(division)s.")
            % {"name": other.name, "division": division.name}
            + lookalike_note(names.normalize_team_name(name), other.name)
        )
    with transaction.atomic():
        if team is None:
            number = (
                Team.objects.filter(division__event=division.event).aggregate(m=Max("entry_number"))["m"] or 0
            ) + 1
            team = Team(division=division, entry_number=number)
        team.name = name
        team.affiliation = affiliation
        team.chaperone = chaperone
        team.seed = seed
        team.division = division
        try:
            team.save()
        except IntegrityError:
            raise UserError(_("A team with this name is already registered in this division.")) from None
        _save_players(team, players)
    return team


def _save_players(team, players) -> None:
    """Write ``players`` (``PlayerData``, in order) as ``team``'s players: a player already in the
    team (same ``names.name_key``, first match in order) keeps its row and is updated, the others
    are created; the team's players not typed again are deleted (with what hangs on them)."""
    kept: dict[str, list[Player]] = {}
    for row in team.players.order_by("order", "pk"):
        kept.setdefault(names.name_key(row.name), []).append(row)
    update, create = [], []
    for i, p in enumerate(players):
        same = kept.get(names.name_key(p.name))
        row = same.pop(0) if same else Player(team=team)
        row.name, row.furigana, row.grade = names.clean_display(p.name), names.normalize_text(p.furigana), p.grade
        row.is_leader, row.is_substitute, row.order = p.is_leader, p.is_substitute, i
        (update if row.pk else create).append(row)
    gone = [row.pk for rows in kept.values() for row in rows]
    if gone:
        Player.objects.filter(pk__in=gone).delete()
    if update:
        # The leader moves among kept rows: clear it first (one leader per team, a constraint).
        Player.objects.filter(pk__in=[row.pk for row in update], is_leader=True).update(is_leader=False)
        Player.objects.bulk_update(update, ["name", "furigana", "grade", "is_leader", "is_substitute", "order"])
    Player.objects.bulk_create(create)


@dataclass
class ImportReport:
    """The dry run or the import of a parsed workbook: the teams, the divisions to create, the
    problems (nothing is imported while there is one) and the warnings (accepted by the
    organiser before the import), the sheet read and the other sheets that look like entries."""

    teams: list = field(default_factory=list)  # TeamEntry
    new_divisions: list = field(default_factory=list)
    problems: list = field(default_factory=list)  # ImportProblem
    warnings: list = field(default_factory=list)  # ImportProblem
    imported: bool = False
    sheet: str = ""
    other_sheets: list = field(default_factory=list)

    @property
    def ok(self):
        return not self.problems


def import_entries(event, parsed: ParsedEntries, *, dry_run=True, accept_warnings=False):
    """Check parsed entry rows against the event and, unless ``dry_run``, save them all.

    All or nothing: when any row has a problem (from the parser, or a team name already
    registered in its division by ``names.name_key``) nothing is saved. Warnings (from the
    parser; a grade outside the division's band, a player already in a registered team:
    issue 18, item 6) do not stop the import once the organiser accepts them; without
    *accept_warnings* a report with warnings is not imported. Divisions named in the file that
    the event lacks (compared by ``name_key``) are created and listed in ``new_divisions``.
    Returns an ``ImportReport``.
    """
    report = ImportReport(
        teams=list(parsed.teams),
        problems=list(parsed.problems),
        warnings=list(parsed.warnings),
        sheet=parsed.sheet,
        other_sheets=list(parsed.other_sheets),
    )
    existing = {names.name_key(d.name): d for d in event.divisions.all()}
    report.new_divisions = [name for name in parsed.divisions if names.name_key(name) not in existing]
    _check_registered(event, parsed, report)
    _check_bands(existing, parsed, report)
    report.warnings.sort(key=lambda p: -1 if p.row is None else p.row)
    if dry_run or not report.ok or (report.warnings and not accept_warnings):
        return report
    backups.auto_backup("import-entries")  # only for an import that goes ahead
    with transaction.atomic():
        order = (event.divisions.aggregate(m=Max("order"))["m"] or 0) + 1
        for i, division_name in enumerate(report.new_divisions):
            existing[names.name_key(division_name)] = Division.objects.create(
                event=event, name=division_name, order=order + i
            )
        for entry in parsed.teams:
            save_team(
                existing[names.name_key(entry.division)],
                entry.name,
                entry.affiliation,
                [PlayerData(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in entry.players],
                chaperone=entry.chaperone,
            )
    report.imported = True
    return report


def _check_registered(event, parsed: ParsedEntries, report: ImportReport) -> None:
    """A team already registered in its division is a problem; a player already in a
    registered team of the event is a warning."""
    teams = Team.objects.filter(division__event=event).select_related("division").prefetch_related("players")
    registered = {(names.name_key(t.division.name), t.name_key): t for t in teams}
    players = {names.name_key(p.name): (p, t) for t in teams for p in t.players.all()}
    for entry in parsed.teams:
        same = registered.get((names.name_key(entry.division), names.name_key(entry.name)))
        if same is not None:
            report.problems.append(
                ImportProblem(
                    entry.row,
                    None,
                    _("Team “%(name)s” is already registered in %(division)s.")
                    % {"name": entry.name, "division": entry.division}
                    + lookalike_note(entry.name, same.name),
                )
            )
            continue
        for player in entry.players:
            found = players.get(names.name_key(player.name))
            if found is not None:
                report.warnings.append(
                    ImportProblem(
                        entry.row,
                        None,
                        _("%(player)s is already entered in the registered team “%(team)s”.")
                        % {"player": player.name, "team": found[1].name}
                        + lookalike_note(player.name, found[0].name),
                    )
                )


def _check_bands(divisions: dict, parsed: ParsedEntries, report: ImportReport) -> None:
    """A player whose grade lies outside the division's grade band is a warning."""
    for entry in parsed.teams:
        division = divisions.get(names.name_key(entry.division))
        if division is None or not division.grade_band:
            continue
        for player in entry.players:
            if not names.grade_in_band(player.grade, division.grade_band):
                report.warnings.append(
                    ImportProblem(
                        entry.row,
                        None,
                        _("%(player)s (%(grade)s) is outside the grades of %(division)s (%(band)s).")
                        % {
                            "player": player.name,
                            "grade": player.grade,
                            "division": division.name,
                            "band": division.grade_band,
                        },
                    )
                )
