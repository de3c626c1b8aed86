"""The site's URL areas: /manage/ organisers (login), /court/<token>/ referees, /e/<event>/ public."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import views as config_views
from judging import views as judging_views
from tournament import public_views, views

manage_patterns = [
    path("", views.event_list, name="event_list"),
    path("<slug:slug>/", views.event_detail, name="event_detail"),
    path("<slug:slug>/edit/", views.event_edit, name="event_edit"),
    path("<slug:slug>/divisions/add/", views.division_edit, name="division_add"),
    path("<slug:slug>/divisions/<int:pk>/", views.division_edit, name="division_edit"),
    path("<slug:slug>/courts/", judging_views.court_links, name="court_links"),
    path("<slug:slug>/people/", views.people, name="people"),
    path("<slug:slug>/courts/add/", views.court_edit, name="court_add"),
    path("<slug:slug>/courts/<int:pk>/", views.court_edit, name="court_edit"),
    path("<slug:slug>/teams/", views.team_list, name="team_list"),
    path("<slug:slug>/teams/add/", views.team_edit, name="team_add"),
    path("<slug:slug>/teams/<int:pk>/", views.team_edit, name="team_edit"),
    path("<slug:slug>/teams/<int:pk>/withdraw/", views.team_withdraw, name="team_withdraw"),
    path("<slug:slug>/teams/import/", views.team_import, name="team_import"),
    path("<slug:slug>/teams/template.xlsx", views.import_template, name="import_template"),
    path("<slug:slug>/teams/import/<str:token>/problems.xlsx", views.import_report, name="import_report"),
    path("<slug:slug>/groups/", views.groups, name="groups"),
    path("<slug:slug>/schedule/", views.schedule, name="schedule"),
    path("<slug:slug>/schedule/checks/", views.schedule_checks, name="schedule_checks"),
    path("<slug:slug>/standings/", views.standings_view, name="standings"),
    path("<slug:slug>/knockout/", views.knockout, name="knockout"),
    path("<slug:slug>/print/", views.print_menu, name="print_menu"),
    path("<slug:slug>/print/sheets.pdf", views.recording_sheets, name="recording_sheets"),
    path("<slug:slug>/print/<slug:kind>.pdf", views.print_paper, name="print_paper"),
    path("<slug:slug>/export/results.xlsx", views.export_workbook, name="export_workbook"),
]

public_patterns = [
    path("", public_views.home, name="public_home"),
    path("e/<slug:slug>/", public_views.timetable, name="public_timetable"),
    path("e/<slug:slug>/court/<int:court>/", public_views.timetable, name="public_court"),
    path("e/<slug:slug>/team/<int:team>/", public_views.timetable, name="public_team"),
    path("e/<slug:slug>/results/", public_views.results, name="public_results"),
    path("e/<slug:slug>/results.xlsx", public_views.public_export, name="public_export"),
    path("e/<slug:slug>/standings/", public_views.standings, name="public_standings"),
    path("e/<slug:slug>/bracket/", public_views.bracket, name="public_bracket"),
    path("e/<slug:slug>/final/", public_views.final_results, name="public_final"),
    path("e/<slug:slug>/display/division/<int:division>/", public_views.division_display, name="division_display"),
    path("e/<slug:slug>/display/court/<int:court>/", public_views.court_display, name="court_display"),
]

judging_patterns = (
    [
        path("court/<str:token>/", judging_views.court_home, name="court_home"),
        path("court/<str:token>/game/<int:number>/", judging_views.court_entry, name="court_entry"),
        path("court/<str:token>/game/<int:number>/saved/<int:version>/", judging_views.court_saved, name="court_saved"),
        path("court/<str:token>/game/<int:number>/dispute/", judging_views.court_dispute, name="court_dispute"),
        path("court/<str:token>/rules/", judging_views.court_rules, name="court_rules"),
        path("court/<str:token>/rules/matrix.pdf", judging_views.court_matrix_pdf, name="court_matrix_pdf"),
        path("manage/<slug:slug>/games/<int:number>/", judging_views.game_detail, name="game_detail"),
        path(
            "manage/<slug:slug>/games/<int:number>/dispute/", judging_views.organiser_dispute, name="organiser_dispute"
        ),
        path("manage/<slug:slug>/confirm/", judging_views.confirm_queue, name="confirm_queue"),
        path("manage/<slug:slug>/board/", judging_views.status_board, name="status_board"),
    ],
    "judging",
)

urlpatterns = [
    path("healthz", config_views.healthz, name="healthz"),
    path("", include("ops.urls")),  # /manage/backup/latest/ (superuser)
    path("", include((public_patterns + [path("manage/", include(manage_patterns))], "tournament"))),
    path("", include(judging_patterns)),
    path("games/", views.games, name="games"),
    path("games/hanafuda/", include("hanafuda.urls")),
    path("games/dosai/", include("dosai.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()
