"""A schedule running past the tournament's day (acceptance findings of issue 20, item 9): the
command and the schedule page warn, naming the last game; a schedule inside the day says nothing."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests import factories
from tournament.services.schedule import past_the_day


def day(start, teams=8):
    event = factories.make_event(courts=1, start_time=start, game_minutes=30, changeover_minutes=10)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, teams)
    call_command("draw_groups", event.slug, "--seed", "1", stdout=StringIO())
    return event


@pytest.mark.django_db
def test_the_command_warns_when_games_start_after_midnight():
    event = day(datetime.time(20, 0))  # 28 games of 40 minutes on one court from 20:00
    out, err = StringIO(), StringIO()
    call_command("make_schedule", event.slug, stdout=out, stderr=err)
    last = event.matches.order_by("-start_at").first()
    assert "WARNING" in out.getvalue() and "WARNING" in err.getvalue()
    assert f"game {last.match_number}" in out.getvalue()
    assert "2027-01-18" in out.getvalue()  # the next day, said
    assert "Add courts" in out.getvalue()


@pytest.mark.django_db
def test_the_schedule_page_warns_and_a_day_schedule_does_not(client, django_user_model):
    event = day(datetime.time(20, 0))
    call_command("make_schedule", event.slug, stdout=StringIO())
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    page = client.get(reverse("tournament:schedule", args=[event.slug])).content.decode()
    assert 'id="past-the-day"' in page
    early = day(datetime.time(9, 0), teams=4)
    out = StringIO()
    call_command("make_schedule", early.slug, stdout=out)
    assert "WARNING" not in out.getvalue()
    assert past_the_day(early) is None
