"""Individual card counts carry players' names: organiser outputs only, never the public
pages, the public Excel or the JSON API, even when the event publishes names."""

import pytest
from django.core.management import call_command

from judging.models import PlayerCards, RecordingSheet
from tests.security.test_privacy import API_URLS, PUBLIC_URLS, text_of
from tournament import reports
from tournament.models import Event, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted_day():
    """The demo day played through, with individual counts on every confirmed group game."""
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo", "--seed", "1")
    event = Event.objects.get(slug="demo")
    event.individual_counts = True
    event.save()
    sheets = RecordingSheet.objects.filter(
        match__event=event, match__stage=Match.Stage.GROUP, is_confirmed=True, is_walkover=False
    ).select_related("match__team_a", "match__team_b")
    for sheet in sheets:
        for team, cards in ((sheet.match.team_a, sheet.cards_a), (sheet.match.team_b, sheet.cards_b)):
            first, *rest = team.players.all()
            PlayerCards.objects.create(sheet=sheet, player=first, cards=cards)
            PlayerCards.objects.bulk_create(PlayerCards(sheet=sheet, player=p, cards=0) for p in rest)
    return event


def ranked_names(event):
    return [line.name for block in reports.individual_table(event) for line in block.lines if line.cards]


def test_the_individual_table_reaches_no_public_page_file_or_api(client, counted_day):
    counted_day.publish_names = True  # even then: the individual table is never public
    counted_day.save()
    names = ranked_names(counted_day)
    assert names
    everything = [client.get(url) for url in PUBLIC_URLS + API_URLS]
    everything += [client.get("/e/demo/results.xlsx")]
    everything += [client.get(f"/e/demo/display/division/{d.pk}/") for d in counted_day.divisions.all()]
    for response in everything:
        assert response.status_code == 200
        text = text_of(response).replace("\n", "")
        assert "個人成績" not in text, response.request["PATH_INFO"]
    for url in API_URLS + ["/e/demo/results.xlsx", "/e/demo/standings/"]:
        text = text_of(client.get(url)).replace("\n", "")
        leaked = [n for n in names if n in text]
        assert not leaked, (url, leaked[:3])


def test_the_organiser_outputs_are_closed_to_the_public_and_to_recorders(client, counted_day, django_user_model):
    urls = ["/manage/demo/export/results.xlsx?kind=individual", "/manage/demo/print/individual.pdf"]
    for url in urls:
        assert client.get(url).status_code in (302, 403, 404)
    recorder = django_user_model.objects.create_user("recorder")
    counted_day.recorders.add(recorder)
    client.force_login(recorder)
    for url in urls:
        assert client.get(url).status_code in (302, 403, 404)
    assert 'id="individual"' not in client.get("/manage/demo/standings/").content.decode()


def test_the_organiser_gets_the_names(client, counted_day, django_user_model):
    organiser = django_user_model.objects.create_user("organiser")
    counted_day.organisers.add(organiser)
    client.force_login(organiser)
    names = ranked_names(counted_day)
    for url in ["/manage/demo/export/results.xlsx", "/manage/demo/print/individual.pdf", "/manage/demo/standings/"]:
        text = text_of(client.get(url)).replace("\n", "")
        assert names[0] in text, url
