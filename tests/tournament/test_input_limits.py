"""Input limits of an event (issue 18, item 5): the form refuses 9999-12-31, 40,000-minute games
and 99,999 cards with messages naming the field; the database refuses them too; a schedule made
with the most extreme allowed values answers (no 500)."""

import datetime
import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.utils import translation

from tests import factories
from tournament.engine import limits
from tournament.forms import EventForm
from tournament.models import Event, Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

TODAY = datetime.date.today()


@pytest.fixture
def organiser(db, client, django_user_model):
    user = django_user_model.objects.create_user("organiser", is_superuser=True)
    client.force_login(user)
    return user


def event_data(**overrides):
    data = {
        "name": "ひたち郷土かるた大会",
        "edition": "22",
        "slug": "hitachi",
        "date": TODAY.replace(month=1, day=16).isoformat(),
        "venue": "多賀市民プラザ",
        "start_time": "09:00",
        "game_minutes": "15",
        "changeover_minutes": "5",
        "card_total": "56",
        "court_count": "3",
        "visibility": "public",
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize(
    ("field", "value", "label"),
    [
        ("date", "9999-12-31", "日付"),
        ("date", f"{TODAY.year - 2}-12-31", "日付"),
        ("date", f"{TODAY.year + 6}-01-01", "日付"),
        ("game_minutes", "40000", "1試合の時間（分）"),
        ("game_minutes", "0", "1試合の時間（分）"),
        ("game_minutes", "121", "1試合の時間（分）"),
        ("changeover_minutes", "61", "入れ替え時間（分）"),
        ("card_total", "99999", "札の枚数"),
        ("card_total", "55", "札の枚数"),
        ("card_total", "102", "札の枚数"),
        ("card_total", "0", "札の枚数"),
        ("edition", "1000", "回"),
    ],
)
def test_the_event_form_refuses_values_out_of_limits_naming_the_field(client, organiser, field, value, label):
    response = client.post("/manage/", event_data(**{field: value}), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    errors = response.context["form"].errors[field]
    assert len(errors) == 1
    assert str(response.context["form"].fields[field].label) in errors[0]
    assert label in errors[0]
    assert Event.objects.count() == 0


@pytest.mark.parametrize(
    "values",
    [
        {"date": f"{TODAY.year - 1}-01-01", "game_minutes": "1", "changeover_minutes": "0", "card_total": "2"},
        {"date": f"{TODAY.year + 5}-12-31", "game_minutes": "120", "changeover_minutes": "60", "card_total": "100"},
    ],
)
def test_the_limits_themselves_are_accepted(client, organiser, values):
    assert client.post("/manage/", event_data(**values)).status_code == 302
    assert Event.objects.count() == 1


def test_the_messages_read_in_english_too(db):
    with translation.override("en"):
        form = EventForm(data={**event_data(game_minutes="40000", card_total="57")})
        assert not form.is_valid()
        assert form.errors["game_minutes"] == ["Game length (minutes): from 1 to 120."]
        assert form.errors["card_total"] == ["Cards in play: an even number (two equal piles); 56 by the rules."]


def test_an_old_event_keeps_its_date_when_edited(db):
    event = factories.make_event(slug="old", date=datetime.date(TODAY.year - 3, 1, 17))
    form = EventForm(data=event_data(slug="old", date=event.date.isoformat()), instance=event)
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("card_total", 99999 % 32768),
        ("card_total", 55),
        ("game_minutes", 40000 % 32768),
        ("changeover_minutes", 61),
        ("date", datetime.date(9999, 12, 31)),
        ("edition", 1000),
    ],
)
def test_the_database_refuses_values_out_of_limits(db, field, value):
    event = factories.make_event(slug="db")
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(**{field: value})


def test_a_schedule_with_the_most_extreme_allowed_values_answers(db):
    """The last allowed day, 120-minute games, 60-minute changeovers, 100 cards, starting at 23:00:
    the games run over several days and the schedule is made (before the limits: a 500)."""
    last = limits.date_window(TODAY)[1]
    event = factories.make_event(
        courts=1,
        slug="extreme",
        date=last,
        start_time=datetime.time(23, 0),
        game_minutes=limits.GAME_MINUTES[1],
        changeover_minutes=limits.CHANGEOVER_MINUTES[1],
        card_total=limits.CARD_TOTAL[1],
    )
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    assert make_schedule(event) == 28
    latest = Match.objects.filter(event=event).order_by("-start_at").first().start_at
    assert latest > datetime.datetime.combine(last, datetime.time(23, 0), tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--date", "9999-12-31"], "date: from"),
        (["--date", f"{TODAY.year}-06-01", "--edition", "5000"], "edition number: from 1 to 999."),
    ],
)
def test_create_event_refuses_values_out_of_limits_in_a_sentence(db, args, named):
    """The command goes through the same limits (before: 9999-12-31 was stored)."""
    with pytest.raises(CommandError, match=re.escape(named)):
        call_command("create_event", "far", "--name", "大会", *args, stdout=io.StringIO())
    assert not Event.objects.exists()
