"""A refused or expired form never comes back as a form ready to send (issue 18, item 1).

The attack: a cross-site page auto-posts ``username=…&password=…&role=organiser`` to an
event's people page; the CSRF check refuses it, and the failure page used to render the
fields as hidden inputs with a fresh token and a "send again" button, so one click made
the attacker an organiser. Kept values are now only text, only after a same-origin
failure, only to the same user on the same form, without passwords, small and short-lived.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from common import kept_forms
from tests import factories

pytestmark = pytest.mark.django_db

EVIL = "https://evil.example"
OURS = "http://testserver"
ATTACK = {"username": "intruder", "password": "Intruder-pass-1", "role": "organiser"}


@pytest.fixture
def event():
    return factories.make_event(courts=1, slug="karuta")


@pytest.fixture
def organiser(event):
    user = get_user_model().objects.create_user("organiser", password="the-right-password")
    event.organisers.add(user)
    return user


def strict_client(user=None):
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def forms_posting_to(page, url):
    """The forms of ``page`` that post to ``url`` (the refused form), with their inner HTML."""
    return [
        body
        for attrs, body in re.findall(r"<form([^>]*)>(.*?)</form>", page, re.S)
        if 'method="post"' in attrs and f'action="{url}"' in attrs
    ]


def test_a_cross_site_post_gets_no_form_to_send_and_keeps_nothing(event, organiser):
    url = reverse("tournament:people", args=[event.slug])
    client = strict_client(organiser)
    response = client.post(url, ATTACK, HTTP_ORIGIN=EVIL)
    assert response.status_code == 403
    page = response.content.decode()
    assert forms_posting_to(page, url) == []
    assert 'name="username"' not in page and "Intruder-pass-1" not in page and "intruder" not in page
    assert kept_forms.SESSION_KEY not in client.session
    # Opening the page afterwards shows nothing of it either, and nobody was added.
    again = client.get(url).content.decode()
    assert 'id="kept-form"' not in again and "intruder" not in again
    assert not get_user_model().objects.filter(username="intruder").exists()


def test_the_admins_user_form_refused_cross_site_gives_no_form_either():
    admin = get_user_model().objects.create_superuser("root", password="the-root-password")
    url = "/admin/auth/user/add/"
    response = strict_client(admin).post(
        url, {"username": "intruder", "password1": "x-Intruder-1", "password2": "x-Intruder-1"}, HTTP_ORIGIN=EVIL
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert forms_posting_to(page, url) == [] and "x-Intruder-1" not in page


def test_without_origin_or_referer_nothing_is_kept(event, organiser):
    url = reverse("tournament:people", args=[event.slug])
    client = strict_client(organiser)
    assert client.post(url, {"username": "kept", "role": "recorder"}).status_code == 403
    assert kept_forms.SESSION_KEY not in client.session


def test_a_same_origin_failure_keeps_the_values_as_text_for_the_same_form_and_user(event, organiser):
    url = reverse("tournament:people", args=[event.slug])
    client = strict_client(organiser)
    typed = {"username": "鈴木", "password": "Typed-secret-9", "role": "recorder"}
    response = client.post(url, typed, HTTP_ORIGIN=OURS)
    assert response.status_code == 403
    page = response.content.decode()
    assert forms_posting_to(page, url) == [] and "Typed-secret-9" not in page
    assert f'href="{url}"' in page  # open the form again
    kept = client.session[kept_forms.SESSION_KEY]
    assert kept["path"] == url and dict(kept["fields"]) == {"username": "鈴木", "role": "recorder"}
    # Another page of the same user does not show it.
    assert 'id="kept-form"' not in client.get(reverse("tournament:event_list")).content.decode()
    # The same form shows it once, as text: no hidden field, no password.
    again = client.get(url)
    body = again.content.decode()
    box = re.search(r'<div class="card warning" id="kept-form">(.*?)</div>', body, re.S).group(1)
    assert "<td>鈴木</td>" in box and "<td>recorder</td>" in box and "<input" not in box and "<form" not in box
    assert "Typed-secret-9" not in body and again["Cache-Control"] == "no-store"
    assert 'id="kept-form"' not in client.get(url).content.decode()


def test_a_referer_of_this_site_counts_as_same_origin_and_another_does_not(rf):
    assert kept_forms.is_same_origin(rf.post("/x/", HTTP_REFERER="http://testserver/manage/karuta/people/"))
    assert not kept_forms.is_same_origin(rf.post("/x/", HTTP_REFERER="http://testserver.evil.example/"))
    assert not kept_forms.is_same_origin(rf.post("/x/", HTTP_ORIGIN="null", HTTP_REFERER="http://testserver/"))


def test_kept_values_reach_no_other_user_of_the_same_session(rf, organiser):
    other = get_user_model().objects.create_user("other")
    kept = {"path": "/form/", "fields": [["team", "鈴木"]], "at": kept_forms.time.time(), "user": organiser.pk}

    def page_for(user, path="/form/"):
        request = rf.get(path)
        request.user, request.session = user, SessionStore()
        request.session[kept_forms.SESSION_KEY] = dict(kept, after_login=False)
        page = HttpResponse(f"<main>{kept_forms.MARKER}<form></form></main>")
        return kept_forms.offer_back(request, page).content.decode()

    assert "<td>鈴木</td>" in page_for(organiser)
    assert "鈴木" not in page_for(other)
    assert "鈴木" not in page_for(AnonymousUser())
    assert "鈴木" not in page_for(organiser, path="/another-form/")


def test_an_expired_kept_form_is_not_shown(event, organiser, monkeypatch):
    url = reverse("tournament:people", args=[event.slug])
    client = strict_client(organiser)
    client.post(url, {"username": "鈴木", "role": "recorder"}, HTTP_ORIGIN=OURS)
    later = kept_forms.time.time() + kept_forms.LIFE_SECONDS + 1
    monkeypatch.setattr(kept_forms.time, "time", lambda: later)
    assert 'id="kept-form"' not in client.get(url).content.decode()
    assert kept_forms.SESSION_KEY not in client.session


# --- a form sent with an expired login ---------------------------------------------------------


def test_an_anonymous_post_keeps_only_a_small_form_without_passwords_for_a_short_while(event, organiser):
    url = reverse("tournament:people", args=[event.slug])
    anonymous = Client()
    response = anonymous.post(url, {"username": "鈴木", "password": "Typed-secret-9", "role": "recorder"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # No session row for a stranger's post: the values wait in the cache, named by a cookie.
    assert Session.objects.count() == 0
    cookie = response.cookies[kept_forms.COOKIE]
    assert cookie["max-age"] == kept_forms.LIFE_SECONDS and cookie["httponly"]
    kept = cache.get(kept_forms._cache_key(cookie.value))
    assert dict(kept["fields"]) == {"username": "鈴木", "role": "recorder"}
    # The organiser logs in on that browser: the session lives on and the form shows the values.
    login = anonymous.post(reverse("login"), {"username": "organiser", "password": "the-right-password"})
    assert login.status_code == 302
    assert anonymous.session.get_expiry_age() > kept_forms.LIFE_SECONDS
    body = anonymous.get(url).content.decode()
    assert "<td>鈴木</td>" in body and "Typed-secret-9" not in body
    assert not re.search(r'<input type="hidden" name="username"', body)
    # Shown once: the cache forgets it and the cookie is dropped.
    assert cache.get(kept_forms._cache_key(cookie.value)) is None
    assert "鈴木" not in anonymous.get(url).content.decode()


def test_a_big_anonymous_post_keeps_nothing_and_writes_no_session(event):
    url = reverse("tournament:people", args=[event.slug])
    big = "あ" * (kept_forms.LIMIT_BYTES // 3 + 10)
    response = Client().post(url, {"username": big, "role": "recorder"})
    assert response.status_code == 302
    assert Session.objects.count() == 0


def test_after_the_login_a_user_who_may_not_open_the_form_never_sees_the_values(event, organiser):
    url = reverse("tournament:people", args=[event.slug])
    anonymous = Client()
    anonymous.post(url, {"username": "鈴木", "role": "recorder"})
    get_user_model().objects.create_user("stranger", password="the-stranger-password")
    anonymous.post(reverse("login"), {"username": "stranger", "password": "the-stranger-password"})
    page = anonymous.get(url)
    assert page.status_code == 403 and "鈴木" not in page.content.decode()


def test_the_webhooks_secret_is_never_kept(event, organiser):
    """The outgoing webhook's token (issue 35) is kept as the series key is: a refused form keeps
    the other fields as text, never the field named "secret"."""
    url = reverse("webhooks:settings", args=[event.slug])
    client = strict_client(organiser)
    typed = {"kind": "line", "line_to": "C" + "0" * 32, "secret": "Channel-token-never-kept-123"}
    assert client.post(url, typed, HTTP_ORIGIN=OURS).status_code == 403
    kept = client.session[kept_forms.SESSION_KEY]
    assert dict(kept["fields"]) == {"kind": "line", "line_to": "C" + "0" * 32}
    assert "Channel-token-never-kept-123" not in client.get(url).content.decode()


# --- an action's own address (issue 30, item 5) ------------------------------------------------


@pytest.fixture
def game(event, organiser):
    """A scheduled game of ``event`` with a version waiting for confirmation."""
    from judging.engine import rules
    from judging.services import submit_sheet
    from tournament.services.draw import draw_groups
    from tournament.services.schedule import make_schedule

    event.auto_confirm = False  # the court's version waits for the desk
    event.save(update_fields=["auto_confirm"])
    factories.make_teams(factories.make_division(event, courts=[1]), 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    match = event.matches.order_by("match_number").first()
    submit_sheet(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), base_version=0, court=match.court)
    return match


def test_a_refused_desk_button_leads_back_to_the_games_page_with_the_values(event, organiser, game):
    page = reverse("judging:match_detail", args=[event.slug, game.match_number])
    action = reverse("judging:match_reject", args=[event.slug, game.match_number])
    client = strict_client(organiser)
    response = client.post(action, {"version": "1", "reason": "紙と違う"}, HTTP_ORIGIN=OURS)
    assert response.status_code == 403
    text = response.content.decode()
    assert f'href="{page}"' in text and f'href="{action}"' not in text  # the action answers a GET with 405
    assert client.session[kept_forms.SESSION_KEY]["path"] == page
    assert "<td>紙と違う</td>" in client.get(page).content.decode()
    game.refresh_from_db()
    assert game.status == game.Status.SUBMITTED  # nothing was sent back


def test_a_step_sent_after_the_login_expired_comes_back_to_its_page(event, organiser, game):
    page = reverse("tournament:schedule", args=[event.slug])
    action = reverse("tournament:court_delay", args=[event.slug])
    anonymous = Client()
    response = anonymous.post(action, {"court": str(game.court_id), "minutes": "15"})
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={page}"
    login = anonymous.post(response["Location"], {"username": "organiser", "password": "the-right-password"})
    assert login["Location"] == page
    body = anonymous.get(page).content.decode()
    assert "<td>15</td>" in body and 'id="kept-form"' in body
    assert anonymous.get(action).status_code == 405
