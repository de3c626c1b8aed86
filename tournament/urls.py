"""The tournament's addresses: the public pages (/, /e/<event>/…), the organisers' pages
(/manage/…) and the public JSON API v1 (/api/v1/…).

``urlpatterns`` is the "tournament" namespace, ``api_patterns`` the "api" namespace
(``config/urls.py`` mounts both). Names and paths are an interface: links, printed QR
codes and hall screens use them.
"""

from django.urls import include, path, re_path
from django.views.generic import RedirectView

from judging.views import desk as judging_desk
from tournament.views import (
    announcements,
    api,
    displays,
    downloads,
    draw_schedule,
    people,
    public,
    setup,
    standings_stages,
    teams,
)

manage_patterns = [
    path("", setup.event_list, name="event_list"),
    path("<slug:slug>/", setup.event_detail, name="event_detail"),
    path("<slug:slug>/edit/", setup.event_edit, name="event_edit"),
    path("<slug:slug>/visibility/", setup.event_visibility, name="event_visibility"),
    path("<slug:slug>/delete/", setup.event_delete, name="event_delete"),
    path("<slug:slug>/divisions/add/", setup.division_edit, name="division_add"),
    path("<slug:slug>/divisions/<int:pk>/", setup.division_edit, name="division_edit"),
    path("<slug:slug>/courts/", judging_desk.court_links, name="court_links"),
    path("<slug:slug>/courts/<int:pk>/link/<slug:action>/", judging_desk.court_link_change, name="court_link_change"),
    path("<slug:slug>/people/", people.people, name="people"),
    path("<slug:slug>/announcements/", announcements.announcements, name="announcements"),
    path("<slug:slug>/courts/add/", setup.court_edit, name="court_add"),
    path("<slug:slug>/courts/<int:pk>/", setup.court_edit, name="court_edit"),
    path("<slug:slug>/teams/", teams.team_list, name="team_list"),
    path("<slug:slug>/teams/add/", teams.team_edit, name="team_add"),
    path("<slug:slug>/teams/<int:pk>/", teams.team_edit, name="team_edit"),
    path("<slug:slug>/teams/<int:pk>/withdraw/", teams.team_withdraw, name="team_withdraw"),
    path("<slug:slug>/teams/import/", teams.team_import, name="team_import"),
    path("<slug:slug>/teams/template.xlsx", teams.import_template, name="import_template"),
    path("<slug:slug>/teams/import/<str:token>/problems.xlsx", teams.import_report, name="import_report"),
    path("<slug:slug>/groups/", draw_schedule.groups, name="groups"),
    path("<slug:slug>/schedule/", draw_schedule.schedule, name="schedule"),
    path("<slug:slug>/schedule/checks/", draw_schedule.schedule_checks, name="schedule_checks"),
    # The steps of the groups and schedule pages, one POST-only address each (issue 30, item 5).
    path("<slug:slug>/groups/draw/", draw_schedule.groups_draw, name="groups_draw"),
    path("<slug:slug>/groups/move/", draw_schedule.team_move, name="team_move"),
    path("<slug:slug>/groups/late-team/", draw_schedule.late_team, name="late_team"),
    path("<slug:slug>/schedule/make/", draw_schedule.schedule_make, name="schedule_make"),
    path("<slug:slug>/schedule/clear/", draw_schedule.schedule_clear, name="schedule_clear"),
    path("<slug:slug>/schedule/delay/", draw_schedule.court_delay, name="court_delay"),
    path("<slug:slug>/schedule/close-court/", draw_schedule.court_close, name="court_close"),
    path("<slug:slug>/standings/", standings_stages.standings_view, name="standings"),
    path("<slug:slug>/knockout/", standings_stages.knockout, name="knockout"),
    path("<slug:slug>/print/", downloads.print_menu, name="print_menu"),
    path("<slug:slug>/print/sheets.pdf", downloads.recording_sheets, name="recording_sheets"),
    path("<slug:slug>/print/programme/", downloads.programme_texts, name="programme_texts"),
    path("<slug:slug>/print/<slug:kind>.pdf", downloads.print_paper, name="print_paper"),
    path("<slug:slug>/export/results.xlsx", downloads.export_workbook, name="export_workbook"),
    path("<slug:slug>/export/<slug:kind>.csv", downloads.export_csv, name="export_csv"),
]

public_patterns = [
    path("", public.home, name="public_home"),
    path("e/<slug:slug>/", public.timetable, name="public_timetable"),
    path("e/<slug:slug>/court/<int:court>/", public.timetable, name="public_court"),
    path("e/<slug:slug>/team/<int:team>/", public.timetable, name="public_team"),
    path("e/<slug:slug>/results/", public.results, name="public_results"),
    path("e/<slug:slug>/results.xlsx", public.public_export, name="public_export"),
    path("e/<slug:slug>/<slug:kind>.csv", public.public_csv, name="public_csv"),
    path("e/<slug:slug>/calendar.ics", public.event_calendar, name="public_event_ics"),
    path("e/<slug:slug>/team/<int:team>/calendar.ics", public.team_calendar, name="public_team_ics"),
    path("e/<slug:slug>/standings/", public.standings, name="public_standings"),
    path("e/<slug:slug>/bracket/", public.bracket, name="public_bracket"),
    path("e/<slug:slug>/final/", public.final_results, name="public_final"),
    path("e/<slug:slug>/display/division/<int:division>/", displays.division_display, name="division_display"),
    path("e/<slug:slug>/display/court/<int:court>/", displays.court_display, name="court_display"),
    path("e/<slug:slug>/display/podium/<int:division>/", displays.podium_display, name="podium_display"),
    path("e/<slug:slug>/display/courts/", displays.courts_display, name="courts_display"),
    path("e/<slug:slug>/display/rotate/", displays.rotation_display, name="display_rotation"),
    path("e/<slug:slug>/display/state.json", displays.display_state, name="display_state"),
    path("e/<slug:slug>/display/qr.svg", displays.display_qr, name="display_qr"),
]

app_name = "tournament"
urlpatterns = [*public_patterns, path("manage/", include(manage_patterns))]

# Mounted at /api/v1/. No trailing slash after a document's name: the paths match as
# written, so APPEND_SLASH never redirects a screen's poll.
api_patterns = [
    path("events/", api.events, name="events"),
    # The one address people type without its slash: sent on to the list for good.
    path("events", RedirectView.as_view(pattern_name="api:events", permanent=True, query_string=True)),
    path("openapi.json", api.openapi, name="openapi"),
    path("events/<slug:slug>/timetable", api.timetable, name="timetable"),
    path("events/<slug:slug>/results", api.results, name="results"),
    path("events/<slug:slug>/standings", api.standings, name="standings"),
    path("events/<slug:slug>/bracket", api.bracket, name="bracket"),
    # Anything else under /api/v1/ is a JSON 404, not the site's HTML page.
    re_path(r"^.*$", api.not_found),
]
