"""URLs of the people of the day (issue 32; docs/people.md): ``/manage/<event>/day/…`` the
organisers' and the day roles' pages, ``/e/<event>/card/<code>/`` what a team card's QR opens."""

from django.urls import path

from people.views import announcer, cards, reception, referees, roll_call, roster, setup

app_name = "people"

urlpatterns = [
    path("manage/<slug:slug>/day/", setup.day, name="day"),
    path("manage/<slug:slug>/reception/", reception.reception_desk, name="reception"),
    path("manage/<slug:slug>/reception/card/", reception.card_checkin, name="card_checkin"),
    path("manage/<slug:slug>/announcer/", announcer.announcer, name="announcer"),
    path("manage/<slug:slug>/day/team-cards.pdf", cards.team_cards_pdf, name="team_cards"),
    path("manage/<slug:slug>/referees/", referees.referees, name="referees"),
    path("manage/<slug:slug>/referees/<int:pk>/", referees.referee_edit, name="referee_edit"),
    path("manage/<slug:slug>/referees.pdf", referees.referees_pdf, name="referees_pdf"),
    path("manage/<slug:slug>/roster/", roster.roster, name="roster"),
    path("manage/<slug:slug>/roster.pdf", roster.roster_pdf, name="roster_pdf"),
    path("e/<slug:slug>/card/<str:code>/", reception.card_scan, name="card_scan"),
    path("court/<str:token>/game/<int:number>/roll-call/", roll_call.roll_call_page, name="roll_call"),
]
