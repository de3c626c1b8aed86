"""URLs of the reader app ("reader" namespace; see docs/architecture.md, "URL areas").

- ``/reader/audio/<edition>/<card|phrase>/<name>/`` public: the audio the reader plays;
- ``/reader/decks/…`` the deck pages (login; staff or an organiser of any event): the deck
  master, a copy of a deck; editing a deck (cards, Excel import, recordings) for its owners
  only (its maker, the organisers of its event, staff; ``hitachi``: staff only);
- ``/manage/<event>/reader/…`` organisers and recorders: start a reading for a court or the
  hall, the courts' reader links, the readings' logs;
- ``/reader/<token>/…`` a court's reader link (the token, 20–64 characters, is the
  credential and reaches only its court);
- ``/reader/practice/`` public: the practice page (no tournament; the log stays in the browser).
"""

from django.urls import path, re_path

from reader.views import audio, decks, reading, recordings

app_name = "reader"

TOKEN = r"(?P<token>[A-Za-z0-9_-]{20,64})"

urlpatterns = [
    path("reader/audio/<slug:slug>/<str:kind>/<str:name>/", audio.audio, name="audio"),
    path("reader/decks/", decks.deck_list, name="deck_list"),
    path("reader/decks/<slug:slug>/", decks.deck_detail, name="deck_detail"),
    path("reader/decks/<slug:slug>/copy/", decks.deck_copy, name="deck_copy"),
    path("reader/decks/<slug:slug>/cards/add/", decks.card_edit, name="card_add"),
    path("reader/decks/<slug:slug>/cards/<int:pk>/", decks.card_edit, name="card_edit"),
    path("reader/decks/<slug:slug>/import/", decks.deck_import_view, name="deck_import"),
    path("reader/decks/<slug:slug>/cards.xlsx", decks.deck_template, name="deck_template"),
    path("reader/decks/<slug:slug>/recordings/", recordings.recording_upload, name="recording_upload"),
    path("reader/decks/<slug:slug>/recordings/delete/", recordings.recording_delete, name="recording_delete"),
    path("manage/<slug:slug>/reader/", reading.manage, name="manage"),
    path("manage/<slug:slug>/reader/start/", reading.manage_start, name="manage_start"),
    path("manage/<slug:slug>/reader/link/", reading.manage_link, name="manage_link"),
    path("manage/<slug:slug>/reader/<int:pk>/", reading.manage_read, name="manage_read"),
    path("manage/<slug:slug>/reader/<int:pk>/lines/", reading.manage_lines, name="manage_lines"),
    path("manage/<slug:slug>/reader/<int:pk>/log/", reading.manage_log, name="manage_log"),
    path("manage/<slug:slug>/reader/<int:pk>/log.csv", reading.manage_log_csv, name="manage_log_csv"),
    path("reader/practice/", reading.practice, name="practice"),
    re_path(rf"^reader/{TOKEN}/$", reading.link_home, name="link_home"),
    re_path(rf"^reader/{TOKEN}/(?P<pk>[0-9]{{1,9}})/$", reading.link_read, name="link_read"),
    re_path(rf"^reader/{TOKEN}/(?P<pk>[0-9]{{1,9}})/lines/$", reading.link_lines, name="link_lines"),
]
