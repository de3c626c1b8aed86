import pytest
from django.core.management import call_command


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
    for url in ["/", "/manage/", "/manage/demo/", "/manage/demo/teams/", "/manage/demo/groups/", "/manage/demo/schedule/", "/manage/demo/standings/", "/manage/demo/knockout/", "/manage/demo/print/", "/manage/demo/courts/", "/manage/demo/teams/add/", "/manage/demo/teams/import/", "/manage/demo/export/results.xlsx", "/manage/demo/print/sheets.pdf?court=1", "/manage/demo/games/1/", "/e/demo/", "/e/demo/results/", "/e/demo/standings/", "/e/demo/bracket/", "/manage/demo/teams/template.xlsx", "/manage/demo/edit/", "/manage/demo/divisions/add/"]:
        r = client.get(url)
        assert r.status_code == 200, url
