"""The series ranking as an Excel workbook (``common.xlsx``: text never a formula, widths for
Japanese): one sheet per division, one for the clubs, one with the events and the points table."""

from django.utils.translation import gettext as _
from openpyxl import Workbook

from common import xlsx
from series.ranking import rank_text


def ranking_headers(club_column=True):
    """The column heads of a ranking sheet, in the active language."""
    heads = [_("rank"), _("team name") if club_column else _("club")]
    heads += [_("affiliation")] if club_column else []
    return heads + [_("points"), _("1st places"), _("2nd places"), _("3rd places"), _("explanation")]


def ranking_rows(rows, explain, club_column=True):
    """One list per row: rank (a number; the text 「2=」 only for a rank shared by a tie), name, [club], points, its 1st/2nd/3rd places, and
    the explanation (「北部予選 優勝 10 + 決勝大会 第3位 5 = 15」, 「要確認」 when a place is)."""
    lines = []
    for row in rows:
        counts = [row.places[i] if len(row.places) > i else 0 for i in range(3)]
        text = explain(row) + (f" ({_('to confirm')})" if row.to_confirm else "")
        rank = rank_text(row) if row.tied else row.rank
        lines.append([rank, row.name, *([row.club] if club_column else []), row.points, *counts, text])
    return lines


def series_workbook(standings):
    """``standings`` (``series.ranking.SeriesStandings``) as .xlsx bytes."""
    wb = Workbook()
    wb.remove(wb.active)
    for division in standings.divisions:
        ws = xlsx.add_sheet(wb, division.name)
        xlsx.write_table(ws, ranking_headers(), ranking_rows(division.rows, standings.explain))
    ws = xlsx.add_sheet(wb, _("Clubs"))
    xlsx.write_table(ws, ranking_headers(False), ranking_rows(standings.clubs, standings.club_explain, False))
    ws = xlsx.add_sheet(wb, _("Events and points"))
    rows = [[label, date] for label, date in standings.events]
    last = xlsx.write_table(ws, [_("tournament"), _("date")], rows)
    xlsx.write_table(
        ws,
        [_("place"), _("points")],
        [[place, value] for place, value in enumerate(standings.table, start=1)],
        start_row=last + 2,
        freeze=False,
        autofilter=False,
    )
    return xlsx.workbook_bytes(wb)
