"""URLs of the awards app (see docs/architecture.md, "URL areas"): the awards desk under
``/manage/<event>/awards/``, organisers of the event only (players' names)."""

from django.urls import path

from awards import views

app_name = "awards"

urlpatterns = [
    path("manage/<slug:slug>/awards/", views.desk, name="desk"),
    path("manage/<slug:slug>/awards/print/", views.print_certificates, name="print"),
    path("manage/<slug:slug>/awards/collected/", views.collected, name="collected"),
    path("manage/<slug:slug>/awards/preview/", views.preview, name="preview"),
    path("manage/<slug:slug>/awards/calibration/", views.calibration, name="calibration"),
    path("manage/<slug:slug>/awards/settings/", views.settings_page, name="settings"),
    path("manage/<slug:slug>/awards/prizes/", views.add_prize, name="add_prize"),
    path("manage/<slug:slug>/awards/prizes/<int:pk>/remove/", views.remove_prize, name="remove_prize"),
    path("manage/<slug:slug>/awards/mc/", views.mc_list, name="mc_list"),
]
