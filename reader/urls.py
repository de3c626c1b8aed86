"""URLs of the reader app ("reader" namespace; see docs/architecture.md, "URL areas").

- ``/reader/audio/<edition>/<card|phrase>/<name>/`` public: the audio the reader plays;
- ``/reader/decks/…`` deck editors (login; staff or an organiser of any event): the deck
  master, its Excel import and the recordings.
"""

from django.urls import path

from reader.views import audio, decks, recordings

app_name = "reader"
urlpatterns = [
    path("reader/audio/<slug:slug>/<str:kind>/<str:name>/", audio.audio, name="audio"),
    path("reader/decks/", decks.deck_list, name="deck_list"),
    path("reader/decks/<slug:slug>/", decks.deck_detail, name="deck_detail"),
    path("reader/decks/<slug:slug>/cards/add/", decks.card_edit, name="card_add"),
    path("reader/decks/<slug:slug>/cards/<int:pk>/", decks.card_edit, name="card_edit"),
    path("reader/decks/<slug:slug>/import/", decks.deck_import_view, name="deck_import"),
    path("reader/decks/<slug:slug>/cards.xlsx", decks.deck_template, name="deck_template"),
    path("reader/decks/<slug:slug>/recordings/", recordings.recording_upload, name="recording_upload"),
    path("reader/decks/<slug:slug>/recordings/delete/", recordings.recording_delete, name="recording_delete"),
]
