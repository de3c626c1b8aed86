"""Project-wide views: the health check, robots.txt and the page of a form the CSRF check refused."""

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from common import kept_forms


def healthz(request):
    """``/healthz``: "ok" without touching the database (monitoring, the baseline of bench/load.py)."""
    return HttpResponse("ok", content_type="text/plain")


def robots_txt(request):
    """``/robots.txt``: no search engine indexes any page. It names no path (nothing secret is listed)."""
    return HttpResponse("User-agent: *\nDisallow: /\n", content_type="text/plain; charset=utf-8")


# The language chosen with the header's link lasts a day (the tournament's), not a year.
LANGUAGE_COOKIE_SECONDS = 24 * 60 * 60


def switch_language(request, code):
    """``/lang/<code>/?next=<path>``: the header's language link (issue 34 item 5).

    A GET that sets only the language cookie (``LANGUAGE_COOKIE_NAME``, a day, SameSite=Lax)
    and goes back to ``next`` (this site's paths only, else the home page). It replaces the
    form that gave every public page a one-year CSRF cookie. An unknown language is a 404.
    """
    if code not in dict(settings.LANGUAGES):
        raise Http404("unknown language")
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=LANGUAGE_COOKIE_SECONDS,
        samesite="Lax",
        secure=request.is_secure(),
    )
    response["Cache-Control"] = "no-store"
    return response


def csrf_failure(request, reason=""):
    """A form the CSRF check refused (expired page, cookie lost on a tablet, another site).

    In: the refused POST. Out: a 403 page with a link to open the form again, never a form
    ready to send (issue 18, item 1: a cross-site page could otherwise make an organiser
    add a stranger with one click). A form that came from this site keeps its values
    (``common.kept_forms.keep``: no passwords, at most 16 KB, 10 minutes), shown as text
    above the same form when it is opened again; a form from elsewhere keeps nothing.
    """
    same_origin = request.method == "POST" and kept_forms.is_same_origin(request)
    kept = same_origin and kept_forms.keep(request)
    context = {
        "action": kept_forms.form_page(request),  # an action's own address answers a GET with 405
        "kept": kept,
        "same_origin": same_origin,
        "minutes": kept_forms.LIFE_SECONDS // 60,
    }
    return render(request, "csrf_failure.html", context, status=403)
