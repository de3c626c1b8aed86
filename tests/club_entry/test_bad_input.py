"""Every form of the club pages and of the organiser's clubs page with bad input (issue 20 item 4,
re-check): empty, 300 characters, an emoji name, a deadline in the past or in year 9999, junk
numbers. Each answer names the field in a sentence, saves nothing wrong and is never a 500."""

import datetime

import pytest
from django.utils import timezone, translation

from club_entry import services
from club_entry.models import ClubLink
from tests.club_entry.conftest import four
from tests.club_entry.test_views import team_post
from tournament.models import Team

LONG = "あ" * 300
EMOJI = "🎴かるた🌸"
BAD_TEXT = ["", "   ", LONG, EMOJI, "\x00", "<script>x</script>"]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def errors(answer):
    """The page's form errors as {field: [messages]} (the context's form or forms)."""
    found = {}
    for name in ("form", "settings_form", "link_form"):
        form = answer.context.get(name) if answer.context else None
        if form is not None:
            found.update({k: [str(m) for m in v] for k, v in form.errors.items()})
    return found


@pytest.mark.parametrize("field", ["name", "chaperone", "p1_name", "p1_furigana", "p4_name"])
@pytest.mark.parametrize("value", BAD_TEXT)
def test_the_clubs_team_form_with_bad_text(client, link, low, field, value):
    answer = client.post(f"/club/{link.token}/team/add/", team_post(low, **{field: value}))
    assert answer.status_code in (200, 302)
    if answer.status_code == 200:
        found = errors(answer)
        assert found, answer.content.decode()[:500]
        assert all(messages for messages in found.values())
        assert not Team.objects.exists()
    else:
        team = Team.objects.get()
        assert len(team.name) <= 60 and all(len(p.name) <= 60 for p in team.players.all())


@pytest.mark.parametrize(
    ("field", "value"),
    [("division", "abc"), ("division", "9" * 30), ("leader", "9"), ("p1_grade", "小99"), ("version", "abc")],
)
def test_the_clubs_team_form_with_bad_choices(client, link, low, field, value):
    answer = client.post(f"/club/{link.token}/team/add/", team_post(low, **{field: value}))
    assert answer.status_code == 200 and field in errors(answer)
    assert not Team.objects.exists()


@pytest.mark.parametrize("value", ["abc", "-1", "9" * 30, ""])
def test_the_club_pages_with_junk_numbers(client, link, low, value):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    assert client.post(f"/club/{link.token}/team/{team.pk}/remove/", {"version": value}).status_code == 302
    answer = client.post(f"/club/{link.token}/absent/", {"team": value, "player": value, "absent": "1"})
    assert answer.status_code in (302, 404)
    assert client.get(f"/club/{link.token}/team/{'9' * 30}/").status_code == 404


@pytest.mark.parametrize("value", ["x", "🎴", LONG])
def test_the_consent_form_with_junk(client, event, value):
    link = services.create_link(event, "みなと子ども会")
    assert client.post(f"/club/{link.token}/", {"agree": value}).status_code in (200, 302)


def settings_post(**extra):
    data = {"action": "settings", "deadline": "", "consent_note": "同意", "version": "1"}
    data.update(extra)
    return data


@pytest.mark.parametrize(
    "value", ["0001-01-01T00:00", "9999-12-31T23:59", "2000-01-01T09:00", "x", "2030-02-30T10:00", LONG]
)
def test_a_deadline_out_of_range_names_the_field(client, event, organiser, value):
    answer = client.post(f"/manage/{event.slug}/clubs/", settings_post(deadline=value))
    assert answer.status_code == 400
    assert "deadline" in errors(answer)
    assert services.entry_settings(event).deadline is None


def test_a_deadline_on_the_day_is_taken_and_a_past_one_kept_when_unchanged(client, event, organiser):
    url = f"/manage/{event.slug}/clubs/"
    day = event.date.isoformat()
    assert client.post(url, settings_post(deadline=f"{day}T08:00")).status_code == 302
    found = services.entry_settings(event)
    assert timezone.localtime(found.deadline).date() == event.date
    # A deadline that has passed since it was set may be saved again unchanged (the note edited).
    found.deadline = timezone.now() - datetime.timedelta(days=1)
    found.save()
    typed = timezone.localtime(found.deadline).strftime("%Y-%m-%dT%H:%M")
    answer = client.post(url, settings_post(deadline=typed, consent_note="新しい同意文", version=str(found.version)))
    assert answer.status_code == 302
    assert services.entry_settings(event).consent_note == "新しい同意文"


@pytest.mark.parametrize("value", ["", "  ", LONG * 40, EMOJI])
def test_the_consent_note(client, event, organiser, value):
    answer = client.post(f"/manage/{event.slug}/clubs/", settings_post(consent_note=value))
    if value.strip() and len(value) <= 2000:
        assert answer.status_code == 302
    else:
        assert answer.status_code == 400 and "consent_note" in errors(answer)


@pytest.mark.parametrize("field", ["club", "contact_name", "contact"])
@pytest.mark.parametrize("value", BAD_TEXT)
def test_the_new_link_form(client, event, organiser, field, value):
    data = {"action": "add", "club": "みなと子ども会", "contact_name": "", "contact": ""}
    data[field] = value
    answer = client.post(f"/manage/{event.slug}/clubs/", data)
    assert answer.status_code in (302, 400)
    if answer.status_code == 400:
        assert field in errors(answer)
        assert not ClubLink.objects.exists()


def test_the_settings_version_and_unknown_links(client, event, organiser):
    answer = client.post(f"/manage/{event.slug}/clubs/", settings_post(version="abc"))
    assert answer.status_code == 400 and "version" in errors(answer)
    assert client.get(f"/manage/{event.slug}/clubs/{'9' * 30}/revoke/").status_code == 404
    assert client.post(f"/manage/{event.slug}/clubs/{'9' * 30}/renew/").status_code == 404
    assert client.post(f"/manage/{event.slug}/clubs/", {"action": "🎴"}).status_code == 400


def test_an_emoji_and_a_longest_club_print_on_the_link_cards(client, event, organiser):
    services.create_link(event, EMOJI)
    services.create_link(event, "い" * 60, contact_name="う" * 60, contact="0" * 120)
    answer = client.get(f"/manage/{event.slug}/clubs/links.pdf")
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    assert client.get(f"/manage/{event.slug}/clubs/").status_code == 200
