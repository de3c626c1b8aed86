"""URLs of the series app (see docs/architecture.md, "URL areas")."""

from django.urls import path

from series.views import exchange

app_name = "series"

urlpatterns = [
    # The results exchange between laptops (docs/exchange.md): organisers of the event.
    path("manage/<slug:slug>/exchange/", exchange.exchange, name="exchange"),
    path("manage/<slug:slug>/exchange/key/", exchange.key_download, name="key_download"),
    path("manage/<slug:slug>/exchange/export/", exchange.results_download, name="results_download"),
    path("manage/<slug:slug>/exchange/import/", exchange.results_import, name="results_import"),
]
