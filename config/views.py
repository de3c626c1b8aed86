"""Project-wide views: the health check, robots.txt and the page of a form the CSRF check refused."""

from django.http import HttpResponse
from django.shortcuts import render

from common import kept_forms


def healthz(request):
    """``/healthz``: "ok" without touching the database (monitoring, the baseline of bench/load.py)."""
    return HttpResponse("ok", content_type="text/plain")


def robots_txt(request):
    """``/robots.txt``: no search engine indexes any page. It names no path (nothing secret is listed)."""
    return HttpResponse("User-agent: *\nDisallow: /\n", content_type="text/plain; charset=utf-8")


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
        "action": request.path,
        "kept": kept,
        "same_origin": same_origin,
        "minutes": kept_forms.LIFE_SECONDS // 60,
    }
    return render(request, "csrf_failure.html", context, status=403)
