"""The sender on a timer in a server process of ``serve`` (issue 35 item 2; webhooks/apps.py).
The network is never reached (a fake transport)."""

import io
import os
import threading

import pytest
from django.apps import apps
from django.core.management import call_command

from tests.factories import make_event
from webhooks import sender
from webhooks.apps import SENDER_ENV, start_sender
from webhooks.models import Delivery, WebhookSettings


def test_serve_asks_its_server_processes_for_the_sender(monkeypatch, db):
    monkeypatch.setenv(SENDER_ENV, "0")  # put back after the test
    call_command("serve", "--dry-run", "--no-qr", stdout=io.StringIO())
    assert os.environ[SENDER_ENV] == "1"


def test_the_app_config_starts_the_timer_once_per_process(monkeypatch):
    started = []
    monkeypatch.setattr("webhooks.apps._started", threading.Event())
    monkeypatch.setattr("webhooks.apps.threading.Thread.start", lambda self: started.append(self.name))
    config = apps.get_app_config("webhooks")
    assert config.start_sender() is not None and config.start_sender() is None
    assert started == ["send-webhooks"]


@pytest.mark.django_db(transaction=True)
def test_the_timer_sends_the_waiting_messages(monkeypatch):
    seen = []
    monkeypatch.setattr(sender, "TRANSPORT", lambda request: seen.append(request.url) or 200)
    event = make_event(slug="timer")
    WebhookSettings.objects.create(
        event=event, enabled=True, kind="url", url="https://club.example.jp/hook", secret="s" * 20
    )
    delivery = Delivery.objects.create(event=event, kind=Delivery.Kind.TEST)
    stop = threading.Event()
    thread = start_sender(interval=0.05, stop=stop)
    try:
        for _ in range(200):
            delivery.refresh_from_db()
            if delivery.status == Delivery.Status.SENT:
                break
            stop.wait(0.05)
    finally:
        stop.set()
        thread.join(5)
    assert delivery.status == Delivery.Status.SENT and seen == ["https://club.example.jp/hook"]
