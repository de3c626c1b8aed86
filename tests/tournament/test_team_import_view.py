"""Importing an Excel entry sheet on the organiser's screen: preview first, then all or nothing."""

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from tests import factories
from tournament.imports import TEMPLATE_LABELS, parse_entry_workbook
from tournament.models import Division, Player, Team

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "entries-sample.xlsx"
SAMPLE_DIVISIONS = ["小学生低学年の部", "小学生高学年の部", "中学生の部"]


@pytest.fixture
def event(db, client, django_user_model):
    """A new, empty event (no division, no team) and its organiser logged in."""
    event = factories.make_event(courts=4, slug="entry")
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    return event


def url(event):
    return f"/manage/{event.slug}/teams/import/"


def upload(client, event, data, name="entries.xlsx", **extra):
    return client.post(url(event), {"file": SimpleUploadedFile(name, data), "default_division": "", **extra})


def sample_bytes():
    return SAMPLE.read_bytes()


def workbook(rows):
    wb = Workbook()
    ws = wb.active
    ws.title = "申込書"
    ws.append(list(TEMPLATE_LABELS))
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def team_row(name, grade="2年", division="小学生低学年の部"):
    return [
        division,
        name,
        "みなと子ども会",
        "小川 光",
        "おがわ ひかる",
        "2年",
        "井上 颯太",
        "いのうえ そうた",
        grade,
        "木村 心春",
        "きむら こはる",
        "2年",
        None,
        None,
        None,
    ]


def pending_files():
    return list((Path(settings.DATA_DIR) / "imports").glob("*.json"))


def test_the_upload_form_answers_200(client, event):
    response = client.get(url(event))
    assert response.status_code == 200
    assert response.context["report"] is None


def test_uploading_the_sample_shows_a_preview_of_34_teams_and_3_new_divisions_and_saves_nothing(client, event):
    response = upload(client, event, sample_bytes())
    assert response.status_code == 200
    report = response.context["report"]
    assert report.ok
    assert len(report.teams) == 34
    assert report.new_divisions == SAMPLE_DIVISIONS
    page = response.content.decode()
    for team in report.teams:
        assert team.name in page
    for division in SAMPLE_DIVISIONS:
        assert division in page
    assert response.context["token"]
    assert f'value="{response.context["token"]}"' in page
    assert Team.objects.count() == 0
    assert Division.objects.filter(event=event).count() == 0


def test_confirming_the_preview_with_its_token_imports_34_teams_in_3_divisions(client, event):
    preview = upload(client, event, sample_bytes())
    token = preview.context["token"]
    response = client.post(url(event), {"token": token, "default_division": ""})
    assert response.status_code == 302
    assert response["Location"] == f"/manage/{event.slug}/teams/"
    assert Team.objects.filter(division__event=event).count() == 34
    assert sorted(Division.objects.filter(event=event).values_list("name", flat=True)) == sorted(SAMPLE_DIVISIONS)
    assert all(t.players.filter(is_leader=True).count() == 1 for t in Team.objects.all())
    expected = parse_entry_workbook(sample_bytes())
    assert Player.objects.count() == sum(len(t.players) for t in expected.teams)
    assert not (Path(settings.DATA_DIR) / "imports" / f"{token}.json").exists()


def test_the_sample_teams_keep_their_divisions(client, event):
    preview = upload(client, event, sample_bytes())
    client.post(url(event), {"token": preview.context["token"], "default_division": ""})
    expected = {(t.division, t.name) for t in parse_entry_workbook(sample_bytes()).teams}
    assert {(t.division.name, t.name) for t in Team.objects.select_related("division")} == expected


def test_a_bad_row_is_shown_with_its_row_number_and_nothing_is_saved(client, event):
    before = pending_files()
    data = workbook([team_row("みなと子ども会A"), team_row("東町子ども会A", grade="小7"), team_row("桜が丘子ども会A")])
    response = upload(client, event, data)
    assert response.status_code == 200
    report = response.context["report"]
    assert not report.ok
    assert [p.row for p in report.problems] == [3]
    page = response.content.decode()
    assert "<td>3</td>" in page
    assert report.problems[0].column in page
    # The upload is kept only for the problems report: no import button is offered.
    assert b'name="token"' not in response.content
    assert 'name="token"' not in page
    assert len(pending_files()) == len(before) + 1  # kept for the problems report
    assert Team.objects.count() == 0
    assert Division.objects.count() == 0


def test_a_missing_team_name_names_its_row(client, event):
    data = workbook([team_row("みなと子ども会A"), team_row("桜が丘子ども会A"), team_row(None)])
    response = upload(client, event, data)
    assert [p.row for p in response.context["report"].problems] == [4]
    assert "<td>4</td>" in response.content.decode()
    assert Team.objects.count() == 0


def test_uploading_the_same_sample_again_reports_every_team_as_already_registered(client, event):
    preview = upload(client, event, sample_bytes())
    client.post(url(event), {"token": preview.context["token"], "default_division": ""})
    response = upload(client, event, sample_bytes())
    report = response.context["report"]
    assert not report.ok
    assert report.new_divisions == []
    assert len(report.problems) == 34
    assert sorted(p.row for p in report.problems) == sorted(t.row for t in report.teams)
    for team, problem in zip(sorted(report.teams, key=lambda t: t.row), sorted(report.problems, key=lambda p: p.row)):
        assert team.name in problem.message
    # The upload is kept only for the problems report: no import button is offered.
    assert b'name="token"' not in response.content
    assert Team.objects.count() == 34


def test_a_team_registered_between_preview_and_confirmation_stops_the_whole_import(client, event):
    data = workbook([team_row("みなと子ども会A"), team_row("桜が丘子ども会A")])
    preview = upload(client, event, data)
    division = factories.make_division(event, name="小学生低学年の部")
    factories.make_team(division, "桜が丘子ども会Ａ")
    response = client.post(url(event), {"token": preview.context["token"], "default_division": ""})
    assert response.status_code == 200
    assert [p.row for p in response.context["report"].problems] == [3]
    assert list(Team.objects.values_list("name", flat=True)) == ["桜が丘子ども会Ａ"]  # as typed


def test_an_expired_token_sends_the_organiser_back_to_the_upload(client, event):
    response = client.post(url(event), {"token": "0123456789abcdef0123456789abcdef"})
    assert response.status_code == 302
    assert response["Location"] == url(event)
    assert Team.objects.count() == 0


def test_a_token_that_is_not_alphanumeric_answers_404(client, event):
    assert client.post(url(event), {"token": "../../secret_key"}).status_code == 404


def test_a_file_that_is_not_a_workbook_is_reported_and_nothing_is_saved(client, event):
    response = upload(client, event, b"this is not an excel file", name="entries.xlsx")
    assert response.status_code == 200
    assert not response.context["report"].ok
    assert Team.objects.count() == 0


def test_a_stranger_cannot_import(client, event, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger"))
    assert upload(client, event, sample_bytes()).status_code == 403
    assert Team.objects.count() == 0
