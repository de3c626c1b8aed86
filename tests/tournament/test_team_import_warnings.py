"""Issue 18, items 2, 6 and 7 on the organiser's screens: the file parsed once, warnings the
organiser accepts, the 引率者 kept, one name key for divisions and teams."""

import importlib
import io

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from openpyxl import Workbook

from tests import factories
from tournament import imports
from tournament.forms import DivisionForm
from tournament.imports import TEMPLATE_LABELS
from tournament.models import Division, Team

LOW = "小学生低学年の部"


@pytest.fixture
def event(db, client, django_user_model):
    event = factories.make_event(courts=4, slug="warn")
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    return event


def url(event):
    return f"/manage/{event.slug}/teams/import/"


def workbook(*rows):
    wb = Workbook()
    ws = wb.active
    ws.append(list(TEMPLATE_LABELS))
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def team_row(name, players, grade="2年", division=LOW, chaperone=None):
    cells = [division, name, "みなと子ども会"]
    for player in players:
        cells += [player, None, grade]
    return [*cells, None, None, None, chaperone]


def upload(client, event, data):
    return client.post(url(event), {"file": SimpleUploadedFile("entries.xlsx", data), "default_division": ""})


def test_a_grade_outside_the_division_band_is_a_warning_the_organiser_accepts(client, event):
    factories.make_division(event, name=LOW, grade_band="小1〜小3")
    preview = upload(client, event, workbook(team_row("A組", ["甲", "乙", "丙"], grade="5年")))
    report = preview.context["report"]
    assert report.ok
    assert len(report.warnings) == 3
    assert "小1〜小3" in report.warnings[0].message
    page = preview.content.decode()
    assert 'name="accept_warnings"' in page
    assert "読み込んだシート：<strong>Sheet</strong>" in page and "注意 3 件" in page
    assert "対象学年（小1〜小3）の外です" in page
    token = preview.context["token"]

    refused = client.post(url(event), {"token": token})
    assert refused.status_code == 200
    assert Team.objects.count() == 0

    accepted = client.post(url(event), {"token": token, "accept_warnings": "1"})
    assert accepted.status_code == 302
    assert Team.objects.count() == 1


def test_a_player_already_in_a_registered_team_is_a_warning(client, event):
    division = factories.make_division(event, name=LOW)
    team = factories.make_team(division, "先のチーム")
    taken = team.players.first().name
    report = upload(client, event, workbook(team_row("A組", [taken, "乙", "丙"]))).context["report"]
    assert report.ok
    assert [w.row for w in report.warnings] == [2]
    assert "先のチーム" in report.warnings[0].message


def test_the_file_is_parsed_once_for_the_preview_the_problems_download_and_the_import(client, event, monkeypatch):
    calls = []
    real = imports.parse_entry_workbook

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(imports, "parse_entry_workbook", counting)
    bad = upload(client, event, workbook(team_row("A組", ["甲", "乙"])))
    assert not bad.context["report"].ok
    download = client.get(f"/manage/{event.slug}/teams/import/{bad.context['token']}/problems.xlsx")
    assert download.status_code == 200
    good = upload(client, event, workbook(team_row("B組", ["丁", "戊", "己"])))
    assert client.post(url(event), {"token": good.context["token"]}).status_code == 302
    assert len(calls) == 2  # one per upload, none for the download or the import


def test_the_chaperone_is_imported_and_listed(client, event):
    preview = upload(client, event, workbook(team_row("A組", ["甲", "乙", "丙"], chaperone="菊池 陽翔")))
    assert "菊池 陽翔" in preview.content.decode()
    client.post(url(event), {"token": preview.context["token"]})
    assert Team.objects.get().chaperone == "菊池 陽翔"
    assert "菊池 陽翔" in client.get(f"/manage/{event.slug}/teams/").content.decode()


def test_the_team_form_saves_the_chaperone(client, event):
    division = factories.make_division(event, name=LOW)
    data = {"division": division.pk, "name": "ひたち～かるた（東）", "chaperone": " 菊池\u3000陽翔 ", "leader": "1"}
    for i, name in enumerate(["甲", "乙", "丙"], start=1):
        data[f"p{i}_name"] = name
    response = client.post(f"/manage/{event.slug}/teams/add/", data)
    assert response.status_code == 302, response.context["form"].errors
    team = Team.objects.get()
    assert (team.name, team.chaperone) == ("ひたち～かるた（東）", "菊池 陽翔")
    form_page = client.get(f"/manage/{event.slug}/teams/{team.pk}/").content.decode()
    assert "菊池 陽翔" in form_page


def test_the_team_form_refuses_a_tilde_variant_of_a_registered_name(client, event):
    division = factories.make_division(event, name=LOW)
    factories.make_team(division, "ひたち〜かるた")
    data = {"division": division.pk, "name": "ひたち~かるた", "leader": "1"}
    for i, name in enumerate(["甲", "乙", "丙"], start=1):
        data[f"p{i}_name"] = name
    response = client.post(f"/manage/{event.slug}/teams/add/", data)
    assert response.status_code == 200
    assert response.context["form"].errors["name"]


def test_a_division_spelt_with_another_tilde_is_the_same_division(client, event):
    division = factories.make_division(event, name="小学生～低学年")
    preview = upload(client, event, workbook(team_row("A組", ["甲", "乙", "丙"], division="小学生〜低学年")))
    assert preview.context["report"].new_divisions == []
    assert client.post(url(event), {"token": preview.context["token"]}).status_code == 302
    assert Division.objects.count() == 1
    assert Team.objects.get().division == division


def test_a_team_registered_in_a_division_spelt_otherwise_is_already_registered(client, event):
    division = factories.make_division(event, name="小学生～低学年")
    factories.make_team(division, "A組")
    report = upload(client, event, workbook(team_row("Ａ組", ["甲", "乙", "丙"], division="小学生〜低学年"))).context[
        "report"
    ]
    assert not report.ok
    assert Division.objects.count() == 1


def test_the_data_migration_recomputes_name_keys_and_keeps_clashing_teams_apart(db):
    migration = importlib.import_module("tournament.migrations.0011_name_key")
    event = factories.make_event()
    division = factories.make_division(event)
    first = factories.make_team(division, "ひたち〜かるた")
    second = factories.make_team(division, "みなと")
    # Keys as the old function made them: the wave dash and the tilde kept apart.
    Team.objects.filter(pk=first.pk).update(name_key="ひたち〜かるた")
    Team.objects.filter(pk=second.pk).update(name="ひたち~かるた", name_key="ひたち~かるた")
    migration.recompute(apps, None)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.name_key == "ひたち~かるた"
    assert second.name_key == f"ひたち~かるた#{second.pk}"
    assert second.name == "ひたち~かるた"


def test_the_division_form_finds_a_clash_by_the_name_key_and_keeps_the_spelling(event):
    factories.make_division(event, name="小学生～低学年")
    data = {
        "name": "小学生〜低学年",
        "order": "2",
        "preset": "japanese",
        "walkover_cards": "count",
        "withdrawal": "annul",
        "best_runners_up": "0",
        "layout": "one_group_per_court",
        "qualifiers_per_group": "1",
    }
    clash = DivisionForm(data, event=event)
    assert not clash.is_valid()
    assert "name" in clash.errors
    fresh = DivisionForm({**data, "name": " 中学生の部（Ａ） "}, event=event)
    assert fresh.is_valid(), fresh.errors
    assert fresh.cleaned_data["name"] == "中学生の部（Ａ）"


def test_the_import_command_needs_accept_warnings_to_import_despite_warnings(event, tmp_path):
    factories.make_division(event, name=LOW, grade_band="小1〜小3")
    path = tmp_path / "entries.xlsx"
    path.write_bytes(workbook(team_row("A組", ["甲", "乙", "丙"], grade="5年")))
    with pytest.raises(CommandError, match="3 warnings; nothing was imported"):
        call_command("import_teams", event.slug, str(path), stderr=io.StringIO())
    assert Team.objects.count() == 0
    call_command("import_teams", event.slug, str(path), "--accept-warnings", stdout=io.StringIO(), stderr=io.StringIO())
    assert Team.objects.count() == 1


# --- look-alike names (issue 28, item 8) --------------------------------------------------

KUZU_IVS = "\u845b\U000e0100"  # 葛 + VS17


def test_the_team_form_refuses_a_name_that_differs_only_by_a_variation_selector(client, event):
    division = factories.make_division(event, name=LOW)
    factories.make_team(division, "葛飾A")
    data = {"division": division.pk, "name": KUZU_IVS + "飾A", "leader": "1"}
    for i, name in enumerate(["甲", "乙", "丙"], start=1):
        data[f"p{i}_name"] = name
    response = client.post(f"/manage/{event.slug}/teams/add/", data)
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["name"])
    assert "invisible mark" in errors or "見えない" in errors
    assert Team.objects.filter(division=division).count() == 1


def test_the_import_refuses_the_look_alike_of_a_registered_team_and_says_why(client, event):
    division = factories.make_division(event, name=LOW)
    factories.make_team(division, "葛飾A")
    report = upload(client, event, workbook(team_row(KUZU_IVS + "飾A", ["甲", "乙", "丙"]))).context["report"]
    assert not report.ok
    assert any("invisible mark" in p.message or "見えない" in p.message for p in report.problems)


def test_two_rows_differing_only_by_a_variation_selector_are_one_team_twice(client, event):
    factories.make_division(event, name=LOW)
    data = workbook(team_row("葛飾A", ["甲", "乙", "丙"]), [LOW, KUZU_IVS + "飾A", "別の会", "丁", None, "2年"])
    report = upload(client, event, data).context["report"]
    assert Team.objects.count() == 0
    assert not report.imported


def test_a_player_differing_only_by_a_variation_selector_is_a_warning(client, event):
    division = factories.make_division(event, name=LOW)
    team = factories.make_team(division, "B組")
    team.players.filter(order=0).update(name="葛西 陽")
    report = upload(client, event, workbook(team_row("A組", [KUZU_IVS + "西 陽", "乙", "丙"]))).context["report"]
    assert any("invisible mark" in w.message or "見えない" in w.message for w in report.warnings)


def test_the_data_migration_ignores_invisible_marks_and_keeps_clashing_teams_apart(db):
    migration = importlib.import_module("tournament.migrations.0014_guard_name_key_invisible")
    event = factories.make_event()
    division = factories.make_division(event)
    first = factories.make_team(division, "葛飾")
    second = factories.make_team(division, "みなと")
    # Keys as the old function made them: the selector kept in the key.
    Team.objects.filter(pk=second.pk).update(name=KUZU_IVS + "飾", name_key=KUZU_IVS + "飾")
    third = factories.make_team(division, "ひたち")
    Team.objects.filter(pk=third.pk).update(name="ひ\u2060たち\U000e0100", name_key="ひ\u2060たち\U000e0100")
    migration.recompute(apps, None)
    for team in (first, second, third):
        team.refresh_from_db()
    assert first.name_key == "葛飾"
    assert second.name_key == f"葛飾#{second.pk}"
    assert second.name == KUZU_IVS + "飾"
    assert third.name_key == "ひたち"


def test_the_club_link_and_spelling_migrations_recompute_their_keys(db):
    from club_entry.models import ClubLink
    from series.models import Club, ClubSpelling

    event = factories.make_event()
    link = ClubLink.objects.create(event=event, club=KUZU_IVS + "飾子ども会")
    ClubLink.objects.filter(pk=link.pk).update(club_key=KUZU_IVS + "飾子ども会")
    club = Club.objects.create(name="葛飾")
    spelling = ClubSpelling.objects.create(club=club, text=KUZU_IVS + "飾")
    ClubSpelling.objects.filter(pk=spelling.pk).update(key=KUZU_IVS + "飾")
    importlib.import_module("club_entry.migrations.0004_guard_club_key_invisible").recompute(apps, None)
    importlib.import_module("series.migrations.0004_guard_spelling_key_invisible").recompute(apps, None)
    link.refresh_from_db()
    spelling.refresh_from_db()
    assert link.club_key == "葛飾子ども会"
    assert spelling.key == "葛飾"
