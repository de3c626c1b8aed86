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


@dataclass
class PlayerData:
    name: str
    furigana: str = ""
    grade: str = ""
    is_leader: bool = False
    is_substitute: bool = False


def save_team(division, name, affiliation, players, *, team=None, seed=None):
    """Create or update a team with its players (a list of ``PlayerData``).

    Names are normalised (NFKC, trimmed); the team name must be unique in the division
    after normalisation. Raises ``UserError`` on a duplicate name; nothing is saved.
    """
    key = names.name_key(name)
    clash = Team.objects.filter(division=division, name_key=key)
    if team is not None:
        clash = clash.exclude(pk=team.pk)
    if clash.exists():
        raise UserError(
            _("A team named “%(name)s” is already registered in %(division)s.")
            % {"name": names.normalize_team_name(name), "division": division.name}
        )
    with transaction.atomic():
        if team is None:
            number = (
                Team.objects.filter(division__event=division.event).aggregate(m=Max("entry_number"))["m"] or 0
            ) + 1
            team = Team(division=division, entry_number=number)
        team.name = name
        team.affiliation = affiliation
        team.seed = seed
        team.division = division
        try:
            team.save()
        except IntegrityError:
            raise UserError(_("A team with this name is already registered in this division.")) from None
        team.players.all().delete()
        Player.objects.bulk_create(
            Player(
                team=team,
                name=names.normalize_text(p.name),
                furigana=names.normalize_text(p.furigana),
                grade=p.grade,
                is_leader=p.is_leader,
                is_substitute=p.is_substitute,
                order=i,
            )
            for i, p in enumerate(players)
        )
    return team


@dataclass
class ImportReport:
    teams: list = field(default_factory=list)  # TeamEntry
    new_divisions: list = field(default_factory=list)
    problems: list = field(default_factory=list)  # ImportProblem
    imported: bool = False

    @property
    def ok(self):
        return not self.problems


def import_entries(event, parsed: ParsedEntries, *, dry_run=True):
    """Check parsed entry rows against the event and, unless ``dry_run``, save them all.

    All or nothing: when any row has a problem (from the parser, or a team name already
    registered in its division) nothing is saved. Divisions named in the file that the
    event lacks are created and listed in ``new_divisions``. Returns an ``ImportReport``.
    """
    report = ImportReport(teams=list(parsed.teams), problems=list(parsed.problems))
    existing = {d.name: d for d in event.divisions.all()}
    report.new_divisions = [name for name in parsed.divisions if name not in existing]
    registered = set(Team.objects.filter(division__event=event).values_list("division__name", "name_key"))
    for entry in parsed.teams:
        if (entry.division, names.name_key(entry.name)) in registered:
            report.problems.append(
                ImportProblem(
                    entry.row,
                    None,
                    _("Team “%(name)s” is already registered in %(division)s.")
                    % {"name": entry.name, "division": entry.division},
                )
            )
    if dry_run or not report.ok:
        return report
    backups.auto_backup("import-entries")  # only for an import that goes ahead
    with transaction.atomic():
        order = (event.divisions.aggregate(m=Max("order"))["m"] or 0) + 1
        for i, division_name in enumerate(report.new_divisions):
            existing[division_name] = Division.objects.create(event=event, name=division_name, order=order + i)
        for entry in parsed.teams:
            save_team(
                existing[entry.division],
                entry.name,
                entry.affiliation,
                [PlayerData(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in entry.players],
            )
    report.imported = True
    return report
