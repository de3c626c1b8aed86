"""CSV beside the workbook (issue 34 item 3): UTF-8 with a BOM, the workbook's columns and
rows in the same order, formula-looking text neutralised, public where the public workbook
is and a 404 for a draft."""

import csv
import io
from io import BytesIO

import pytest
from openpyxl import load_workbook

from common.csv_text import BOM, csv_bytes, csv_cell
from tests import factories
from tournament import exports
from tournament.models import Event, Team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture
def event(db):
    event = factories.make_event(courts=2, slug="csv")
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 8)
    Team.objects.filter(pk=division.teams.first().pk).update(name='=HYPERLINK("http://x")', affiliation="-1+2")
    draw_groups(event, seed=3)
    make_schedule(event)
    return event


def rows_of(data):
    assert data.startswith(BOM.encode())
    return list(csv.reader(io.StringIO(data.decode("utf-8")[1:])))


def sheet_rows(ws, start=1):
    return [[csv_cell(c.value) for c in row] for row in ws.iter_rows(min_row=start)]


def test_games_csv_is_the_all_games_sheet(event, client):
    data = client.get(f"/e/{event.slug}/games.csv")
    assert data.status_code == 200
    assert data["Content-Type"] == "text/csv; charset=utf-8"
    assert "games.csv" in data["Content-Disposition"]
    rows = rows_of(data.content)
    wb = load_workbook(BytesIO(exports.event_workbook(event, ("games",))))
    expected = sheet_rows(wb.worksheets[0])
    assert rows == expected
    assert rows[0] == [str(h) for h in exports.matches_headers()]
    assert len(rows) == event.matches.count() + 1


def test_standings_csv_is_every_standings_sheet_with_division_and_group(event, client):
    rows = rows_of(client.get(f"/e/{event.slug}/standings.csv").content)
    assert rows[0] == ["部門", "リーグ", *[str(h) for h in exports.standings_headers()]]
    wb = load_workbook(BytesIO(exports.event_workbook(event, ("standings",))))
    body = []
    for ws in wb.worksheets:
        sheet = sheet_rows(ws, start=3)
        table = sheet[: next(i for i, row in enumerate(sheet) if not any(row))]
        division, group = ws.title.split(" ", 1)
        body += [[division, group, *row[: len(exports.standings_headers())]] for row in table]
    assert rows[1:] == body
    assert len(body) == 8


def test_formula_text_is_neutralised_numbers_are_not(event, client):
    text = client.get(f"/e/{event.slug}/standings.csv").content.decode("utf-8")
    assert "'=HYPERLINK" in text and "'-1+2" in text
    assert csv_cell("=1+1") == "'=1+1" and csv_cell("@SUM(A1)") == "'@SUM(A1)" and csv_cell("+81") == "'+81"
    assert csv_cell(-3) == "-3" and csv_cell(0) == "0" and csv_cell(None) == ""
    assert csv_bytes(["a"], [["x\x0by"]]).decode("utf-8") == BOM + "a\r\nxy\r\n"


def test_organiser_csv_and_links(event, client, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    assert client.get(f"/manage/{event.slug}/export/games.csv").status_code == 302  # login first
    client.force_login(user)
    response = client.get(f"/manage/{event.slug}/export/games.csv")
    assert response.status_code == 200 and response.content.startswith(BOM.encode())
    assert client.get(f"/manage/{event.slug}/export/teams.csv").status_code == 404
    menu = client.get(f"/manage/{event.slug}/print/").content.decode()
    assert f"/manage/{event.slug}/export/games.csv" in menu and f"/manage/{event.slug}/export/standings.csv" in menu
    client.logout()
    for page in ("results", "standings"):
        html = client.get(f"/e/{event.slug}/{page}/").content.decode()
        assert f"/e/{event.slug}/games.csv" in html and f"/e/{event.slug}/standings.csv" in html


def test_draft_and_unknown_kind_are_404(event, client):
    assert client.get(f"/e/{event.slug}/teams.csv").status_code == 404
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.DRAFT)
    assert client.get(f"/e/{event.slug}/games.csv").status_code == 404
