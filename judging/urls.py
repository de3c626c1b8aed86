"""The judging addresses ("judging" namespace): the referees' court links
(/court/<token>/…) and the recorders' result pages (/manage/<event>/games/…)."""

from django.urls import path

from judging.views import court, desk

app_name = "judging"
urlpatterns = [
    path("court/<str:token>/", court.court_home, name="court_home"),
    path("court/<str:token>/game/<int:number>/", court.court_entry, name="court_entry"),
    path("court/<str:token>/game/<int:number>/start/", court.court_start, name="court_start"),
    path("court/<str:token>/game/<int:number>/saved/<int:version>/", court.court_saved, name="court_saved"),
    path("court/<str:token>/game/<int:number>/saved/<int:version>/sign/", court.court_sign, name="court_sign"),
    path("court/<str:token>/game/<int:number>/saved/<int:version>/photo/", court.court_photo, name="court_photo"),
    path("court/<str:token>/game/<int:number>/dispute/", court.court_dispute, name="court_dispute"),
    path("court/<str:token>/state.json", court.court_state, name="court_state"),
    path("court/<str:token>/heard/", court.court_heard, name="court_heard"),
    path("court/<str:token>/rules/", court.court_rules, name="court_rules"),
    path("court/<str:token>/rules/matrix.pdf", court.court_matrix_pdf, name="court_matrix_pdf"),
    path("court/<str:token>/rules/setup.pdf", court.court_setup_pdf, name="court_setup_pdf"),
    path("manage/<slug:slug>/games/<int:number>/", desk.match_detail, name="match_detail"),
    # The desk's buttons on a game's page, one POST-only address each (issue 30, item 5).
    path("manage/<slug:slug>/games/<int:number>/confirm/", desk.match_confirm, name="match_confirm"),
    path("manage/<slug:slug>/games/<int:number>/retype/", desk.match_retype, name="match_retype"),
    path("manage/<slug:slug>/games/<int:number>/reject/", desk.match_reject, name="match_reject"),
    path("manage/<slug:slug>/games/<int:number>/restore/", desk.match_restore, name="match_restore"),
    path("manage/<slug:slug>/games/<int:number>/void/", desk.match_void, name="match_void"),
    path("manage/<slug:slug>/games/<int:number>/reopen/", desk.match_reopen, name="match_reopen"),
    path("manage/<slug:slug>/games/<int:number>/adopt/", desk.match_adopt, name="match_adopt"),
    path("manage/<slug:slug>/games/<int:number>/confirm-alone/", desk.confirm_own, name="confirm_own"),
    path("manage/<slug:slug>/games/<int:number>/dispute/", desk.organiser_dispute, name="organiser_dispute"),
    path("manage/<slug:slug>/games/<int:number>/photo/<int:version>.jpg", desk.sheet_photo, name="sheet_photo"),
    path("manage/<slug:slug>/confirm/", desk.confirm_queue, name="confirm_queue"),
    path("manage/<slug:slug>/board/", desk.status_board, name="status_board"),
]
