"""The judging addresses ("judging" namespace): the referees' court links
(/court/<token>/…) and the recorders' result pages (/manage/<event>/games/…)."""

from django.urls import path

from judging import views

app_name = "judging"
urlpatterns = [
    path("court/<str:token>/", views.court_home, name="court_home"),
    path("court/<str:token>/game/<int:number>/", views.court_entry, name="court_entry"),
    path("court/<str:token>/game/<int:number>/saved/<int:version>/", views.court_saved, name="court_saved"),
    path("court/<str:token>/game/<int:number>/saved/<int:version>/sign/", views.court_sign, name="court_sign"),
    path("court/<str:token>/game/<int:number>/saved/<int:version>/photo/", views.court_photo, name="court_photo"),
    path("court/<str:token>/game/<int:number>/dispute/", views.court_dispute, name="court_dispute"),
    path("court/<str:token>/state.json", views.court_state, name="court_state"),
    path("court/<str:token>/heard/", views.court_heard, name="court_heard"),
    path("court/<str:token>/rules/", views.court_rules, name="court_rules"),
    path("court/<str:token>/rules/matrix.pdf", views.court_matrix_pdf, name="court_matrix_pdf"),
    path("manage/<slug:slug>/games/<int:number>/", views.match_detail, name="match_detail"),
    path("manage/<slug:slug>/games/<int:number>/confirm-alone/", views.confirm_own, name="confirm_own"),
    path("manage/<slug:slug>/games/<int:number>/dispute/", views.organiser_dispute, name="organiser_dispute"),
    path("manage/<slug:slug>/games/<int:number>/photo/<int:version>.jpg", views.sheet_photo, name="sheet_photo"),
    path("manage/<slug:slug>/confirm/", views.confirm_queue, name="confirm_queue"),
    path("manage/<slug:slug>/board/", views.status_board, name="status_board"),
]
