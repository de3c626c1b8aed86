"""URLs of the reader app ("reader" namespace; see docs/architecture.md, "URL areas").

- ``/reader/audio/<edition>/<card|phrase>/<name>/`` public: the audio the reader plays;
- ``/reader/decks/…`` deck editors (login; staff or an organiser of any event): the deck
  master, its Excel import and the recordings.
"""

from django.urls import path

from reader.views import audio

app_name = "reader"
urlpatterns = [
    path("reader/audio/<slug:slug>/<str:kind>/<str:name>/", audio.audio, name="audio"),
]
