"""Excel exports of an event: standings per group (with the 星取表) and all games.

The workbook is built from the same functions the pages use (``division_standings``),
so the exported standings equal the standings page. Values only, never formulas; text
that looks like a formula stays text (``tournament.xlsx``).
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from tournament import xlsx
from tournament.services import division_standings
from tournament.tables import separation_text

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def standings_headers():
    return [
        _("rank"), _("team"), _("affiliation"), _("played"), _("won"), _("lost"), _("cards taken"),
        _("cards conceded"), _("card difference"), _("won by り"), _("won by じゃんけん"), _("placed by"),
    ]


def standings_rows(table):
    rows = []
    for row in table.rows:
        team = table.teams[row.team]
        rows.append([
            f"{row.rank}=" if row.tied else row.rank, team.name, team.affiliation, row.played, row.wins, row.losses,
            row.cards_taken, row.cards_conceded, row.card_diff, row.joker_wins, row.rps_wins, str(separation_text(row)),
        ])
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
            cells.append("" if cell is None else f"{'○' if cell[0] else '●'} {cell[1]}-{cell[2]}{(' ' + cell[3]) if cell[3] else ''}")
        rows.append(cells)
    return header, rows


def games_headers():
    return [
        _("match no."), _("division"), _("stage"), _("group"), _("court"), _("start"), _("team A"), _("cards of A"),
        _("cards of B"), _("team B"), _("cards held by the referee"), _("「り」 holder"), _("winner"), _("decided by"),
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
        rows.append([
            m.match_number, m.division.name, str(m.get_stage_display()), m.group.name if m.group else "",
            m.court.name if m.court else "", timezone.localtime(m.start_at) if m.start_at else None,
            m.team_a.name if m.team_a else _("to be decided"),
            sheet.cards_a if sheet else None, sheet.cards_b if sheet else None,
            m.team_b.name if m.team_b else _("to be decided"),
            sheet.referee_cards if sheet else None,
            str(sheet.get_joker_holder_display()) if sheet and sheet.joker_holder else "",
            m.winner.name if m.winner else "",
            str(sheet.get_decided_by_display()) if sheet else "",
            str(m.get_status_display()),
        ])
    return rows


def event_workbook(event):
    """The event's results as .xlsx bytes: one sheet per group, then all games.

    Each group sheet holds the standings (every tie-break column, rank with "=" for a
    shared rank, and the criterion that placed the team) and the 星取表 below them.
    """
    wb = Workbook()
    wb.remove(wb.active)
    for division in event.divisions.all():
        for table in division_standings(division):
            ws = xlsx.add_sheet(wb, f"{division.name} {table.group.name}")
            xlsx.write_cell(ws, 1, 1, f"{event.title} {division.name} {table.group}")
            last = xlsx.write_table(ws, standings_headers(), standings_rows(table), start_row=2)
            header, rows = cross_table_rows(table)
            xlsx.write_table(ws, header, rows, start_row=last + 2, freeze=False, autofilter=False)
    ws = xlsx.add_sheet(wb, _("All games"))
    xlsx.write_table(ws, games_headers(), games_rows(event))
    return xlsx.workbook_bytes(wb)

