"""URLs of the hanafuda app, mounted at /games/hanafuda/ (see tournament/urls.py)."""

from django.urls import path

from hanafuda import views

app_name = "hanafuda"

urlpatterns = [
    path("", views.session_list, name="session_list"),
    path("new/", views.session_create, name="session_create"),
    path("reference-card.pdf", views.reference_card_pdf, name="reference_card_default"),
    path("<int:pk>/", views.session_detail, name="session_detail"),
    path("<int:pk>/rounds/new/", views.round_entry, name="round_entry"),
    path("<int:pk>/rounds/undo/", views.round_undo, name="round_undo"),
    path("<int:pk>/rounds/preview/", views.round_preview, name="round_preview"),
    path("<int:pk>/rounds/<int:number>/", views.round_detail, name="round_detail"),
    path("<int:pk>/history/", views.history, name="history"),
    path("<int:pk>/settlement/", views.settlement, name="settlement"),
    path("<int:pk>/score-sheet.pdf", views.score_sheet_pdf, name="score_sheet"),
    path("<int:pk>/reference-card.pdf", views.reference_card_pdf, name="reference_card"),
    path("<int:pk>/session.xlsx", views.session_xlsx, name="session_xlsx"),
]
