"""URLs of the reader app (see docs/architecture.md, "URL areas"): organisers' pages under
``/manage/<event>/reader/``, a court's reader link under ``/reader/<token>/`` (the token is the
credential), the practice page ``/reader/practice/`` (public)."""

from django.urls import path

from reader import reading_views

app_name = "reader"

urlpatterns = [
    path("manage/<slug:slug>/reader/", reading_views.manage, name="manage"),
    path("manage/<slug:slug>/reader/start/", reading_views.manage_start, name="manage_start"),
    path("manage/<slug:slug>/reader/link/", reading_views.manage_link, name="manage_link"),
    path("manage/<slug:slug>/reader/<int:pk>/", reading_views.manage_read, name="manage_read"),
    path("manage/<slug:slug>/reader/<int:pk>/lines/", reading_views.manage_lines, name="manage_lines"),
    path("manage/<slug:slug>/reader/<int:pk>/log/", reading_views.manage_log, name="manage_log"),
    path("manage/<slug:slug>/reader/<int:pk>/log.csv", reading_views.manage_log_csv, name="manage_log_csv"),
    path("reader/practice/", reading_views.practice, name="practice"),
    path("reader/<str:token>/", reading_views.link_home, name="link_home"),
    path("reader/<str:token>/<int:pk>/", reading_views.link_read, name="link_read"),
    path("reader/<str:token>/<int:pk>/lines/", reading_views.link_lines, name="link_lines"),
]
