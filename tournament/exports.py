"""Excel exports of an event: standings per group (with the 星取表) and all games.

The workbook is built from the same functions the pages use (``division_standings``),
so the exported standings equal the standings page. Values only, never formulas; text
that looks like a formula stays text (``common.xlsx``).
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from common import downloads, xlsx
from tournament.reports import division_standings
from tournament.tables import separation_text

XLSX = downloads.XLSX


def standings_headers():
    return [
        _("rank"),
        _("team"),
        _("affiliation"),
        _("played"),
        _("won"),
        _("lost"),
        _("cards taken"),
        _("cards conceded"),
        _("card difference"),
        _("won by り"),
        _("won by じゃんけん"),
        _("placed by"),
    ]


def standings_rows(table):
    rows = []
    for row in table.rows:
        team = table.teams[row.team]
        rows.append(
            [
                f"{row.rank}=" if row.tied else row.rank,
                team.name,
                team.affiliation,
                row.played,
                row.wins,
                row.losses,
                row.cards_taken,
                row.cards_conceded,
                row.card_diff,
                row.joker_wins,
                row.rps_wins,
                str(separation_text(row)),
            ]
        )
    return rows


def cross_table_rows(table):
    order = [table.teams[r.team] for r in table.rows]
    header = [""] + [t.name for t in order]
    rows = []
    for row_team in order:
        cells = [row_team.name]
        for col_team in order:
            if row_team.pk == col_team.pk:
                cells.append("＼")
                continue
            cell = table.cells.get((row_team.pk, col_team.pk))
            cells.append(
                ""
                if cell is None
                else f"{'○' if cell[0] else '●'} {cell[1]}-{cell[2]}{(' ' + cell[3]) if cell[3] else ''}"
            )
        rows.append(cells)
    return header, rows


def games_headers():
    return [
        _("match no."),
        _("division"),
        _("stage"),
        _("group"),
        _("court"),
        _("start"),
        _("team A"),
        _("cards of A"),
        _("cards of B"),
        _("team B"),
        _("cards held by the referee"),
        _("「り」 holder"),
        _("winner"),
        _("decided by"),
        _("status"),
    ]


def games_rows(event):
    matches = (
        event.matches.select_related("division", "group", "court", "team_a", "team_b", "winner")
        .prefetch_related("sheets")
        .order_by("match_number")
    )
    rows = []
    for m in matches:
        sheet = next((s for s in m.sheets.all() if s.is_confirmed), None)
        rows.append(
            [
                m.match_number,
                m.division.name,
                str(m.get_stage_display()),
                m.group.name if m.group else "",
                m.court.name if m.court else "",
                timezone.localtime(m.start_at) if m.start_at else None,
                m.team_a.name if m.team_a else _("to be decided"),
                sheet.cards_a if sheet else None,
                sheet.cards_b if sheet else None,
                m.team_b.name if m.team_b else _("to be decided"),
                sheet.referee_cards if sheet else None,
                str(sheet.get_joker_holder_display()) if sheet and sheet.joker_holder else "",
                m.winner.name if m.winner else "",
                str(sheet.get_decided_by_display()) if sheet else "",
                str(m.get_status_display()),
            ]
        )
    return rows


def timetable_headers():
    return [_("court"), _("start"), _("match no."), _("division"), _("stage"), _("team A"), _("team B")]


def timetable_rows(event):
    matches = event.matches.select_related("division", "group", "court", "team_a", "team_b").order_by(
        "court__order", "slot", "match_number"
    )
    return [
        [
            m.court.name if m.court else "",
            timezone.localtime(m.start_at) if m.start_at else None,
            m.match_number,
            m.division.name,
            f"{m.get_stage_display()} {m.group.name if m.group else ''}".strip(),
            m.team_a.name if m.team_a else _("to be decided"),
            m.team_b.name if m.team_b else _("to be decided"),
        ]
        for m in matches
    ]


def teams_headers():
    return [
        _("No."),
        _("division"),
        _("team name"),
        _("affiliation"),
        _("group"),
        _("withdrawn"),
        _("role"),
        _("name"),
        _("furigana"),
        _("grade"),
    ]


def teams_rows(event):
    from tournament.models import Team

    rows = []
    teams = Team.objects.filter(division__event=event).select_related("division", "group").prefetch_related("players")
    for team in teams.order_by("division__order", "entry_number"):
        for player in team.players.all():
            role = _("leader") if player.is_leader else _("substitute") if player.is_substitute else ""
            rows.append(
                [
                    team.entry_number,
                    team.division.name,
                    team.name,
                    team.affiliation,
                    team.group.name if team.group else "",
                    _("yes") if team.withdrawn else "",
                    role,
                    player.name,
                    player.furigana,
                    player.grade,
                ]
            )
    return rows


# The kinds of export an organiser can pick; "teams" carries personal data (organisers only).
KINDS = ("standings", "games", "timetable", "teams")


def _standings_sheets(wb, event):
    for division in event.divisions.all():
        for table in division_standings(division):
            ws = xlsx.add_sheet(wb, f"{division.name} {table.group.name}")
            xlsx.write_cell(
                ws,
                1,
                1,
                f"{event.title} {division.name} {table.group} ・ {_('ranking order')}: {division.criteria_text}",
            )
            last = xlsx.write_table(ws, standings_headers(), standings_rows(table), start_row=2)
            xlsx.write_cell(ws, last + 2, 1, _("Cross table (星取表)"))
            header, rows = cross_table_rows(table)
            xlsx.write_table(ws, header, rows, start_row=last + 3, freeze=False, autofilter=False)


def event_workbook(event, kinds=("standings", "games")):
    """The event's results as .xlsx bytes, with the chosen kinds of sheet.

    ``kinds`` from ``KINDS``: "standings" (one sheet per group: every tie-break column,
    rank with "=" for a shared rank, the criterion that placed each team, and the
    星取表 grid below), "games" (all games with their results, JST start times),
    "timetable" (per court, in order) and "teams" (teams with players' names,
    furigana and grades: personal data, for organisers only). Raises ``ValueError``
    for an unknown kind.
    """
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown export kinds: {sorted(unknown)}")
    wb = Workbook()
    wb.remove(wb.active)
    if "standings" in kinds:
        _standings_sheets(wb, event)
    if "games" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("All games")), games_headers(), games_rows(event))
    if "timetable" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("Timetable")), timetable_headers(), timetable_rows(event))
    if "teams" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("Teams and players")), teams_headers(), teams_rows(event))
    if not wb.sheetnames:
        xlsx.add_sheet(wb, _("Empty"))
    return xlsx.workbook_bytes(wb)


def problems_workbook(problems):
    """An entry sheet's problems as .xlsx bytes: row, column, problem (the import report)."""
    wb = Workbook()
    wb.remove(wb.active)
    ws = xlsx.add_sheet(wb, _("Problems"))
    xlsx.write_table(ws, [_("row"), _("column"), _("problem")], [[p.row, p.column or "", p.message] for p in problems])
    return xlsx.workbook_bytes(wb)
