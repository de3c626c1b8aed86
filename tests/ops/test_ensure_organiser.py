"""`make run` never changes an existing account (issue 18, item 5): `ensure_organiser` creates
the demo organiser when missing, as organiser of the demo event only."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests import factories

pytestmark = pytest.mark.django_db


def test_a_missing_organiser_is_created_for_the_demo_event_only():
    demo = factories.make_event(courts=1, slug="demo")
    other = factories.make_event(courts=1, slug="someone-elses")
    call_command("ensure_organiser", "--event", "demo")
    user = get_user_model().objects.get(username="organiser")
    assert user.check_password("karuta-demo") and user.has_perm("tournament.add_event")
    assert list(demo.organisers.all()) == [user] and not other.organisers.exists()


def test_an_existing_account_keeps_its_password_and_rights():
    owner = get_user_model().objects.create_user("owner")
    demo = factories.make_event(courts=1, slug="demo")
    demo.organisers.add(owner)
    theirs = factories.make_event(courts=1, slug="theirs")
    user = get_user_model().objects.create_user("organiser", password="my-own-strong-password")
    call_command("ensure_organiser", "--event", "demo")
    user.refresh_from_db()
    assert user.check_password("my-own-strong-password") and not user.check_password("karuta-demo")
    assert not user.has_perm("tournament.add_event")
    assert not theirs.organisers.filter(pk=user.pk).exists()
    assert list(demo.organisers.all()) == [owner]  # the demo already had its organiser


def test_an_existing_account_may_only_join_a_demo_nobody_organises():
    user = get_user_model().objects.create_user("organiser", password="my-own-strong-password")
    demo = factories.make_event(courts=1, slug="demo")
    call_command("ensure_organiser", "--event", "demo")
    user.refresh_from_db()
    assert list(demo.organisers.all()) == [user] and user.check_password("my-own-strong-password")


def test_an_unknown_event_is_refused():
    with pytest.raises(CommandError, match="nowhere"):
        call_command("ensure_organiser", "--event", "nowhere")
    assert not get_user_model().objects.filter(username="organiser").exists()
