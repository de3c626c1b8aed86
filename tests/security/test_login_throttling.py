"""Login throttling: five wrong passwords lock that login name from that address for a while."""

import pytest

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
