"""Downloads of the demo day: the results workbook and the recording-sheet PDF."""

import datetime
import re
from io import BytesIO, StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from openpyxl import load_workbook
from pypdf import PdfReader

from tournament import exports, reports
from tournament.models import Event, Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=StringIO())
    call_command("draw_groups", "demo", "--seed", "1", stdout=StringIO())
    call_command("make_schedule", "demo", stdout=StringIO())
    call_command("simulate_results", "demo", "--seed", "2", stdout=StringIO())
    return Event.objects.get(slug="demo")


@pytest.fixture
def organiser_client(client, demo, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    demo.organisers.add(user)
    client.force_login(user)
    return client


def squash(text):
    return re.sub(r"\s+", "", text or "")


def expected_tables(event):
    return [(division, table) for division in event.divisions.all() for table in reports.division_standings(division)]


def standings_block(ws):
    """(rank, team name) rows of a group sheet: title row 1, header row 2, then teams."""
    rows = []
    for rank, name, *_ in ws.iter_rows(min_row=3, values_only=True):
        if rank is None and name is None:
            break
        rows.append((rank, name))
    return rows


def test_the_results_workbook_has_one_sheet_per_group_and_the_matches_sheet(organiser_client, demo):
    response = organiser_client.get("/manage/demo/export/results.xlsx")
    assert response.status_code == 200
    assert response["Content-Type"] == exports.XLSX
    assert "attachment" in response["Content-Disposition"]
    wb = load_workbook(BytesIO(response.content))
    tables = expected_tables(demo)
    assert len(tables) == 9  # the demo: 3 + 4 + 2 courts, one group each
    assert len(wb.worksheets) == len(tables) + 2  # the final ranking first, the games last
    assert wb.worksheets[0].title == "成績一覧"
    for ws, (division, table) in zip(wb.worksheets[1:], tables):
        assert ws.title == f"{division.name} {table.group.name}"


def test_each_group_sheet_holds_the_same_ranks_and_teams_as_division_standings(organiser_client, demo):
    wb = load_workbook(BytesIO(organiser_client.get("/manage/demo/export/results.xlsx").content))
    for ws, (_division, table) in zip(wb.worksheets[1:], expected_tables(demo)):
        expected = [(f"{r.rank}=" if r.tied else r.rank, table.teams[r.team].name) for r in table.rows]
        assert standings_block(ws) == expected, ws.title
        assert [row[3:6] for row in ws.iter_rows(min_row=3, max_row=2 + len(table.rows), values_only=True)] == [
            (r.played, r.wins, r.losses) for r in table.rows
        ]


def test_the_matches_sheet_lists_every_match_with_naive_tokyo_start_times(organiser_client, demo):
    wb = load_workbook(BytesIO(organiser_client.get("/manage/demo/export/results.xlsx").content))
    sheet = wb.worksheets[-1]
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    matches = list(Match.objects.filter(event=demo).select_related("team_a", "team_b").order_by("match_number"))
    assert [r[0] for r in rows] == [m.match_number for m in matches]
    for row, match in zip(rows, matches):
        start = row[5]
        assert isinstance(start, datetime.datetime) and start.tzinfo is None
        assert start == match.start_at.astimezone(TOKYO).replace(tzinfo=None)
        assert (row[6], row[9]) == (match.team_a.name, match.team_b.name)
    assert rows[0][5] == datetime.datetime(2027, 1, 17, 9, 30)


def test_the_matches_sheet_records_the_confirmed_counts(organiser_client, demo):
    wb = load_workbook(BytesIO(organiser_client.get("/manage/demo/export/results.xlsx").content))
    rows = {r[0]: r for r in wb.worksheets[-1].iter_rows(min_row=2, values_only=True)}
    for match in Match.objects.filter(event=demo).select_related("winner"):
        sheet = match.sheets.get(is_confirmed=True)
        row = rows[match.match_number]
        assert (row[7], row[8], row[10]) == (sheet.cards_a, sheet.cards_b, sheet.referee_cards)
        assert row[12] == match.winner.name


def test_the_recording_sheet_pdf_of_a_court_has_one_page_per_match_with_its_team_names(organiser_client, demo):
    court = demo.courts.get(name="2")
    response = organiser_client.get(f"/manage/demo/print/sheets.pdf?court={court.pk}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(BytesIO(response.content))
    matches = list(Match.objects.filter(court=court).select_related("team_a", "team_b").order_by("match_number"))
    assert matches
    assert len(reader.pages) == len(matches)
    for page, match in zip(reader.pages, matches):
        text = squash(page.extract_text())
        assert squash(match.team_a.name) in text
        assert squash(match.team_b.name) in text
        assert str(match.match_number) in text
    others = set(Match.objects.filter(event=demo).exclude(court=court).values_list("team_a__name", flat=True))
    own = {m.team_a.name for m in matches} | {m.team_b.name for m in matches}
    everything = squash("".join(p.extract_text() for p in reader.pages))
    foreign = [n for n in others - own if not any(n in mine for mine in own)]
    assert foreign
    assert not any(squash(name) in everything for name in foreign)


def test_a_shared_rank_is_exported_with_an_equals_sign(db):
    from judging.engine import rules
    from tests import factories
    from tests.factories import submit_result

    event = factories.make_event(courts=1, slug="tie")
    event.refresh_from_db()
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    order = {t.pk: t.entry_number for t in division.teams.all()}
    for match in Match.objects.filter(event=event):
        # a perfect cycle 1 > 2 > 3 > 1, every game 29–27
        a_wins = (order[match.team_b_id] - order[match.team_a_id]) % 3 == 1
        values = (29, 27, 0, rules.JokerHolder.A) if a_wins else (27, 29, 0, rules.JokerHolder.B)
        submit_result(match, rules.SheetValues(*values))
    wb = load_workbook(BytesIO(exports.event_workbook(event)))
    assert [rank for rank, _ in standings_block(wb.worksheets[1])] == ["1=", "1=", "1="]


@pytest.mark.django_db
def test_the_public_workbook_carries_no_players_names(client):
    from django.core.management import call_command
    from openpyxl import load_workbook as _load

    from tournament.models import Player

    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    response = client.get("/e/demo/results.xlsx")
    assert response.status_code == 200
    wb = _load(BytesIO(response.content))
    text = " ".join(str(c) for ws in wb for row in ws.iter_rows(values_only=True) for c in row if c)
    assert not any(p.name in text for p in Player.objects.all()[:50])


@pytest.mark.django_db
def test_the_import_problems_download_names_the_row(client, django_user_model):
    from openpyxl import Workbook as _Workbook
    from openpyxl import load_workbook as _load

    from tests import factories

    event = factories.make_event(courts=2)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    wb = _Workbook()
    ws = wb.active
    ws.append(
        [
            "部門",
            "チーム名",
            "所属",
            "選手1 氏名",
            "ふりがな",
            "学年",
            "選手2 氏名",
            "ふりがな",
            "学年",
            "選手3 氏名",
            "ふりがな",
            "学年",
        ]
    )
    ws.append(
        [
            "小学生の部",
            "",
            "みなと子ども会",
            "小川 光",
            "おがわ ひかる",
            "2年",
            "井上 颯太",
            "いのうえ そうた",
            "3年",
            "木村 心春",
            "きむら こはる",
            "2年",
        ]
    )
    buffer = BytesIO()
    wb.save(buffer)
    buffer.seek(0)
    buffer.name = "entries.xlsx"
    page = client.post(f"/manage/{event.slug}/teams/import/", {"file": buffer})
    token = page.context["token"]
    report = client.get(f"/manage/{event.slug}/teams/import/{token}/problems.xlsx")
    assert report.status_code == 200
    rows = list(_load(BytesIO(report.content)).active.iter_rows(values_only=True))
    assert rows[1][0] == 2
    assert client.get(f"/manage/{event.slug}/teams/import/../../x/problems.xlsx").status_code == 404
