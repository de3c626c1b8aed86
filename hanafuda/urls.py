"""URLs of the hanafuda app, mounted at /games/hanafuda/ (see tournament/urls.py)."""

from django.urls import path  # noqa: F401

app_name = "hanafuda"

urlpatterns: list = []
