"""URLs of the dosai app, mounted at /games/dosai/ (see tournament/urls.py)."""

from django.urls import path  # noqa: F401

app_name = "dosai"

urlpatterns: list = []
