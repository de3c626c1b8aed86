"""Proxy trust by address (issue 28, item 5): behind a proxy, X-Forwarded-For is read only on a
connection from one of KARUTA_TRUSTED_PROXIES; a client reaching gunicorn directly is counted at
its own address for the login throttle, whatever it sends."""

from pathlib import Path

import pytest
from django.test import override_settings

from config.client_ip import client_ip, from_trusted_proxy

pytestmark = pytest.mark.django_db

ATTACKER, ORGANISER = "198.51.100.7", "203.0.113.20"


@override_settings(KARUTA_BEHIND_PROXY=True)
def test_a_direct_client_cannot_pick_its_address(rf):
    # The default trusts loopback only: a LAN client's header is ignored.
    request = rf.get("/", REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR=ORGANISER)
    assert client_ip(request) == ATTACKER
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ORGANISER)
    assert client_ip(request) == ORGANISER
    request = rf.get("/", REMOTE_ADDR="::1", HTTP_X_FORWARDED_FOR=ORGANISER)
    assert client_ip(request) == ORGANISER


@override_settings(KARUTA_BEHIND_PROXY=True, KARUTA_TRUSTED_PROXIES=["10.0.0.5", "10.1.0.0/24"])
def test_configured_proxies_are_trusted_and_loopback_no_longer(rf):
    assert client_ip(rf.get("/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR=ORGANISER)) == ORGANISER
    assert client_ip(rf.get("/", REMOTE_ADDR="10.1.0.77", HTTP_X_FORWARDED_FOR=ORGANISER)) == ORGANISER
    assert client_ip(rf.get("/", REMOTE_ADDR="10.0.0.6", HTTP_X_FORWARDED_FOR=ORGANISER)) == "10.0.0.6"
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ORGANISER)) == "127.0.0.1"


@override_settings(KARUTA_TRUSTED_PROXIES=["not a network", "::ffff:0:0/96", "127.0.0.1"])
def test_bad_entries_trust_nothing_and_mapped_addresses_are_read_as_ipv4():
    assert from_trusted_proxy("::ffff:127.0.0.1")
    assert not from_trusted_proxy("")
    assert not from_trusted_proxy("garbage")
    assert not from_trusted_proxy(None)


@override_settings(KARUTA_BEHIND_PROXY=True)
def test_a_direct_client_rotating_forged_headers_is_still_locked(client, django_user_model):
    django_user_model.objects.create_user("organiser", password="the-right-password")
    for n in range(5):
        client.post(
            "/accounts/login/",
            {"username": "organiser", "password": "wrong"},
            REMOTE_ADDR=ATTACKER,
            HTTP_X_FORWARDED_FOR=f"10.9.0.{n}",
        )
    right = {"username": "organiser", "password": "the-right-password"}
    response = client.post("/accounts/login/", right, REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR="10.9.0.99")
    assert response.status_code == 429
    # The organiser, through the proxy on loopback, is not locked.
    response = client.post("/accounts/login/", right, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ORGANISER)
    assert response.status_code == 302


def test_the_readme_recipe_binds_gunicorn_to_loopback():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "KARUTA_BEHIND_PROXY=1 KARUTA_HTTPS=1 make serve HOST=127.0.0.1" in readme
    assert "KARUTA_TRUSTED_PROXIES" in readme
