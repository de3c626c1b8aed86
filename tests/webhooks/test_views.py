"""The organiser's webhook page (issue 35 item 2): the form keeps every field, the secret is
never shown back, a refusal names its field, the test message is POST only and organisers only.
The network is never reached (a fake transport)."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import make_event
from webhooks import sender
from webhooks.models import LINE_PUSH_URL, Delivery, WebhookSettings

LINE_TO = "U" + "fedcba9876543210" * 2
TOKEN = "channel-access-token-abcdefghijklmnop"


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(request, timeout=None):
        raise AssertionError(f"a test reached the network: {request.url}")

    monkeypatch.setattr(sender, "TRANSPORT", refuse)


@pytest.fixture
def event(db):
    return make_event(slug="hook")


@pytest.fixture
def organiser(event, client):
    user = get_user_model().objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    return user


def url(event, name="settings"):
    return reverse(f"webhooks:{name}", args=[event.slug])


def line_post(**fields):
    return {"enabled": "on", "kind": "line", "url": LINE_PUSH_URL, "line_to": LINE_TO, "secret": TOKEN,
            "send_results": "on", "send_calls": "on", **fields}  # fmt: skip


def test_the_page_opens_off_by_default(client, organiser, event):
    response = client.get(url(event))
    assert response.status_code == 200
    html = response.content.decode()
    assert "自動送信" in html and not WebhookSettings.objects.exists()
    assert 'name="enabled"' in html and 'name="enabled" checked' not in html


def test_a_save_keeps_every_field_and_never_shows_the_secret(client, organiser, event):
    response = client.post(url(event), line_post(send_calls=""))
    assert response.status_code == 302
    hook = WebhookSettings.objects.get(event=event)
    assert (hook.enabled, hook.kind, hook.url, hook.line_to, hook.secret) == (
        True,
        "line",
        LINE_PUSH_URL,
        LINE_TO,
        TOKEN,
    )
    assert hook.send_results and not hook.send_calls
    html = client.get(url(event)).content.decode()
    assert TOKEN not in html and hook.secret_id in html
    # an empty secret keeps the saved one
    assert client.post(url(event), line_post(secret="")).status_code == 302
    hook.refresh_from_db()
    assert hook.secret == TOKEN and hook.send_calls


def test_a_refused_form_does_not_echo_the_secret(client, organiser, event):
    response = client.post(url(event), line_post(line_to="not-an-id"))
    assert response.status_code == 200
    html = response.content.decode()
    assert TOKEN not in html
    assert "line_to" in response.context["form"].errors and not WebhookSettings.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"url": "http://api.line.me/v2/bot/message/push"}, "url"),  # LINE over http
        ({"url": "ftp://example.jp/x"}, "url"),
        ({"url": "https://"}, "url"),
        ({"url": "https://user:pw@example.jp/"}, "url"),
        ({"secret": ""}, "secret"),  # turned on with no token saved
        ({"secret": "short"}, "secret"),
        ({"line_to": ""}, "line_to"),
        ({"kind": "url", "url": ""}, "url"),
    ],
)
def test_bad_input_is_refused_naming_the_field(client, organiser, event, fields, field):
    response = client.post(url(event), line_post(**fields))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert not WebhookSettings.objects.exists()


def test_a_webhook_off_may_be_saved_incomplete(client, organiser, event):
    assert client.post(url(event), {"kind": "url", "url": ""}).status_code == 302
    assert not WebhookSettings.objects.get().enabled


def test_the_secret_can_be_removed(client, organiser, event):
    client.post(url(event), line_post())
    assert client.post(url(event), line_post(enabled="", secret="", clear_secret="on")).status_code == 302
    assert WebhookSettings.objects.get().secret == ""


def test_the_test_message_is_post_only_and_sent_with_the_saved_settings(client, organiser, event, monkeypatch):
    assert client.get(url(event, "send_test")).status_code == 405
    response = client.post(url(event, "send_test"), follow=True)
    assert "先にアドレス" in response.content.decode() and not Delivery.objects.exists()
    client.post(url(event), line_post(enabled=""))  # saved, still off
    seen = []
    monkeypatch.setattr(sender, "TRANSPORT", lambda request: seen.append(request) or 200)
    response = client.post(url(event, "send_test"), follow=True)
    assert "テストメッセージを送りました" in response.content.decode()
    (request,) = seen
    body = json.loads(request.body)
    assert body["to"] == LINE_TO and "テストメッセージ" in body["messages"][0]["text"]
    delivery = Delivery.objects.get()
    assert delivery.kind == "test" and delivery.status == "sent"
    assert "テストメッセージ" in client.get(url(event)).content.decode()


def test_a_failed_test_message_says_why_without_the_token(client, organiser, event, monkeypatch):
    client.post(url(event), line_post())

    def down(request):
        raise OSError(f"Connection refused ({TOKEN})")

    monkeypatch.setattr(sender, "TRANSPORT", down)
    html = client.post(url(event, "send_test"), follow=True).content.decode()
    assert "送れませんでした" in html and "Connection refused" in html and TOKEN not in html
    assert Delivery.objects.get().status == "failed"  # a test message is tried once


@pytest.mark.parametrize("who", ["stranger", "other_organiser"])
def test_only_the_events_organisers_may_open_or_post(client, event, who):
    user = get_user_model().objects.create_user(who)
    if who == "other_organiser":
        make_event(slug="other").organisers.add(user)
    client.force_login(user)
    assert client.get(url(event)).status_code == 403
    assert client.post(url(event), line_post()).status_code == 403
    assert client.post(url(event, "send_test")).status_code == 403
    assert not WebhookSettings.objects.exists() and not Delivery.objects.exists()


def test_anonymous_is_sent_to_the_login(client, event):
    assert client.get(url(event)).status_code == 302


def test_the_setup_page_links_the_webhook_page(client, organiser, event):
    html = client.get(reverse("tournament:event_detail", args=[event.slug])).content.decode()
    assert url(event) in html


def test_the_page_says_when_the_links_would_have_no_address(client, organiser, event, settings):
    """Without SITE_URL a message's link is a bare path no phone opens: the page says so (in
    Japanese, the setting's and the commands' names as code) and how the messages are sent."""
    settings.SITE_URL = ""
    page = client.get(url(event), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "スマホでは開けません" in page and "<code>SITE_URL</code>" in page
    assert "<code>manage.py send_webhooks</code>" in page
    settings.SITE_URL = "https://karuta.example.jp"
    page = client.get(url(event), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "スマホでは開けません" not in page


def test_each_result_message_names_its_game(client, organiser, event):
    from judging import services as judging_services
    from judging.engine import rules
    from tests.tournament.test_stages_services import day

    played, _divisions = day([("小学生の部", [1], 4, {})])
    played.organisers.add(organiser)
    WebhookSettings.objects.create(
        event=played, enabled=True, kind="url", url="https://club.example.jp/h", secret="s" * 20
    )
    match = played.matches.order_by("match_number").first()
    judging_services.record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    page = client.get(url(played), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"第{match.match_number}試合" in page
