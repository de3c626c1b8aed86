"""URLs of the dosai app, mounted at /games/dosai/ (see tournament/urls.py)."""

from django.urls import path

from dosai import views

app_name = "dosai"

urlpatterns = [
    path("", views.home, name="home"),
    path("editions/new/", views.edition_new, name="edition_new"),
    path("editions/<int:pk>/", views.edition, name="edition"),
    path("editions/<int:pk>/rename/", views.edition_rename, name="edition_rename"),
    path("editions/<int:pk>/delete/", views.edition_delete, name="edition_delete"),
    path("editions/<int:pk>/points-table.pdf", views.points_table, name="points_table"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:pk>/", views.session, name="session"),
    path("sessions/<int:pk>/rename/", views.session_rename, name="session_rename"),
    path("sessions/<int:pk>/delete/", views.session_delete, name="session_delete"),
    path("sessions/<int:pk>/session.xlsx", views.session_xlsx, name="session_xlsx"),
    path("sessions/<int:pk>/deal/", views.hand_new, name="hand_new"),
    path("sessions/<int:pk>/hands/<int:number>/", views.hand, name="hand"),
    path("sessions/<int:pk>/hands/<int:number>/state.json", views.hand_state, name="hand_state"),
    path("sessions/<int:pk>/hands/<int:number>/call/", views.hand_call, name="hand_call"),
    path("sessions/<int:pk>/hands/<int:number>/undo/", views.hand_undo, name="hand_undo"),
    path("sessions/<int:pk>/hands/<int:number>/turn-free/", views.hand_turn_free, name="hand_turn_free"),
    path("sessions/<int:pk>/hands/<int:number>/hand.xlsx", views.hand_xlsx, name="hand_xlsx"),
]
