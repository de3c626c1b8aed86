"""The outgoing webhook's outbox and sender (issue 35 item 2; docs/family-page.md).

The network is never reached: every send goes through a fake transport that records requests.
"""

import datetime
import hashlib
import hmac
import json

import pytest
from django.db import transaction
from django.utils import timezone

from judging import services as judging_services
from judging.engine import rules
from people.services import calls
from tests.tournament.test_stages_services import day
from webhooks import sender
from webhooks.models import LINE_PUSH_URL, MAX_ATTEMPTS, Delivery, WebhookSettings

LINE_TO = "C" + "0123456789abcdef" * 2
TOKEN = "line-channel-access-token-0123456789"
SECRET = "shared-secret-for-the-hmac-0123"
VALUES = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)


class FakeTransport:
    """Records each request; answers ``statuses`` in turn (an exception instance is raised)."""

    def __init__(self, *statuses):
        self.statuses = list(statuses) or [200]
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        answer = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(request, timeout=None):
        raise AssertionError(f"a test reached the network: {request.url}")

    monkeypatch.setattr(sender, "TRANSPORT", refuse)
    monkeypatch.setattr(sender, "urllib_transport", refuse)


@pytest.fixture
def event(db, settings):
    settings.SITE_URL = "https://karuta.example.jp"
    event, _divisions = day([("小学生の部", [1, 2], 6, {})])
    return event


def line_hook(event, **fields):
    values = {"enabled": True, "kind": "line", "url": LINE_PUSH_URL, "line_to": LINE_TO, "secret": TOKEN, **fields}
    return WebhookSettings.objects.create(event=event, **values)


def url_hook(event, **fields):
    values = {"enabled": True, "kind": "url", "url": "https://club.example.jp/hook", "secret": SECRET, **fields}
    return WebhookSettings.objects.create(event=event, **values)


def first_game(event):
    return event.matches.order_by("slot", "match_number").select_related("team_a", "team_b", "court").first()


def test_off_by_default_nothing_is_written(event):
    assert not WebhookSettings.for_event(event).enabled
    judging_services.record_confirmed_result(first_game(event), VALUES)
    assert not Delivery.objects.exists()


def test_a_confirmed_result_writes_its_delivery_in_the_same_transaction(event):
    line_hook(event)
    match = first_game(event)
    with pytest.raises(RuntimeError), transaction.atomic():
        judging_services.record_confirmed_result(match, VALUES)
        assert Delivery.objects.filter(kind="result").count() == 1  # inside the transaction
        raise RuntimeError("the confirmation fails after the row was written")
    assert not Delivery.objects.exists()  # rolled back with it
    match.refresh_from_db()
    assert match.awaits_result
    judging_services.record_confirmed_result(match, VALUES)
    (delivery,) = Delivery.objects.all()
    assert delivery.kind == "result" and delivery.status == "pending" and delivery.sheet.match_id == match.pk


def test_a_desk_confirmation_writes_a_delivery(event):
    event.auto_confirm = False
    event.save()
    url_hook(event)
    match = first_game(event)
    sheet, *_rest = judging_services.submit_sheet(match, VALUES)
    assert not Delivery.objects.exists()  # submitted, not confirmed
    from django.contrib.auth import get_user_model

    recorder = get_user_model().objects.create_user("rec")
    judging_services.confirm_sheet(sheet, recorder)
    assert Delivery.objects.filter(kind="result", sheet=sheet).count() == 1


def test_a_call_writes_one_delivery_per_call_and_none_for_a_double_tap(event):
    line_hook(event)
    match = first_game(event)
    calls.call_match(match, 1)
    calls.call_match(match, 1)  # the same tap sent twice
    calls.call_match(match, 2)
    assert list(Delivery.objects.order_by("pk").values_list("kind", "call__number")) == [("call", 1), ("call", 2)]


def test_the_kinds_chosen_are_the_only_ones_written(event):
    line_hook(event, send_results=False)
    match = first_game(event)
    calls.call_match(match, 1)
    judging_services.record_confirmed_result(match, VALUES)
    assert list(Delivery.objects.values_list("kind", flat=True)) == ["call"]


def test_line_payload_is_a_push_message(event):
    line_hook(event)
    match = first_game(event)
    judging_services.record_confirmed_result(match, VALUES)
    transport = FakeTransport(200)
    assert sender.send_due(transport=transport) == (1, 0)
    (request,) = transport.requests
    assert request.url == "https://api.line.me/v2/bot/message/push"
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert request.headers["Content-Type"] == "application/json"
    body = json.loads(request.body)
    assert set(body) == {"to", "messages"} and body["to"] == LINE_TO
    (message,) = body["messages"]
    assert message["type"] == "text"
    lines = message["text"].split("\n")
    assert lines[0].startswith("テストかるた大会")
    assert f"{match.team_a.name} 30 – 26 {match.team_b.name}" in lines
    assert f"勝ち：{match.team_a.name}" in lines
    assert lines[-1] == f"https://karuta.example.jp/e/{event.slug}/results/"
    delivery = Delivery.objects.get()
    assert (
        delivery.status == "sent" and delivery.attempts == 1 and delivery.sent_at and delivery.text == message["text"]
    )


def test_a_call_sends_the_announcements_share_text_without_players_names(event):
    from tournament import share

    event.publish_names = True
    event.save()
    line_hook(event)
    match = first_game(event)
    call = calls.call_match(match, 1)
    transport = FakeTransport(200)
    sender.send_due(transport=transport)
    text = json.loads(transport.requests[0].body)["messages"][0]["text"]

    class Shown:
        shown_from = call.called_at
        text = call.text

    url = f"https://karuta.example.jp/e/{event.slug}/"
    assert text == share.announcement_text(event, Shown, url)  # the 「LINEで送る文面」 button's words
    assert call.text in text
    for player in (*match.team_a.players.all(), *match.team_b.players.all()):
        assert player.name not in text


def test_result_text_never_names_players_even_where_names_are_published(event):
    event.publish_names = True
    event.save()
    url_hook(event)
    match = first_game(event)
    judging_services.record_confirmed_result(match, VALUES)
    transport = FakeTransport(200)
    sender.send_due(transport=transport)
    text = json.loads(transport.requests[0].body)["text"]
    for player in (*match.team_a.players.all(), *match.team_b.players.all()):
        assert player.name not in text


def test_any_url_gets_json_signed_with_hmac_sha256(event):
    url_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    transport = FakeTransport(204)
    sender.send_due(transport=transport)
    (request,) = transport.requests
    assert request.url == "https://club.example.jp/hook"
    expected = hmac.new(SECRET.encode(), request.body, hashlib.sha256).hexdigest()
    assert request.headers["X-Karuta-Signature"] == f"sha256={expected}"
    assert "Authorization" not in request.headers
    body = json.loads(request.body)
    assert body["event"] == event.slug and body["kind"] == "result" and body["id"] == Delivery.objects.get().pk
    assert SECRET not in request.body.decode()
    # a signature with another secret does not match
    assert sender.signature("another-secret-0000000", request.body) != request.headers["X-Karuta-Signature"]


def test_a_failure_is_retried_with_back_off_and_keeps_its_error(event):
    line_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    now = timezone.now()
    transport = FakeTransport(OSError("Network is unreachable"), 500, 200)
    assert sender.send_due(transport=transport, now=now) == (0, 1)
    delivery = Delivery.objects.get()
    assert delivery.status == "pending" and delivery.attempts == 1
    assert "Network is unreachable" in delivery.last_error  # the system's words, in a sentence
    assert delivery.next_attempt_at == now + datetime.timedelta(seconds=30)
    first_text = delivery.text
    # not due yet: nothing is tried
    assert sender.send_due(transport=transport, now=now + datetime.timedelta(seconds=10)) == (0, 0)
    later = now + datetime.timedelta(seconds=31)
    assert sender.send_due(transport=transport, now=later) == (0, 1)
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and "500" in delivery.last_error
    assert delivery.next_attempt_at == later + datetime.timedelta(seconds=60)
    assert sender.send_due(transport=transport, now=later + datetime.timedelta(minutes=2)) == (1, 0)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and delivery.attempts == 3 and delivery.last_error == ""
    # every attempt sent the same words
    assert {json.loads(r.body)["messages"][0]["text"] for r in transport.requests} == {first_text}


def test_back_off_doubles_up_to_an_hour():
    assert [sender.backoff(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert sender.backoff(20) == datetime.timedelta(hours=1)


def test_a_delivery_is_given_up_after_the_last_attempt(event):
    line_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    transport = FakeTransport(OSError("timed out"))
    now = timezone.now()
    for _ in range(MAX_ATTEMPTS + 2):
        sender.send_due(transport=transport, now=now)
        now += datetime.timedelta(hours=2)
    delivery = Delivery.objects.get()
    assert delivery.status == "failed" and delivery.attempts == MAX_ATTEMPTS
    assert len(transport.requests) == MAX_ATTEMPTS and "timed out" in delivery.last_error


def test_the_secret_never_reaches_the_error_kept(event):
    hook = line_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    sender.send_due(transport=FakeTransport(OSError(f"refused with {hook.secret}")))
    delivery = Delivery.objects.get()
    assert TOKEN not in delivery.last_error and "***" in delivery.last_error


def test_a_webhook_turned_off_keeps_its_messages_waiting(event):
    hook = line_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    hook.enabled = False
    hook.save()
    transport = FakeTransport(200)
    assert sender.send_due(transport=transport) == (0, 0) and not transport.requests
    assert Delivery.objects.get().status == "pending"


def test_a_delivery_claimed_by_another_sender_is_not_sent_twice(event):
    line_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    now = timezone.now()
    Delivery.objects.update(next_attempt_at=now + sender.LEASE)  # claimed by another process
    transport = FakeTransport(200)
    assert sender.send_due(transport=transport, now=now) == (0, 0)


def test_send_webhooks_once(event, capsys, monkeypatch):
    from django.core.management import call_command

    line_hook(event)
    judging_services.record_confirmed_result(first_game(event), VALUES)
    transport = FakeTransport(200)
    monkeypatch.setattr(sender, "TRANSPORT", transport)
    call_command("send_webhooks", "--once")
    assert "1 sent" in capsys.readouterr().out
    assert len(transport.requests) == 1 and Delivery.objects.get().status == "sent"


def test_the_secret_is_not_editable_and_shown_by_its_fingerprint_only(event):
    hook = line_hook(event)
    field = WebhookSettings._meta.get_field("secret")
    assert not field.editable
    assert len(hook.secret_id) == 12 and hook.secret_id not in TOKEN and TOKEN not in str(hook)


def test_a_corrected_result_replaces_its_waiting_message_not_a_sent_one(event):
    """A correction confirmed before the first message went out: only the result that stands is
    sent (the club's group never reads the old score first); a message already sent stays."""
    url_hook(event)
    match, other = event.matches.order_by("slot", "match_number")[:2]
    first = judging_services.record_confirmed_result(match, VALUES)
    judging_services.record_confirmed_result(other, VALUES)
    corrected = rules.SheetValues(31, 25, 0, rules.JokerHolder.A)
    second = judging_services.record_confirmed_result(match, corrected, base_version=first.version)
    waiting = Delivery.objects.filter(kind="result", status="pending")
    assert sorted((d.sheet.match_id, d.sheet_id) for d in waiting) == sorted(
        [(match.pk, second.pk), (other.pk, other.sheets.get(is_confirmed=True).pk)]
    )
    Delivery.objects.filter(sheet=second).update(status="sent")
    third = judging_services.record_confirmed_result(
        match, rules.SheetValues(32, 24, 0, rules.JokerHolder.A), base_version=second.version
    )
    assert Delivery.objects.filter(sheet=second, status="sent").exists()
    assert Delivery.objects.filter(sheet=third, status="pending").exists()


@pytest.mark.parametrize(
    "error, words",
    [
        (
            sender.urllib.error.URLError(sender.socket.gaierror(-2, "Name or service not known")),
            "送信先が見つかりません",
        ),
        (TimeoutError("timed out"), "秒以内に応答がありませんでした"),
        (sender.urllib.error.URLError(ConnectionRefusedError(111, "refused")), "接続を拒否しました"),
        (OSError("disk on fire"), "送信できませんでした（disk on fire）"),
    ],
)
def test_a_failed_send_is_said_in_the_pages_language(event, error, words):
    from django.utils import translation

    hook = url_hook(event)
    with translation.override("ja"):
        delivery = sender.send_test(hook, transport=FakeTransport(error))
    assert words in delivery.last_error and "Errno" not in delivery.last_error
