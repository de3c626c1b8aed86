"""URLs of the series app (see docs/architecture.md, "URL areas"): the organisers' series pages
under /series/ (login) and the public archive of editions under /archive/."""

from django.urls import path

from series.views import archive, exchange, manage, records

app_name = "series"

urlpatterns = [
    path("series/", manage.series_list, name="series_list"),
    path("series/clubs/", manage.clubs, name="clubs"),
    path("series/players/", records.players, name="players"),
    path("series/<slug:slug>/", manage.series_detail, name="series_detail"),
    path("series/<slug:slug>/edit/", manage.series_edit, name="series_edit"),
    path("series/<slug:slug>/events/", manage.series_events, name="series_events"),
    path("series/<slug:slug>/ranking.xlsx", manage.series_xlsx, name="series_xlsx"),
    path("series/<slug:slug>/ranking.pdf", manage.series_paper, name="series_pdf"),
    path("archive/", archive.index, name="archive"),
    path("archive/clubs/", archive.clubs, name="archive_clubs"),
    path("archive/records/", records.club_records, name="records"),
    path("archive/records/mc/", records.mc_records, name="records_mc"),
    path("archive/<int:year>/<slug:slug>/", archive.edition, name="archive_edition"),
    path("archive/imported/<int:pk>/", archive.imported, name="archive_imported"),
    # The results exchange between laptops (docs/exchange.md): organisers of the event.
    path("manage/<slug:slug>/exchange/", exchange.exchange, name="exchange"),
    path("manage/<slug:slug>/exchange/key/", exchange.key_download, name="key_download"),
    path("manage/<slug:slug>/exchange/export/", exchange.results_download, name="results_download"),
    path("manage/<slug:slug>/exchange/import/", exchange.results_import, name="results_import"),
]
