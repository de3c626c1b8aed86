"""A district's signed results file imported into the series' final (docs/exchange.md,
"Import").

The preview is the import itself, run in a transaction that is rolled back (as
``tournament.services.withdrawal`` does): what is shown before saving and what is saved come
from the same code. The qualifying teams are registered through
``tournament.services.registration.import_entries``, the checks of the Excel entry import (the
team name key, the limits, the warnings).
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common import dates
from common.errors import UserError
from ops import backups
from series.exchange import signing
from series.models import ImportedFile, ImportedPlacing, QualifiedTeam, SeriesEvent
from tournament.engine import names
from tournament.imports import ImportProblem, ParsedEntries, PlayerEntry, TeamEntry
from tournament.models import Group, Match, Player, Team
from tournament.services.registration import import_entries

# No district has a thousand teams in a division: a place beyond is not one of ours.
MAX_PLACE = 999
GRADE_MAX = Player._meta.get_field("grade").max_length
LIMITS = (
    ("name", names.TEAM_NAME_MAX),
    ("affiliation", names.AFFILIATION_MAX),
    ("chaperone", names.CHAPERONE_MAX),
)


@dataclass
class Qualifier:
    """A team the file sends on: its ``place`` in the district's ``division``, the final's
    ``division`` it enters, its name, affiliation and players (``PlayerEntry``)."""

    place: int
    division: str
    final_division: str
    team: TeamEntry


@dataclass
class Placing:
    """A district's final place that goes into the series ranking (``ImportedPlacing``)."""

    division: str
    place: int
    team: str
    club: str


@dataclass
class ExchangeReport:
    """The preview or the import of one results file: where it comes from, the qualifiers per
    division, the district's places, the ``refusals`` (nothing is saved while there is one) and
    the ``warnings`` (shown; the import goes ahead), and whether it was ``imported``."""

    source: str
    district: str
    event_date: str
    venue: str
    exported_at: str
    file_id: str
    sha256: str
    key_id: str = ""
    qualifiers: list = field(default_factory=list)
    placings: list = field(default_factory=list)
    refusals: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    imported: bool = False
    final_state: str = ""
    changed: bool = False

    @property
    def ok(self):
        return not self.refusals

    def by_division(self):
        """``[(final division, [Qualifier])]`` in the file's order."""
        grouped = {}
        for q in self.qualifiers:
            grouped.setdefault(q.final_division, []).append(q)
        return list(grouped.items())

    def division_map(self):
        """``[(the district's division, the final's division)]``, each pair once in the file's
        order: what the preview shows before confirming (issue 29, item 8), so a division matched
        by its grade band rather than its name is seen before the teams enter it."""
        return list(dict.fromkeys((q.division, q.final_division) for q in self.qualifiers))

    def digest(self):
        """A short fingerprint of what the preview showed: a confirm made after something else
        changed (another file imported, a team registered) shows the new preview instead."""
        rows = [(q.final_division, q.place, q.team.name) for q in self.qualifiers]
        seen = (rows, self.refusals, self.warnings, self.final_state)
        return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


def _damaged(what):
    return UserError(_("The contents of the results file are damaged (%(what)s).") % {"what": what})


def _text(data, key, what):
    value = data.get(key, "") if isinstance(data, dict) else None
    if not isinstance(value, str):
        raise _damaged(what)
    return value


def _list(data, key, what):
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list):
        raise _damaged(what)
    return value


def _rows(data, key, what):
    """The list ``data[key]`` whose items are all objects; else the file is damaged."""
    value = _list(data, key, what)
    if not all(isinstance(row, dict) for row in value):
        raise _damaged(what)
    return value


def _ref(value, what):
    """A team's reference in the file (text or a whole number, hashable); else damaged."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _damaged(what)
    return value


def _place(row, what):
    """A place in the file: a whole number from 1 to ``MAX_PLACE``; else damaged."""
    value = row.get("place")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PLACE:
        raise _damaged(what)
    return value


def _flag(player, key):
    value = player.get(key, False)
    if not isinstance(value, bool):
        raise _damaged(_("player"))
    return value


def _moment(text):
    try:
        return datetime.datetime.fromisoformat(text).isoformat()
    except ValueError:
        raise _damaged(_("time of export")) from None


def _day(text):
    try:
        return datetime.date.fromisoformat(text).isoformat() if text else ""
    except ValueError:
        raise _damaged(_("date")) from None


def _day_in_tokyo(moment) -> str:
    """The day (YYYY-MM-DD) of a stored moment in Japan time: a file imported at 00:14 JST on
    2 December says 2 December, not the UTC day before (``common.dates.to_tokyo``)."""
    return dates.to_tokyo(moment).date().isoformat()


def _target(event, signed) -> SeriesEvent:
    member = SeriesEvent.objects.select_related("series").filter(event=event).first()
    if member is None or member.series_id != signed.series.pk:
        raise UserError(
            _("%(event)s is not in the series “%(series)s” of this results file.")
            % {"event": event.title, "series": signed.series.name}
        )
    if member.role != SeriesEvent.Role.FINAL:
        raise UserError(
            _("Results files are imported into the series' final; %(event)s is not it.") % {"event": event.title}
        )
    return member


def _check_once(event, signed, payload):
    """Refuse a file of this event itself, a file imported before, or another file of an
    event whose results are already in."""
    key = _text(payload, "source_key", "source")
    if key == signing.source_key(event):
        raise UserError(_("This results file is of %(event)s itself.") % {"event": event.title})
    earlier = (
        ImportedFile.objects.filter(sha256=signed.sha256).first()
        or ImportedFile.objects.filter(file_id=signed.file_id).first()
    )
    if earlier is not None:
        raise UserError(
            _("This results file was already imported on %(date)s (file %(file)s).")
            % {"date": _day_in_tokyo(earlier.imported_at), "file": earlier.file_id[:8]}
        )
    earlier = ImportedFile.objects.filter(series=signed.series, source_key=key).first()
    if earlier is not None:
        raise UserError(
            _(
                "The results of %(source)s were already imported on %(date)s (file %(file)s); "
                "another file of the same tournament is refused."
            )
            % {"source": earlier.source, "date": _day_in_tokyo(earlier.imported_at), "file": earlier.file_id[:8]}
        )
    return key


def _match_divisions(event, divisions) -> dict:
    """File division name -> the final's Division (same name by ``names.name_key``, else the
    one division with the same grade band). Raises ``UserError`` naming every division of the
    file with teams that has no match (the file is for another division layout)."""
    finals = list(event.divisions.all())
    by_key = {names.name_key(d.name): d for d in finals}
    matched, missing = {}, []
    for division in divisions:
        name = _text(division, "name", "division")
        band = _text(division, "grade_band", "division")
        if not _list(division, "teams", "teams"):
            continue
        found = by_key.get(names.name_key(name))
        if found is None and band:
            same_band = [d for d in finals if d.grade_band and names.name_key(d.grade_band) == names.name_key(band)]
            found = same_band[0] if len(same_band) == 1 else None
        if found is None:
            missing.append(name)
        matched[name] = found
    if missing:
        raise UserError(
            _(
                "The results file has divisions the final does not have: %(missing)s (the final's divisions: "
                "%(known)s). Add or rename the division, then import again."
            )
            % {"missing": "、".join(missing), "known": "、".join(d.name for d in finals) or "—"}
        )
    _one_each(matched)
    return matched


def _one_each(matched):
    """Two divisions of the file matched to one division of the final (by grade band) are
    refused, naming them: their teams and places would mix."""
    seen = {}
    for name, division in matched.items():
        if division is None:
            continue
        if division.pk in seen:
            raise UserError(
                _("The divisions %(first)s and %(second)s of the results file both match %(division)s of the final.")
                % {"first": seen[division.pk], "second": name, "division": division.name}
            )
        seen[division.pk] = name


def _team_entry(row, division_name, team) -> TeamEntry:
    """The ``TeamEntry`` of a team of the file; damaged when a player is not an object, a flag
    is not true/false, a team has two leaders or a leader who is a substitute."""
    players = [
        PlayerEntry(
            _text(p, "name", "player"),
            names.normalize_text(_text(p, "furigana", "player")),
            _text(p, "grade", "player"),
            _flag(p, "leader"),
            _flag(p, "substitute"),
        )
        for p in _rows(team, "players", "players")
    ]
    if sum(p.is_leader for p in players) > 1 or any(p.is_leader and p.is_substitute for p in players):
        raise _damaged(_("players"))
    return TeamEntry(
        row=row,
        division=division_name,
        name=_text(team, "name", "team"),
        affiliation=_text(team, "affiliation", "team"),
        players=players,
        chaperone=_text(team, "chaperone", "team"),
    )


def _length_problems(entry) -> list:
    found = [
        ImportProblem(
            entry.row,
            None,
            _("%(field)s of “%(team)s” is longer than %(max)s characters.")
            % {"field": label, "team": entry.name, "max": limit},
        )
        for label, limit in LIMITS
        if len(getattr(entry, label)) > limit
    ]
    found += [
        ImportProblem(
            entry.row, None, _("A player's name or furigana in “%(team)s” is too long.") % {"team": entry.name}
        )
        for p in entry.players
        if len(p.name) > names.PLAYER_NAME_MAX or len(p.furigana) > names.FURIGANA_MAX
    ][:1]
    found += [
        ImportProblem(
            entry.row,
            None,
            _("The grade of %(player)s in “%(team)s” is longer than %(max)s characters.")
            % {"player": p.name[:40], "team": entry.name, "max": GRADE_MAX},
        )
        for p in entry.players
        if len(p.grade) > GRADE_MAX
    ][:1]
    return found


def _read(report, divisions, matched):
    """Fill ``report`` with the qualifiers and places of the file; the ``ParsedEntries`` of
    the qualifying teams (their rows numbered 1, 2 … in the file's order)."""
    entries, problems = [], []
    for division in divisions:
        name = division["name"]
        teams = {_ref(t.get("ref"), _("teams")): t for t in _rows(division, "teams", "teams")}
        final = matched.get(name)
        for row in _rows(division, "places", "places"):
            team = teams.get(_ref(row.get("team"), _("places")))
            if team is None:
                raise _damaged(_("places"))
            place = _place(row, _("places"))
            team_name, club = _text(team, "name", _("team")), _text(team, "affiliation", _("team"))
            report.placings.append(Placing(final.name if final else name, place, team_name, club))
        for row in _rows(division, "qualifiers", "qualifiers"):
            team = teams.get(_ref(row.get("team"), _("qualifiers")))
            if team is None or final is None:
                raise _damaged(_("qualifiers"))
            place = _place(row, _("qualifiers"))
            entry = _team_entry(len(entries) + 1, final.name, team)
            problems += _length_problems(entry)
            entries.append(entry)
            report.qualifiers.append(Qualifier(place, name, final.name, entry))
    return ParsedEntries(teams=entries, problems=problems)


def _final_state(event) -> str:
    """A fingerprint of what the import depends on in the final: its teams (division, name key,
    group, withdrawn), its groups, its games and the files imported into it. Part of the
    preview's digest: a confirm after any of them changed shows the new preview instead of
    saving (docs/exchange.md, "Import")."""
    teams = list(
        Team.objects.filter(division__event=event)
        .order_by("pk")
        .values_list("pk", "division_id", "name_key", "group_id", "withdrawn")
    )
    groups = list(Group.objects.filter(division__event=event).order_by("pk").values_list("pk", "division_id"))
    games = Match.objects.filter(event=event).count()
    files = list(ImportedFile.objects.filter(event=event).order_by("pk").values_list("file_id", flat=True))
    return hashlib.sha256(repr((teams, groups, games, files)).encode()).hexdigest()[:16]


def _drawn(report, matched):
    """The final's divisions that get qualifiers but are drawn already (docs/exchange.md,
    "A final already drawn"): with games made, a refusal (the new teams would play no game);
    drawn without games, a warning saying what to do (draw the division again, or move each
    new team into a group by hand). Returns ``(refusals, warnings)``."""
    refusals, warnings = [], []
    receiving = {q.final_division for q in report.qualifiers}
    for division in {d.pk: d for d in matched.values() if d is not None and d.name in receiving}.values():
        games = Match.objects.filter(division=division).count()
        if games:
            refusals.append(
                _(
                    "%(division)s of the final already has its schedule (%(games)s games): the imported teams "
                    "would be in no group and play no game. Import the results files before making the schedule, "
                    "or clear the schedule, import, and draw %(division)s again."
                )
                % {"division": division.name, "games": games}
            )
        elif division.groups.exists():
            warnings.append(
                _(
                    "%(division)s of the final is already drawn: the imported teams will be in no group. After "
                    "the import, draw %(division)s again, or move each imported team into a group by hand, "
                    "before making the schedule."
                )
                % {"division": division.name}
            )
    return refusals, warnings


def _save_links(event, signed, report, key, user):
    record = ImportedFile.objects.create(
        series=signed.series,
        event=event,
        file_id=signed.file_id,
        sha256=signed.sha256,
        source_key=key,
        source=report.source[:160],
        district=report.district[:60],
        exported_at=datetime.datetime.fromisoformat(report.exported_at),
        imported_by=user,
    )
    teams = {
        (t.division.name, t.name_key): t for t in Team.objects.filter(division__event=event).select_related("division")
    }
    QualifiedTeam.objects.bulk_create(
        QualifiedTeam(
            team=teams[(q.final_division, names.name_key(q.team.name))],
            series=signed.series,
            imported_file=record,
            source=report.source[:160],
            district=report.district[:60],
            division=q.division[:60],
            place=q.place,
        )
        for q in report.qualifiers
    )
    event_date = datetime.date.fromisoformat(report.event_date) if report.event_date else None
    ImportedPlacing.objects.bulk_create(
        ImportedPlacing(
            series=signed.series,
            source_key=key,
            source=report.source[:160],
            district=report.district[:60],
            event_date=event_date,
            division=p.division[:60],
            place=p.place,
            team=p.team[:60],
            club=p.club[:80],
        )
        for p in report.placings
    )


def import_results(event, data: bytes, *, user=None, preview=False, expect=None) -> ExchangeReport:
    """Import a district's results file into ``event`` (the series' final); with ``preview``
    show what it would do and save nothing (the same steps, rolled back).

    In: the final Event, the file's bytes, the organiser, and ``expect``: the digest of the
    preview the organiser confirmed (None from the command). Out: an ``ExchangeReport``; when it
    has refusals (a team name already registered in its division, a name too long, a final's
    division that already has its schedule) nothing is saved; when ``expect`` differs from the
    digest of what would be saved (the final changed since the preview) nothing is saved and
    ``changed`` is set: the report is the new preview (docs/exchange.md, "Import"). Raises
    ``UserError`` before anything is written for a file refused as a whole
    (``signing.open_signed``: damaged, cut short, changed, of another series; of this event
    itself; imported before; an event not the file's series' final; a division of the file
    the final does not have). docs/exchange.md, "Import" and "Refusals"."""
    signed = signing.open_signed(data)
    _target(event, signed)
    payload = signed.payload
    key = _check_once(event, signed, payload)
    info = payload.get("event") if isinstance(payload.get("event"), dict) else {}
    divisions = [d for d in _list(payload, "divisions", "divisions") if isinstance(d, dict)]
    matched = _match_divisions(event, divisions)
    report = ExchangeReport(
        source=_text(info, "title", "event") or _text(info, "name", "event"),
        district=_text(info, "district", "event"),
        event_date=_day(_text(info, "date", "event")),
        venue=_text(info, "venue", "event"),
        exported_at=_moment(_text(payload, "exported_at", "export")),
        file_id=signed.file_id,
        sha256=signed.sha256,
        key_id=signed.key,
        final_state=_final_state(event),
    )
    parsed = _read(report, divisions, matched)
    blocked, drawn = _drawn(report, matched)
    if not preview:
        backups.auto_backup("import-results")
    with transaction.atomic():
        entries = import_entries(event, parsed, dry_run=False, accept_warnings=True)
        report.refusals = blocked + [p.message for p in entries.problems]
        report.warnings = drawn + [w.message for w in entries.warnings]
        report.changed = expect is not None and expect != report.digest()
        if entries.imported and report.ok and not report.changed:
            try:
                with transaction.atomic():
                    _save_links(event, signed, report, key, user)
            except IntegrityError:  # the same file imported at the same moment by another page
                raise UserError(_("This results file is being imported already.")) from None
            report.imported = not preview
        if not report.imported:
            transaction.set_rollback(True)
    return report
