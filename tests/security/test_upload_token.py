"""An uploaded entry sheet's token (issue 28, smaller findings): it imports only into the event
it was uploaded for, by the organiser who uploaded it; its kept parse is the owner's only (0600);
its URL (the problems download) is masked in logs."""

import re
import stat
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from common.logmask import mask_court_tokens
from tests import factories
from tests.tournament.test_team_import_view import team_row, upload, workbook
from tournament.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


def _organiser(event, name):
    user = get_user_model().objects.create_user(name)
    event.organisers.add(user)
    return user


def _token(response):
    return re.search(r'name="token" value="([0-9a-f]{32})"', response.content.decode()).group(1)


@pytest.fixture
def uploaded(client):
    """Organiser A's upload of two teams to event A: (events, users, token)."""
    mine, theirs = (
        factories.make_event(slug="mine", name="春の大会"),
        factories.make_event(slug="theirs", name="秋の大会"),
    )
    a, b = _organiser(mine, "a"), _organiser(theirs, "b")
    client.force_login(a)
    token = _token(upload(client, mine, workbook([team_row("みなとA"), team_row("みなとB")])))
    return mine, theirs, a, b, token


def test_another_organisers_event_refuses_the_token(client, uploaded):
    mine, theirs, _a, b, token = uploaded
    client.force_login(b)
    answer = client.post(f"/manage/{theirs.slug}/teams/import/", {"token": token}, follow=True)
    texts = [str(m) for m in answer.context["messages"]]
    assert texts == ["This uploaded file was uploaded by another person; upload the file again here."]
    assert not Team.objects.exists()
    assert client.get(f"/manage/{theirs.slug}/teams/import/{token}/problems.xlsx").status_code == 404


def test_the_same_organisers_other_event_refuses_the_token_naming_its_event(client, uploaded):
    mine, theirs, a, _b, token = uploaded
    theirs.organisers.add(a)
    answer = client.post(f"/manage/{theirs.slug}/teams/import/", {"token": token}, follow=True)
    texts = [str(m) for m in answer.context["messages"]]
    assert texts == ["This uploaded file was uploaded for another tournament (春の大会); upload it again here."]
    assert not Team.objects.exists()
    # Its own event still imports it.
    client.post(f"/manage/{mine.slug}/teams/import/", {"token": token, "accept_warnings": "1"})
    assert Team.objects.filter(division__event=mine).count() == 2


def test_the_kept_parse_is_the_owners_only(uploaded):
    *_rest, token = uploaded
    path = Path(settings.DATA_DIR) / "imports" / f"{token}.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_problems_download_url_is_masked_in_logs(uploaded):
    *_rest, token = uploaded
    line = f'"GET /manage/mine/teams/import/{token}/problems.xlsx HTTP/1.1" 200'
    masked = mask_court_tokens(line)
    assert token not in masked and f"/teams/import/{token[:4]}…/problems.xlsx" in masked
    assert mask_court_tokens("/manage/mine/teams/import/") == "/manage/mine/teams/import/"
