"""The read side (``tournament.reports``) is the one source of what every medium shows:
the organiser's standings page, the Excel workbook, the standings PDF and the JSON API
agree, and the final places come from the pure podium engine."""

import re
from io import BytesIO

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament import exports, printing, reports
from tournament.engine import podium
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture
def tied(db):
    """One group of three teams in a perfect cycle 1 > 2 > 3 > 1, every game 29–27: all
    three share rank 1 ("1=") on every criterion; a second group of two has no tie."""
    event = factories.make_event(courts=2, slug="tie")
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3, prefix="巡")
    other = factories.make_division(event, name="中学生の部", courts=[2])
    factories.make_teams(other, 2, prefix="単")
    draw_groups(event, seed=1)
    make_schedule(event)
    order = {t.pk: t.entry_number for t in division.teams.all()}
    for match in Match.objects.filter(event=event).select_related("event").order_by("match_number"):
        if match.division_id == division.pk:
            a_wins = (order[match.team_b_id] - order[match.team_a_id]) % 3 == 1
        else:
            a_wins = match.team_a.entry_number < match.team_b.entry_number
        values = (29, 27, 0, rules.JokerHolder.A) if a_wins else (27, 29, 0, rules.JokerHolder.B)
        record_confirmed_result(match, rules.SheetValues(*values))
    return event, division


def test_the_read_side_marks_a_shared_rank_once(tied):
    event, division = tied
    [group] = reports.group_standings(division)
    assert [line.rank_text for line in group.lines] == ["1=", "1=", "1="]
    assert all(line.tied and line.decided_by == "tied" for line in group.lines)
    assert [len(block) for block in group.blocks] == [3]


def test_page_workbook_pdf_and_api_agree_on_the_ranks_of_a_tied_group(tied, client, django_user_model):
    event, division = tied
    [group] = reports.group_standings(division)
    expected = [(line.rank_text, line.team.name) for line in group.lines]
    assert [rank for rank, _name in expected] == ["1=", "1=", "1="]

    # The organiser's standings page: the group's table rows in order.
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    html = client.get(f"/manage/{event.slug}/standings/").content.decode()
    table = html.split('class="table standings"', 1)[1].split("</table>", 1)[0]
    cells = [re.findall(r"<td[^>]*>\s*(.*?)\s*</td>", row, re.S) for row in table.split("<tr")[2:]]
    assert [(row[0], row[1]) for row in cells] == expected

    # The Excel workbook: the group's sheet, rank and team columns.
    wb = load_workbook(BytesIO(exports.event_workbook(event, ["standings"])))
    ws = wb[f"{division.name} {group.group.name}"]
    sheet_rows = [(rank, name) for rank, name, *_ in ws.iter_rows(min_row=3, max_row=5, values_only=True)]
    assert sheet_rows == expected

    # The standings PDF: each line of the table reads rank, row number, team name.
    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(printing.standings(event))).pages)
    names = "|".join(re.escape(name) for _rank, name in expected)
    assert re.findall(rf"^(\d+=?)\n\d+\n({names})$", text, re.M) == expected

    # The JSON API.
    document = client.get(f"/api/v1/events/{event.slug}/standings").json()
    [api_division] = [d for d in document["divisions"] if d["id"] == division.pk]
    rows = api_division["groups"][0]["rows"]
    assert [(r["rank_text"], r["team"]["name"]) for r in rows] == expected
    assert all(r["tied"] and r["rank"] == 1 and r["decided_by"] == "tied" for r in rows)


def test_the_cross_table_has_a_self_cell_and_scores_from_the_row_teams_side(tied):
    _event, division = tied
    [group] = reports.group_standings(division)
    for team, cells in group.cross.grid:
        assert [c.is_self for c in cells] == [t.pk == team.pk for t in group.cross.teams]
        played = [c for c in cells if not c.is_self]
        assert sorted(c.text for c in played) == ["○ 29-27", "● 27-29"]
    header, rows = exports.cross_table_rows(group.cross)
    assert header[1:] == [t.name for t in group.cross.teams]
    assert [row[1 + i] for i, row in enumerate(rows)] == [exports.SELF_CELL] * 3


# --- The pure podium engine ------------------------------------------------------------


def test_the_final_and_the_third_place_match_give_the_three_places():
    places = podium.final_places(
        podium.Outcome(winner=1, loser=2), [podium.Outcome(winner=3, loser=4)], [podium.Outcome(1, 3)]
    )
    assert places == [podium.Place(1, 1), podium.Place(2, 2), podium.Place(3, 3)]


def test_without_a_third_place_match_both_semifinal_losers_share_third():
    semifinals = [podium.Outcome(winner=1, loser=3), podium.Outcome(winner=2, loser=4)]
    assert podium.joint_third([], semifinals) == [3, 4]
    assert podium.final_places(None, [], semifinals) == [podium.Place(3, 3), podium.Place(3, 4)]


def test_a_match_without_a_result_gives_no_place():
    assert podium.final_places(None, [None], [podium.Outcome(1, 3), None]) == []
    assert podium.joint_third([None], [podium.Outcome(1, 3)]) == []
