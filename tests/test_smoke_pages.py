import pytest
from django.core.management import call_command
from django.urls import reverse


@pytest.mark.django_db
def test_smoke(client, django_user_model):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo", "--seed", "2")
    call_command("seed_knockout", "demo")
    user = django_user_model.objects.create_user("org", password="pw")
    from tournament.models import Event

    ev = Event.objects.get(slug="demo")
    ev.organisers.add(user)
    client.force_login(user)
    for url in [
        "/",
        "/manage/",
        "/manage/demo/",
        "/manage/demo/teams/",
        "/manage/demo/groups/",
        "/manage/demo/schedule/",
        "/manage/demo/standings/",
        "/manage/demo/knockout/",
        "/manage/demo/print/",
        "/manage/demo/courts/",
        "/manage/demo/teams/add/",
        "/manage/demo/teams/import/",
        "/manage/demo/export/results.xlsx",
        "/manage/demo/print/sheets.pdf?court=1",
        "/manage/demo/games/1/",
        "/e/demo/",
        "/e/demo/results/",
        "/e/demo/standings/",
        "/e/demo/bracket/",
        "/manage/demo/teams/template.xlsx",
        "/manage/demo/edit/",
        "/manage/demo/divisions/add/",
        "/manage/demo/clubs/",
        "/manage/demo/clubs/links.pdf",
        "/manage/demo/reader/",
        "/reader/practice/",
        "/reader/practice/?edition=hitachi",  # refused by name: り has neither text nor recording
    ]:
        r = client.get(url)
        assert r.status_code == 200, url


@pytest.mark.django_db
def test_every_paper_kind_prints_for_the_demo_day(client, django_user_model):
    from io import BytesIO

    from pypdf import PdfReader

    from tournament.models import Event

    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo", "--seed", "2")
    call_command("seed_knockout", "demo")
    call_command("simulate_results", "demo", "--stage", "knockout", "--seed", "3")
    user = django_user_model.objects.create_user("org")
    event = Event.objects.get(slug="demo")
    event.organisers.add(user)
    client.force_login(user)
    final = event.matches.get(stage="final", division__name="小学生低学年の部")
    for kind in ["timetables", "reception", "standings", "bracket", "results", "matrix"]:
        response = client.get(f"/manage/demo/print/{kind}.pdf")
        assert response.status_code == 200, kind
        text = "".join(page.extract_text() for page in PdfReader(BytesIO(response.content)).pages)
        if kind in ("bracket", "results"):
            assert final.winner.name in text.replace("\n", ""), kind
    assert client.get("/manage/demo/print/nonsense.pdf").status_code == 404
    client.logout()
    assert client.get("/manage/demo/print/reception.pdf").status_code == 302


@pytest.mark.django_db
def test_the_club_games_page_links_both_games_from_the_header(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("club"))
    home = client.get("/manage/").content.decode()
    assert 'href="/games/"' in home
    page = client.get("/games/").content.decode()
    for name in ("hanafuda:session_list", "hanafuda:reference_card_default", "dosai:home"):
        assert f'href="{reverse(name)}"' in page
