"""The organiser's webhook page, ``/manage/<event>/webhook/`` (organisers of the event only;
issue 35 item 2): the settings form, the recent deliveries with their status, and a POST-only
test message. The secret is never written back into the page: only its fingerprint.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from tournament.access import event_for_organiser
from webhooks import sender
from webhooks.forms import WebhookSettingsForm
from webhooks.models import Delivery, WebhookSettings

RECENT = 30


def _page_url(event):
    return reverse("webhooks:settings", args=[event.slug])


@login_required
def settings_page(request, slug):
    """GET: the form and the recent deliveries. POST: save; a refusal names its field and keeps
    what was typed (the secret excepted: a password box is never filled back)."""
    event = event_for_organiser(request, slug)
    hook = WebhookSettings.for_event(event)
    form = WebhookSettingsForm(request.POST or None, instance=hook)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Webhook settings saved."))
        return redirect(_page_url(event))
    deliveries = (
        Delivery.objects.filter(event=event)
        .select_related("sheet__match", "call__match")
        .order_by("-created_at", "-pk")
    )[:RECENT]
    counts = Delivery.objects.filter(event=event).aggregate(
        pending=Count("pk", filter=Q(status=Delivery.Status.PENDING)),
        failed=Count("pk", filter=Q(status=Delivery.Status.FAILED)),
    )
    return render(
        request,
        "webhooks/settings.html",
        {
            "event": event,
            "form": form,
            "hook": hook,
            "deliveries": deliveries,
            "counts": counts,
            # the links in the messages need the server's address (webhooks.sender._public)
            "site_address": settings.SITE_URL.startswith(("http://", "https://")),
            # names of settings and commands, shown as code in both languages
            "code": {
                "setting": format_html("<code>{}</code>", "SITE_URL"),
                "serve": format_html("<code>{}</code>, <code>{}</code>", "make serve", "karuta serve"),
                "send": format_html("<code>{}</code>", "manage.py send_webhooks"),
                "run": format_html("<code>{}</code>", "make run"),
            },
        },
    )


@login_required
def send_test(request, slug):
    """POST only: send a test message now with the saved settings (tried once), and say how it went."""
    event = event_for_organiser(request, slug)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    hook = WebhookSettings.objects.filter(event=event).first()
    if hook is None or not hook.secret or not (hook.url and (hook.line_to or hook.kind == hook.Kind.URL)):
        messages.error(request, _("Save the address, the id and the token or secret first."))
        return redirect(_page_url(event))
    delivery = sender.send_test(hook, transport=sender.TRANSPORT)
    if delivery.status == Delivery.Status.SENT:
        messages.success(request, _("Test message sent."))
    else:
        messages.error(request, _("The test message was not sent: %(error)s") % {"error": delivery.last_error})
    return redirect(_page_url(event))
