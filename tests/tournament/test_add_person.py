"""``manage.py add_person EVENT USERNAME --role organiser|recorder [--password PASSWORD]``: what the
People page does, from the command line (issue 16)."""

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def run(*args):
    out = StringIO()
    call_command("add_person", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def event():
    return factories.make_event(courts=1)


def test_a_new_recorder_gets_a_printed_password_and_lands_on_the_queue(client, event):
    out = run(event.slug, "desk1", "--role", "recorder")
    password = re.search(r"^Password: (\S+)$", out, re.M).group(1)
    assert len(password) >= 12
    user = get_user_model().objects.get(username="desk1")
    assert event.recorders.filter(pk=user.pk).exists() and not event.organisers.filter(pk=user.pk).exists()
    assert user.check_password(password)
    assert f"'desk1' is now a recorder of {event.slug}." in out
    client.force_login(user)
    assert client.get(reverse("judging:confirm_queue", args=[event.slug])).status_code == 200


def test_a_new_organiser_with_a_given_password_prints_no_password(event):
    out = run(event.slug, "taro", "--role", "organiser", "--password", "kaRuta-2027-hitachi")
    assert "Password:" not in out and "kaRuta-2027-hitachi" not in out
    user = get_user_model().objects.get(username="taro")
    assert event.organisers.filter(pk=user.pk).exists()
    assert user.check_password("kaRuta-2027-hitachi")


def test_an_existing_account_keeps_its_password_and_the_command_says_so(event, django_user_model):
    user = django_user_model.objects.create_user("hanako", password="old-Password-42")
    out = run(event.slug, "hanako", "--role", "recorder", "--password", "new-Password-42")
    assert "already exists; it keeps its password" in out
    assert "NOT set" in out and "changepassword hanako" in out
    user.refresh_from_db()
    assert user.check_password("old-Password-42") and not user.check_password("new-Password-42")
    assert event.recorders.filter(pk=user.pk).exists()
    again = run(event.slug, "hanako", "--role", "recorder")
    assert "already was a recorder" in again and "Password:" not in again
    assert event.recorders.filter(pk=user.pk).count() == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (("nosuch", "x", "--role", "recorder"), "No tournament with the short name 'nosuch'"),
        (("{slug}", "x", "--role", "referee"), "invalid choice: 'referee'"),
        (("{slug}", "x"), "--role"),
        (("{slug}", "x", "--role", "recorder", "--password", "123"), "Password refused"),
        (("{slug}", "  ", "--role", "recorder"), "Give a login name"),
    ],
)
def test_bad_input_is_a_clear_command_error_and_changes_nothing(event, args, message):
    users = get_user_model().objects.count()
    with pytest.raises(CommandError, match=re.escape(message)):
        run(*(a.format(slug=event.slug) for a in args))
    assert get_user_model().objects.count() == users
    assert not event.recorders.exists() and not event.organisers.exists()
