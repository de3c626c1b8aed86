"""The certificate body's placeholders (issue 19, found by an outside tester): a format spec, a
conversion, attribute or index access is refused by the settings form naming the body field,
and a template saved before the form refused it never makes the desk, print or preview fail
(``awards.text``; docs/rules/awards.md, "Settings the form refuses")."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from awards.forms import AwardSettingsForm
from awards.models import AwardSettings
from awards.reports import all_certificates, event_awards
from awards.text import body_problem, fill_body
from tests.awards.test_pages import settings_data
from tournament.models import Event

REFUSED = [
    ("{event:d}", "event:d"),
    ("{edition:%}", "edition:%"),
    ("{edition:>30}", "edition:>30"),
    ("{event:{place}}", "event:{place}"),
    ("{event!r}", "event!r"),
    ("{place!s:^9}", "place!s:^9"),
    ("{event.__class__}", "event.__class__"),
    ("{event.x}", "event.x"),
    ("{place[0]}", "place[0]"),
    ("{0}", "0"),
    ("{}", "empty"),
    ("{evnt}", "evnt"),
]


@pytest.mark.parametrize("template, named", REFUSED)
def test_a_spec_conversion_attribute_or_index_is_refused_as_typed(template, named):
    assert body_problem("第{edition}回" + template + "の{place}") == named


@pytest.mark.parametrize("template, _named", REFUSED + [("{event", ""), ("}", ""), ("{event:d", "")])
def test_filling_in_never_raises_and_returns_a_refused_template_as_typed(template, _named):
    event = Event(name="大会", edition=2100)
    assert fill_body(template, event, "一般の部", "優勝") == template


def test_the_placeholders_and_doubled_braces_still_fill_in():
    event = Event(name="大会", edition=3)
    template = "{{第{edition}回}}{event}{division}{place}"
    assert body_problem(template) is None
    assert fill_body(template, event, "一般の部", "優勝") == "{第3回}大会一般の部優勝"


@pytest.mark.django_db
@pytest.mark.parametrize("body", ["{event:d}", "{edition:%}", "{event!r}", "{event.name}", "{place[0]}"])
def test_the_settings_form_refuses_it_on_the_body_field(body):
    event = Event.objects.create(name="大会", slug="spec", edition=3, date=datetime.date(2027, 1, 17))
    with translation.override("en"):
        form = AwardSettingsForm(data=settings_data(body=body), instance=AwardSettings(event=event))
        assert not form.is_valid()
        assert list(form.errors) == ["body"] and body.strip("{}") in form.errors["body"][0]


def test_a_template_saved_before_the_refusal_answers_the_desk_print_and_preview(client, played):
    organiser = get_user_model().objects.create_user("organiser")
    played.organisers.add(organiser)
    client.force_login(organiser)
    settings = AwardSettings.for_event(played)
    settings.body = "{event:d}の{edition:%}"
    settings.save()
    cert = all_certificates(event_awards(played))[0]
    assert cert.text.body == "{event:d}の{edition:%}"
    for name in ("desk", "preview"):
        assert client.get(reverse(f"awards:{name}", args=[played.slug])).status_code == 200
    assert client.post(reverse("awards:print", args=[played.slug]), {"which": cert.key}).status_code == 200
