"""URLs of the club_entry app (see docs/architecture.md, "URL areas"): ``/club/<token>/…`` the
club's pages (the token is the credential), ``/manage/<event>/clubs/…`` the organiser's."""

from django.urls import path

from club_entry.views import club, manage

app_name = "club_entry"

urlpatterns = [
    path("club/<str:token>/", club.club_home, name="home"),
    path("club/<str:token>/team/add/", club.club_team, name="team_add"),
    path("club/<str:token>/team/<int:pk>/", club.club_team, name="team_edit"),
    path("club/<str:token>/team/<int:pk>/remove/", club.club_team_remove, name="team_remove"),
    path("club/<str:token>/absent/", club.club_absent, name="absent"),
    path("manage/<slug:slug>/clubs/", manage.club_links, name="links"),
    path("manage/<slug:slug>/clubs/links.pdf", manage.links_pdf, name="links_pdf"),
    path("manage/<slug:slug>/clubs/<int:pk>/<str:action>/", manage.link_change, name="link_change"),
]
