"""Login throttling: five wrong passwords lock that login name from that address for a while;
the address is the client's (behind a proxy: the entry the proxy added to X-Forwarded-For)."""

import pytest
from django.test import override_settings

from config.client_ip import client_ip

pytestmark = pytest.mark.django_db


def test_after_five_wrong_passwords_even_the_right_one_is_refused(client, django_user_model):
    django_user_model.objects.create_user("organiser", password="the-right-password")
    for _ in range(4):
        response = client.post("/accounts/login/", {"username": "organiser", "password": "wrong"})
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"username": "organiser", "password": "wrong"})
    assert response.status_code == 429
    response = client.post("/accounts/login/", {"username": "organiser", "password": "the-right-password"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_right_password_logs_in_and_resets_the_count(client, django_user_model):
    django_user_model.objects.create_user("organiser", password="the-right-password")
    for _ in range(3):
        client.post("/accounts/login/", {"username": "organiser", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "organiser", "password": "the-right-password"})
    assert response.status_code == 302


# --- the attacker's address is locked, never the organiser everywhere (issue 18, item 3) --------

ATTACKER, ORGANISER, PROXY = "198.51.100.7", "203.0.113.20", "127.0.0.1"


def wrong_five_times(client, **meta):
    for _ in range(5):
        client.post("/accounts/login/", {"username": "organiser", "password": "wrong"}, **meta)


def log_in(client, **meta):
    return client.post("/accounts/login/", {"username": "organiser", "password": "the-right-password"}, **meta)


def test_five_wrong_passwords_from_one_address_do_not_lock_the_user_on_another(client, django_user_model):
    django_user_model.objects.create_user("organiser", password="the-right-password")
    wrong_five_times(client, REMOTE_ADDR=ATTACKER)
    assert log_in(client, REMOTE_ADDR=ATTACKER).status_code == 429
    assert log_in(client, REMOTE_ADDR=ORGANISER).status_code == 302


def test_without_a_proxy_a_forged_forwarded_header_changes_nothing(client, django_user_model):
    django_user_model.objects.create_user("organiser", password="the-right-password")
    for n in range(5):  # a new made-up address each time: still the same attacker
        client.post(
            "/accounts/login/",
            {"username": "organiser", "password": "wrong"},
            REMOTE_ADDR=ATTACKER,
            HTTP_X_FORWARDED_FOR=f"10.0.0.{n}",
        )
    assert log_in(client, REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR=ORGANISER).status_code == 429


@override_settings(KARUTA_BEHIND_PROXY=True)
def test_behind_the_proxy_the_forwarded_address_decides(client, django_user_model):
    django_user_model.objects.create_user("organiser", password="the-right-password")
    # Every request comes from the proxy; the proxy appends the address it saw.
    wrong_five_times(client, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=ATTACKER)
    assert log_in(client, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=ATTACKER).status_code == 429
    # The attacker cannot pose as the organiser: only the entry the proxy added counts.
    spoofed = f"{ORGANISER}, {ATTACKER}"
    assert log_in(client, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=spoofed).status_code == 429
    assert log_in(client, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=ORGANISER).status_code == 302


@override_settings(KARUTA_BEHIND_PROXY=True)
def test_behind_the_proxy_a_missing_or_bad_header_falls_back_to_the_connection(rf):
    assert client_ip(rf.get("/", REMOTE_ADDR=PROXY)) == PROXY
    assert client_ip(rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="not an address")) == PROXY
    assert client_ip(rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=" 2001:db8::1 ")) == "2001:db8::1"
