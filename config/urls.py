"""The site's URL areas: /manage/ organisers (login), /court/<token>/ referees, /e/<event>/ public."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import views as config_views
from tournament import urls as tournament_urls
from tournament.views import setup

urlpatterns = [
    path("healthz", config_views.healthz, name="healthz"),
    path("robots.txt", config_views.robots_txt, name="robots_txt"),
    path("", include("ops.urls")),  # /manage/backup/latest/ (superuser)
    path("", include("tournament.urls")),  # public pages and /manage/ (organisers)
    path("api/v1/", include((tournament_urls.api_patterns, "api"))),  # public JSON API v1
    path("", include("judging.urls")),  # court links and result entry
    path("", include("awards.urls")),  # the awards desk (organisers)
    path("", include("series.urls")),  # series, results exchange, archive
    path("", include("club_entry.urls")),  # clubs' entry links
    path("", include("reader.urls")),  # the reader (読み手)
    path("", include("webhooks.urls")),  # the outgoing webhook's settings (issue 35)
    path("", include("people.urls")),  # reception, announcer, referees, duty roster (issue 32)
    path("games/", setup.club_games, name="games"),
    path("games/hanafuda/", include("hanafuda.urls")),
    path("games/dosai/", include("dosai.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("lang/<slug:code>/", config_views.switch_language, name="switch_language"),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()
