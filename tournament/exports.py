"""Excel exports of an event: standings per group (with the 星取表) and all games.

The workbook reads the read side (``tournament.reports``) like the pages, the PDFs and
the JSON API, so the exported standings equal the standings page. Values only, never formulas; text
that looks like a formula stays text (``common.xlsx``).
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from common import csv_text, downloads, xlsx
from tournament import reports
from tournament.reports.ranking import division_rankings

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
        _("won by 「り」"),
        _("won by rock-paper-scissors"),
        _("placed by"),
        _("remarks"),
    ]


def standings_rows(lines):
    """Spreadsheet rows of a group's standings from its ``reports.StandingLine`` rows; the
    last column notes 棄権 (withdrawn) or 暫定 (provisional, with the games left). A
    withdrawn team whose games are annulled has "—" for its rank and its figures."""
    return [
        [
            line.rank_text if line.tied or line.annulled else line.rank,
            line.team.name,
            line.team.affiliation,
            *(
                ["—"] * 8
                if line.annulled
                else [
                    line.played,
                    line.wins,
                    line.losses,
                    line.cards_taken,
                    line.cards_conceded,
                    line.card_diff,
                    line.joker_wins,
                    line.rps_wins,
                ]
            ),
            line.decided_by_text,
            line.note,
        ]
        for line in lines
    ]


# The diagonal of the 星取表 (a team against itself) in a spreadsheet cell.
SELF_CELL = "＼"


def cross_table_rows(cross):
    """The 星取表 (``reports.CrossTable``) as a header row and rows of text cells."""
    header = [""] + [t.name for t in cross.teams]
    rows = [[team.name] + [SELF_CELL if cell.is_self else cell.text for cell in cells] for team, cells in cross.grid]
    return header, rows


def decided_by_text(code):
    """What decided a game, in the workbook's language: cards, 「り」, rock-paper-scissors
    (「じゃんけん」 in Japanese) or walkover (the sheet's own choice label says じゃんけん in
    English too)."""
    texts = {
        "cards": _("cards"),
        "joker": "「り」",
        "rps": _("rock-paper-scissors"),
        "walkover": _("walkover"),
    }
    return texts.get(code, code)


def matches_headers():
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
        _("source of A"),
        _("source of B"),
        _("out of date"),
    ]


def _source(slot):
    """A side's source in a cell: "Aリーグ 1位 (A1)", "" for a group game or a team fixed by hand."""
    if slot is None or not slot.label:
        return ""
    if slot.kept:
        return f"{slot.label} ({slot.kept_text})"  # the team played as this place; it is not it now
    return f"{slot.label} ({slot.short})" if slot.short else slot.label


def _team_cell(team, text):
    """A side's team cell: its text, with the 棄権 mark for a withdrawn team (issue 15 acceptance,
    item 9)."""
    if team is not None and team.withdrawn:
        return f"{text} ({_('withdrawn')})"
    return text


def matches_rows(event):
    """Spreadsheet rows of every game by match number, with its confirmed result. A knockout
    or placement side without a team shows its slot's label ("Aリーグ 1位"), the source
    columns say where each side comes from, and the last column marks a game a later change
    left out of date, naming the places that changed."""
    rows = []
    for line in reports.match_lines(event):
        m, sheet = line.match, line.sheet
        rows.append(
            [
                line.number,
                line.division,
                line.stage_text,
                line.group,
                line.court,
                timezone.localtime(line.start) if line.start else None,
                line.team_a_text,
                sheet.cards_a if sheet else None,
                sheet.cards_b if sheet else None,
                line.team_b_text,
                sheet.referee_cards if sheet else None,
                str(sheet.get_joker_holder_display()) if sheet and sheet.joker_holder else "",
                m.winner.name if m.winner else "",
                decided_by_text(sheet.decided_by) if sheet else "",
                line.status_text,
                _source(line.slot_a),
                _source(line.slot_b),
                line.slots.out_of_date_text if line.out_of_date else "",
            ]
        )
    return rows


def knockout_headers():
    return [
        _("division"),
        _("stage"),
        _("match no."),
        _("source of A"),
        _("team A"),
        _("cards of A"),
        _("cards of B"),
        _("team B"),
        _("source of B"),
        _("winner"),
        _("out of date"),
        _("kept"),
    ]


def knockout_rows(event):
    """Spreadsheet rows of every division's knockout and placement games in bracket order: each
    side's source ("Aリーグ 1位 (A1)"), its team or, while it has none, its slot's label, the
    confirmed cards, the winner, the out-of-date mark naming the places that changed, and the
    kept mark (the note, and who fills a kept side's place now)."""
    rows = []
    for bracket in reports.division_brackets(event):
        for g in bracket.matches:
            line = reports.match_line(g, bracket.slots)
            sheet = line.sheet
            rows.append(
                [
                    line.division,
                    line.stage_text,
                    line.number,
                    _source(line.slot_a),
                    _team_cell(g.team_a, line.team_a_text),
                    sheet.cards_a if sheet else None,
                    sheet.cards_b if sheet else None,
                    _team_cell(g.team_b, line.team_b_text),
                    _source(line.slot_b),
                    g.winner.name if g.winner else "",
                    line.slots.out_of_date_text if line.out_of_date else "",
                    line.slots.kept_text if line.slots else "",
                ]
            )
    return rows


def timetable_headers():
    return [_("court"), _("start"), _("match no."), _("division"), _("stage"), _("team A"), _("team B")]


def timetable_rows(event):
    """Spreadsheet rows of the timetable: per court in order, then by slot (a side without a
    team shows its slot's label)."""
    return [
        [
            line.court,
            timezone.localtime(line.start) if line.start else None,
            line.number,
            line.division,
            line.stage_and_group,
            line.team_a_text,
            line.team_b_text,
        ]
        for line in reports.match_lines(event, order=("court__order", "slot", "match_number"))
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
    rows = []
    for team in reports.teams_with_players(event):
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


def individual_headers():
    return [
        _("division"),
        _("grade"),
        _("rank"),
        _("name"),
        _("furigana"),
        _("team name"),
        _("affiliation"),
        _("cards"),
        _("games played"),
    ]


def individual_rows(event):
    """The individual table (personal data: organisers only), one row per player and block."""
    return [
        [
            block.division.name,
            block.grade,
            line.rank_text,
            line.name,
            line.furigana,
            line.team,
            line.affiliation,
            line.cards,
            line.games,
        ]
        for block in reports.individual_table(event)
        for line in block.lines
    ]


def ranking_headers():
    return [_("division"), _("place"), _("team"), _("affiliation"), _("how the place was decided"), _("remarks")]


def ranking_rows(event):
    """Spreadsheet rows of the final ranking (成績一覧, issue 19 item 5): per division its places
    decided so far, best first, with how each was decided (final, third-place game, joint
    third, a placement game, a group) and "to be confirmed" where the final results say 要確認
    (``tournament.reports.ranking``: the places of the final results PDF); a division not
    finished ends with a row saying so. Team names and affiliations only, never players'
    names: the sheet is in the public workbook too."""
    rows = []
    for ranking in division_rankings(event):
        name = ranking.division.name
        rows += [
            [name, line.place, line.team.name, line.team.affiliation, line.how_text, _confirm_text(line)]
            for line in ranking.lines
        ]
        if not ranking.finished:
            rows.append([name, "", "", "", "", ranking.state_text])
    return rows


def _confirm_text(line):
    if line.to_confirm:
        return _("to be confirmed")
    return ""


# The kinds of export an organiser can pick; "teams" and "individual" carry personal data
# (organisers only).
KINDS = ("ranking", "standings", "games", "timetable", "teams", "individual")


def _standings_sheets(wb, event):
    for division, groups in reports.event_standings(event):
        for group in groups:
            ws = xlsx.add_sheet(wb, f"{division.name} {group.group.name}")
            state = f" ・ {_('provisional')}" if group.provisional else ""
            xlsx.write_cell(
                ws,
                1,
                1,
                f"{event.title} {division.name} {group.group}{state} ・ {_('ranking order')}: {division.criteria_text}",
            )
            last = xlsx.write_table(ws, standings_headers(), standings_rows(group.lines), start_row=2)
            xlsx.write_cell(ws, last + 2, 1, _("Cross table"))
            header, rows = cross_table_rows(group.cross)
            xlsx.write_table(ws, header, rows, start_row=last + 3, freeze=False, autofilter=False)


# The tables that have a CSV beside the workbook (issue 34 item 3).
CSV_KINDS = ("games", "standings")


def standings_csv_headers():
    """The standings sheets' columns, after the division and the group (a CSV has one table,
    the workbook one sheet per group)."""
    return [_("division"), _("group"), *standings_headers()]


def standings_csv_rows(event):
    """Every group's standings rows (``standings_rows``), each after its division and group."""
    return [
        [division.name, group.group.name, *row]
        for division, groups in reports.event_standings(event)
        for group in groups
        for row in standings_rows(group.lines)
    ]


def event_csv(event, kind):
    """One table of the workbook as CSV bytes (``common.csv_text``: UTF-8 with BOM).

    ``kind`` from ``CSV_KINDS``: "games" is the "All games" sheet (``matches_headers`` and
    ``matches_rows``, same columns and order); "standings" is every group's standings sheet
    in one table, the division and group in front. Raises ``ValueError`` for another kind."""
    if kind == "games":
        return csv_text.csv_bytes(matches_headers(), matches_rows(event))
    if kind == "standings":
        return csv_text.csv_bytes(standings_csv_headers(), standings_csv_rows(event))
    raise ValueError(f"no CSV of {kind!r}")


def event_workbook(event, kinds=("ranking", "standings", "games")):
    """The event's results as .xlsx bytes, with the chosen kinds of sheet.

    ``kinds`` from ``KINDS``: "ranking" (the final ranking, ``ranking_rows``), "standings" (one sheet per group: every tie-break column,
    rank with "=" for a shared rank, the criterion that placed each team, and the
    星取表 grid below), "games" (all games with their results, JST start times, and a
    "Knockout" sheet of the games after the groups with each side's source when there are
    any),
    "timetable" (per court, in order) and "teams" (teams with players' names,
    furigana and grades: personal data, for organisers only) and "individual" (個人成績:
    each player's cards over the group stage, ranked per division and grade; personal
    data, for organisers only). Raises ``ValueError``
    for an unknown kind.
    """
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown export kinds: {sorted(unknown)}")
    wb = Workbook()
    wb.remove(wb.active)
    if "ranking" in kinds:
        ws = xlsx.add_sheet(wb, _("Final ranking"))
        xlsx.write_cell(ws, 1, 1, f"{event.title} ・ {_('Final ranking')}")
        xlsx.write_table(ws, ranking_headers(), ranking_rows(event), start_row=2)
    if "standings" in kinds:
        _standings_sheets(wb, event)
    if "games" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("All games")), matches_headers(), matches_rows(event))
        knockout = knockout_rows(event)
        if knockout:
            xlsx.write_table(xlsx.add_sheet(wb, _("Knockout")), knockout_headers(), knockout)
    if "timetable" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("Timetable")), timetable_headers(), timetable_rows(event))
    if "teams" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("Teams and players")), teams_headers(), teams_rows(event))
    if "individual" in kinds:
        xlsx.write_table(xlsx.add_sheet(wb, _("Individual")), individual_headers(), individual_rows(event))
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
