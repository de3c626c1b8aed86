"""URLs of the outgoing webhook (issue 35 item 2): under ``/manage/<event>/webhook/``, organisers
of the event only."""

from django.urls import path

from webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("manage/<slug:slug>/webhook/", views.settings_page, name="settings"),
    path("manage/<slug:slug>/webhook/test/", views.send_test, name="send_test"),
]
