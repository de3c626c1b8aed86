"""Project-wide views: the health check and the page of a form the CSRF check refused."""

from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render


def healthz(request):
    """``/healthz``: "ok" without touching the database (monitoring, the baseline of bench/load.py)."""
    return HttpResponse("ok", content_type="text/plain")


def csrf_failure(request, reason=""):
    """A rejected form (expired page, cookie lost on a tablet): show what was typed and offer to send it again."""
    get_token(request)
    fields = [(k, v) for k, values in request.POST.lists() if k != "csrfmiddlewaretoken" for v in values]
    return render(request, "csrf_failure.html", {"fields": fields, "action": request.path}, status=403)
