"""Draft, public and archived events; deleting a rehearsal event (issue 27, item 3).

Through the views: the public home page, the public pages and hall screens, the archive, the
API, the switch on the event's card and the deletion's confirmation page.
"""

import pytest
from django.urls import reverse

from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from tests.factories import make_division, make_event, make_teams, submit_result
from tournament.models import Court, Division, Event, Match, Player, Team
from tournament.services import events as event_services
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return {
        "organiser": django_user_model.objects.create_user("organiser"),
        "recorder": django_user_model.objects.create_user("recorder"),
        "stranger": django_user_model.objects.create_user("stranger"),
        "other": django_user_model.objects.create_user("other-organiser"),
    }


def _event(people, slug, visibility):
    event = make_event(slug=slug, name=f"{slug}大会", visibility=visibility)
    event.organisers.add(people["organiser"])
    event.recorders.add(people["recorder"])
    return event


def _played(people, slug="rehearsal", visibility=Event.Visibility.DRAFT):
    """An event with one division, four teams, a schedule and one confirmed result."""
    event = _event(people, slug, visibility)
    division = make_division(event, courts=[1])
    make_teams(division, 4)
    draw_groups(event, seed=1)
    make_schedule(event)
    match = event.matches.order_by("match_number").first()
    submit_result(match, rules.SheetValues(29, 27, 0, rules.JokerHolder.A))
    return event


PUBLIC_PAGES = (
    "tournament:public_timetable",
    "tournament:public_results",
    "tournament:public_standings",
    "tournament:public_bracket",
    "tournament:public_final",
    "tournament:public_export",
    "tournament:courts_display",
    "tournament:display_rotation",
    "tournament:display_state",
    "tournament:display_qr",
)


def test_existing_events_and_the_demo_are_public_and_a_new_form_event_starts_as_draft(client, people):
    assert Event._meta.get_field("visibility").default == Event.Visibility.PUBLIC
    from tournament.forms import NewEventForm

    assert NewEventForm().fields["visibility"].initial == Event.Visibility.DRAFT


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_a_draft_answers_404_to_anonymous_and_strangers_and_200_to_its_people(client, people, name):
    event = _event(people, "draft-day", Event.Visibility.DRAFT)
    url = reverse(name, args=[event.slug])
    assert client.get(url).status_code == 404
    client.force_login(people["stranger"])
    assert client.get(url).status_code == 404
    for who in ("organiser", "recorder"):
        client.force_login(people[who])
        assert client.get(url).status_code == 200, who
    event.visibility = Event.Visibility.PUBLIC
    event.save()
    client.logout()
    assert client.get(url).status_code == 200


def test_the_home_page_lists_public_events_archived_ones_under_past_and_no_drafts(client, people):
    _event(people, "real-day", Event.Visibility.PUBLIC)
    _event(people, "old-day", Event.Visibility.ARCHIVED)
    _event(people, "rehearsal", Event.Visibility.DRAFT)
    client.force_login(people["organiser"])  # not even its organiser sees a draft there
    page = client.get("/").content.decode()
    assert "real-day大会" in page and "rehearsal大会" not in page
    current, past = page.split('id="past"')
    assert "real-day大会" in current and "old-day大会" not in current
    assert "old-day大会" in past
    client.logout()
    assert client.get(reverse("tournament:public_final", args=["old-day"])).status_code == 200


def test_the_api_leaves_drafts_out_and_marks_archived_events(client, people):
    _event(people, "real-day", Event.Visibility.PUBLIC)
    _event(people, "old-day", Event.Visibility.ARCHIVED)
    draft = _event(people, "rehearsal", Event.Visibility.DRAFT)
    listed = {e["slug"]: e for e in client.get("/api/v1/events/").json()["events"]}
    assert set(listed) == {"real-day", "old-day"}
    assert listed["old-day"]["archived"] is True and listed["real-day"]["archived"] is False
    assert client.get("/api/v1/events/rehearsal/timetable").status_code == 404
    # Published, then back to draft: the shared cache never serves the public answer behind it.
    client.force_login(people["organiser"])
    client.post(reverse("tournament:event_visibility", args=[draft.slug]), {"visibility": "public"})
    client.logout()
    assert client.get("/api/v1/events/rehearsal/timetable").status_code == 200
    client.force_login(people["organiser"])
    client.post(reverse("tournament:event_visibility", args=[draft.slug]), {"visibility": "draft"})
    client.logout()
    assert client.get("/api/v1/events/rehearsal/timetable").status_code == 404
    assert "rehearsal" not in {e["slug"] for e in client.get("/api/v1/events/").json()["events"]}


def test_the_archive_of_editions_leaves_drafts_out(client, people):
    _event(people, "real-day", Event.Visibility.PUBLIC)
    _event(people, "rehearsal", Event.Visibility.DRAFT)
    page = client.get(reverse("series:archive")).content.decode()
    assert "real-day大会" in page and "rehearsal大会" not in page
    url = reverse("series:archive_edition", args=[2027, "rehearsal"])
    assert client.get(url).status_code == 404


def test_the_card_shows_the_state_and_its_switch_and_only_organisers_may_use_it(client, people):
    event = _event(people, "draft-day", Event.Visibility.DRAFT)
    url = reverse("tournament:event_visibility", args=[event.slug])
    client.force_login(people["organiser"])
    card = client.get(event.get_absolute_url()).content.decode()
    assert 'name="visibility" value="public"' in card and reverse("tournament:event_delete", args=[event.slug]) in card
    before = Event.objects.get(pk=event.pk).version
    assert client.post(url, {"visibility": "public"}).status_code == 302
    event.refresh_from_db()
    assert event.visibility == "public" and event.version == before + 1
    assert client.get(url).status_code == 405
    # A value that is not one of the three is refused naming the field; nothing saved.
    response = client.post(url, {"visibility": "hidden"}, follow=True)
    assert "公開ページ：下書き・公開・終了した大会のどれかを選んでください。" in response.content.decode()
    assert Event.objects.get(pk=event.pk).visibility == "public"
    for who in ("recorder", "stranger", "other"):
        client.force_login(people[who])
        assert client.post(url, {"visibility": "draft"}).status_code == 403, who
    assert Event.objects.get(pk=event.pk).visibility == "public"


def test_deletion_page_counts_what_goes_with_the_event(client, people):
    event = _played(people)
    client.force_login(people["organiser"])
    response = client.get(reverse("tournament:event_delete", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    rows = dict(response.context["preview"].rows)
    assert rows[str(Division._meta.verbose_name_plural)] == 1
    assert rows[str(Team._meta.verbose_name_plural)] == 4
    assert rows[str(Player._meta.verbose_name_plural)] == Player.objects.filter(team__division__event=event).count()
    assert rows[str(Match._meta.verbose_name_plural)] == event.matches.count() == 6
    assert rows[str(Court._meta.verbose_name_plural)] == 4
    assert rows[str(RecordingSheet._meta.verbose_name_plural)] == 1
    page = response.content.decode()
    for label, count in rows.items():
        assert f"{label}</span>: <strong>{count}</strong>" in page


@pytest.mark.django_db(transaction=True)  # the backup is taken outside any transaction, as in the view
def test_deleting_needs_the_short_name_and_removes_everything_in_one_go(client, people, settings):
    settings.AUTO_BACKUP = True
    keep = _played(people, slug="real-day", visibility=Event.Visibility.PUBLIC)
    event = _played(people)
    url = reverse("tournament:event_delete", args=[event.slug])
    client.force_login(people["organiser"])
    digest = client.get(url).context["preview"].digest
    wrong = client.post(url, {"slug": "real-day", "digest": digest})
    assert wrong.status_code == 400 and "rehearsal" in wrong.content.decode()
    assert Event.objects.filter(slug="rehearsal").exists()
    # A result arriving after the page was shown: the counts are shown again, nothing deleted.
    second = event.matches.order_by("match_number")[1]
    submit_result(second, rules.SheetValues(27, 29, 0, rules.JokerHolder.B))
    stale = client.post(url, {"slug": "rehearsal", "digest": digest})
    assert stale.status_code == 400 and Event.objects.filter(slug="rehearsal").exists()
    digest = stale.context["preview"].digest
    response = client.post(url, {"slug": "rehearsal", "digest": digest})
    assert response.status_code == 302 and response["Location"] == reverse("tournament:event_list")
    assert not Event.objects.filter(slug="rehearsal").exists()
    assert not Match.objects.filter(event__slug="rehearsal").exists()
    assert not Team.objects.filter(division__event__slug="rehearsal").exists()
    assert not HistoryEntry.objects.filter(sheet__match__event__slug="rehearsal").exists()
    # The other event is untouched, and a backup was taken before.
    assert Event.objects.filter(pk=keep.pk).exists() and keep.matches.count() == 6
    from ops import backups

    assert any("delete-event" in p.name for p in backups.list_backups())


@pytest.mark.parametrize("who, status", [("recorder", 403), ("stranger", 403), ("other", 403)])
def test_only_the_events_organisers_may_delete(client, people, who, status):
    event = _played(people)
    client.force_login(people[who])
    url = reverse("tournament:event_delete", args=[event.slug])
    assert client.get(url).status_code == status
    assert client.post(url, {"slug": event.slug, "digest": "x"}).status_code == status
    assert Event.objects.filter(pk=event.pk).exists()


def test_unknown_event_is_404_and_anonymous_goes_to_login(client, people):
    assert client.get(reverse("tournament:event_delete", args=["nope"])).status_code == 302
    client.force_login(people["organiser"])
    assert client.get(reverse("tournament:event_delete", args=["nope"])).status_code == 404


def test_a_superuser_may_delete_any_event(client, people, django_user_model):
    event = _played(people)
    root = django_user_model.objects.create_superuser("root", password="x")
    client.force_login(root)
    digest = client.get(reverse("tournament:event_delete", args=[event.slug])).context["preview"].digest
    client.post(reverse("tournament:event_delete", args=[event.slug]), {"slug": event.slug, "digest": digest})
    assert not Event.objects.filter(pk=event.pk).exists()


def test_the_service_refuses_a_bad_visibility_before_writing(people):
    event = _event(people, "draft-day", Event.Visibility.DRAFT)
    from common.errors import UserError

    with pytest.raises(UserError):
        event_services.set_visibility(event, "secret")
    assert Event.objects.get(pk=event.pk).visibility == "draft"


def test_a_deck_made_for_the_event_is_kept_and_named_as_kept(client, people):
    from reader.models import DeckEdition

    event = _played(people)
    DeckEdition.objects.create(slug="club-deck", name="クラブの札", event=event)
    DeckEdition.objects.create(slug="club-deck-2", name="クラブの札2", event=event)
    preview = event_services.deletion_preview(event)
    assert preview.kept == [(str(DeckEdition._meta.verbose_name_plural), 2)]
    event_services.delete_event(event, typed_slug=event.slug, digest=preview.digest)
    assert DeckEdition.objects.get(slug="club-deck").event is None


def test_the_command_prints_and_changes_who_sees_the_event(people):
    from io import StringIO

    from django.core.management import CommandError, call_command

    event = _event(people, "demo-day", Event.Visibility.PUBLIC)
    out = StringIO()
    call_command("event_visibility", event.slug, stdout=out)
    assert out.getvalue().startswith("demo-day: public")
    call_command("event_visibility", event.slug, "archived", stdout=StringIO())
    assert Event.objects.get(pk=event.pk).visibility == "archived"
    with pytest.raises(CommandError):
        call_command("event_visibility", event.slug, "hidden")
    with pytest.raises(CommandError):
        call_command("event_visibility", "no-such-event", "draft")
    assert Event.objects.get(pk=event.pk).visibility == "archived"
