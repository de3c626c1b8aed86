"""Paper from the database: builds the plain records of ``tournament.paper`` and returns PDFs.

Reads the same functions as the pages (standings, bracket), so paper, screen and Excel
agree. Personal data (players' names, furigana, grades) only goes into the reception
list and, when asked for, the results list: callers check who may have them.
"""

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from judging.paper.touch_matrix import touch_matrix_pdf
from tournament import paper
from tournament.models import Player, Team
from tournament.reports import division_standings
from tournament.tables import separation_text

PLACES = {1: "優勝", 2: "準優勝", 3: "第3位"}


def event_info(event):
    return paper.EventInfo(
        name=event.name, edition=event.edition, date=event.date, venue=event.venue, japanese_era=event.japanese_era
    )


def _stage(match):
    return str(match.get_stage_display())


def court_timetables(event):
    """対戦表: one page per court with its games in order (results written in as they come)."""
    matches = event.matches.select_related("division", "group", "court", "team_a", "team_b").prefetch_related("sheets")
    by_court = {court.pk: (court, []) for court in event.courts.all()}
    for m in matches.order_by("slot", "match_number"):
        if m.court_id not in by_court:
            continue
        sheet = next((s for s in m.sheets.all() if s.is_confirmed), None)
        result = "" if sheet is None else (_("walkover") if sheet.is_walkover else f"{sheet.cards_a}-{sheet.cards_b}")
        by_court[m.court_id][1].append(
            paper.TimetableMatch(
                match_number=m.match_number,
                start=m.start_at,
                division=m.division.name,
                stage=_stage(m),
                group=m.group.name if m.group else "",
                team_a=m.team_a.name if m.team_a else None,
                team_b=m.team_b.name if m.team_b else None,
                result=str(result),
            )
        )
    courts = [(str(court), games) for court, games in by_court.values() if games]
    return paper.court_timetables_pdf(event_info(event), courts)


def reception_list(event):
    """受付名簿 with furigana and a check-in box per player (personal data: organisers only)."""
    teams = (
        Team.objects.filter(division__event=event)
        .select_related("division")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("order")))
        .order_by("division__order", "entry_number")
    )
    return paper.reception_list_pdf(
        event_info(event),
        [
            paper.ReceptionTeam(
                entry_number=t.entry_number,
                division=t.division.name,
                name=t.name,
                affiliation=t.affiliation,
                players=[
                    paper.ReceptionPlayer(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute)
                    for p in t.players.all()
                ],
            )
            for t in teams
        ],
    )


def standings(event):
    """順位表 with the 星取表 of every group and the criterion that placed each team."""
    from tournament.exports import cross_table_rows

    groups = []
    notes = []
    for division in event.divisions.all():
        notes.append(f"{division.name}: {division.criteria_text}")
        for table in division_standings(division):
            lines = [
                paper.StandingLine(
                    rank=f"{row.rank}=" if row.tied else str(row.rank),
                    team=table.teams[row.team].name,
                    affiliation=table.teams[row.team].affiliation,
                    played=row.played,
                    wins=row.wins,
                    losses=row.losses,
                    cards_taken=row.cards_taken,
                    cards_conceded=row.cards_conceded,
                    card_diff=row.card_diff,
                    decided_by=str(separation_text(row)),
                )
                for row in table.rows
            ]
            _header, rows = cross_table_rows(table)
            cross = [[("" if cell == "＼" else cell) for cell in row[1:]] for row in rows]
            groups.append(
                paper.GroupSheet(
                    division=division.name,
                    group=str(table.group),
                    court=str(table.group.court or ""),
                    lines=lines,
                    cross=cross,
                )
            )
    return paper.standings_pdf(
        event_info(event), groups, precedence_note=str(_("ranking order")) + ": " + " / ".join(notes)
    )


def bracket(event):
    """トーナメント表 of every division with a knockout."""
    from tournament.views import bracket_context

    divisions = []
    for division, rounds, third, _joint in bracket_context(event):

        def record(g):
            sheet = g.confirmed_sheets[0] if g.confirmed_sheets else None
            winner = None
            if g.winner_id:
                winner = "A" if g.winner_id == g.team_a_id else "B"
            return paper.BracketMatch(
                round=g.round,
                position=g.bracket_position or 0,
                stage=_stage(g),
                match_number=g.match_number,
                team_a=g.team_a.name if g.team_a else None,
                team_b=g.team_b.name if g.team_b else None,
                score_a=str(sheet.cards_a) if sheet else "",
                score_b=str(sheet.cards_b) if sheet else "",
                winner=winner,
            )

        divisions.append((division.name, [record(g) for games in rounds for g in games], [record(g) for g in third]))
    return paper.bracket_pdf(event_info(event), divisions)


def final_places(event):
    """Per division: [(place, Team)] for the winner, runner-up and third place(s), as decided so far."""
    from tournament.views import bracket_context

    result = []
    for division, rounds, third, joint_third in bracket_context(event):
        final = rounds[-1][0] if rounds and rounds[-1] else None
        places = []
        if final is not None and final.has_result:
            places.append((PLACES[1], final.winner))
            places.append((PLACES[2], final.team_b if final.winner_id == final.team_a_id else final.team_a))
        places += [(PLACES[3], g.winner) for g in third if g.has_result]
        places += [(PLACES[3], team) for team in joint_third]
        if places:
            result.append((division, places))
    return result


def final_results(event, with_names=False):
    """成績一覧 (敬称略): winner, runner-up and third place(s) of each division."""
    divisions = [
        (
            division.name,
            [
                paper.ResultEntry(
                    place=place,
                    team=team.name,
                    affiliation=team.affiliation,
                    players=[p.name for p in team.players.all()] if with_names else [],
                )
                for place, team in places
            ],
        )
        for division, places in final_places(event)
    ]
    return paper.final_results_pdf(event_info(event), divisions)


def touch_matrix():
    return touch_matrix_pdf()


KINDS = {
    "timetables": court_timetables,
    "reception": reception_list,
    "standings": standings,
    "bracket": bracket,
    "results": final_results,
}
