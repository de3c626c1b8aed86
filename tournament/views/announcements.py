"""The organiser's page of the hall screens: announcements (typed, shown large on every
screen for a chosen number of minutes, ended early with a button) and the links of the
screens and of a rotation between chosen screens (issue 17, item 2; docs/hall-screens.md)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import UserError
from tournament import share
from tournament.access import event_for_organiser
from tournament.models import Announcement
from tournament.reports.hall import DEFAULT_PAGE_SECONDS, MAX_PAGE_SECONDS, screen_choices
from tournament.services import announcements as service


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Announcement"),
        max_length=service.MAX_TEXT,
        help_text=gettext_lazy("At most 200 characters, e.g. 「第3コートへ集合：○○チーム」."),
        widget=forms.TextInput(attrs={"maxlength": service.MAX_TEXT, "size": 60}),
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes shown"), min_value=1, max_value=service.MAX_MINUTES, initial=5
    )


@login_required
def announcements(request, slug):
    """List the event's announcements (shown now, to come, ended), make one (POST ``text``,
    ``minutes``) or end one (POST ``end`` = its id). A refusal is shown on the form or as a
    message; nothing typed is lost."""
    event = event_for_organiser(request, slug)
    form = AnnouncementForm(request.POST if "text" in request.POST else None)
    if request.method == "POST" and "end" in request.POST:
        try:
            service.end_announcement(event, int_param_post(request, "end"))
            messages.success(request, _("The announcement was ended."))
        except UserError as error:
            messages.error(request, error.message)
        return redirect("tournament:announcements", event.slug)
    if request.method == "POST" and form.is_valid():
        try:
            service.announce(event, form.cleaned_data["text"], form.cleaned_data["minutes"])
        except UserError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The announcement is on the screens."))
            return redirect("tournament:announcements", event.slug)
    now = timezone.now()
    listed = list(Announcement.objects.filter(event=event)[:50])
    public_url = request.build_absolute_uri(reverse("tournament:public_timetable", args=[event.slug]))
    for announcement in listed:  # 「LINEで送る文面」 of each (issue 35, item 2)
        announcement.share_text = share.announcement_text(event, announcement, public_url)
        announcement.share_id = f"share-{announcement.pk}"
    return render(
        request,
        "tournament/announcements.html",
        {
            "event": event,
            "form": form,
            "shown": [a for a in listed if a.shown_from <= now < a.shown_until],
            "ended": [a for a in listed if a.shown_until <= now],
            "screens": _screen_links(event),
            "choices": screen_choices(event),
            "seconds": DEFAULT_PAGE_SECONDS,
            "max_seconds": MAX_PAGE_SECONDS,
            "rotation_url": reverse("tournament:display_rotation", args=[event.slug]),
        },
    )


def int_param_post(request, name):
    """A whole-number POST field of ``request`` (0 when absent or not a number)."""
    value = request.POST.get(name, "")
    return int(value) if value.isascii() and value.isdigit() else 0


def _screen_links(event):
    links = [(_("All courts"), reverse("tournament:courts_display", args=[event.slug]))]
    divisions = list(event.divisions.all())
    links += [(d.name, reverse("tournament:division_display", args=[event.slug, d.pk])) for d in divisions]
    links += [
        (
            _("%(division)s: podium") % {"division": d.name},
            reverse("tournament:podium_display", args=[event.slug, d.pk]),
        )
        for d in divisions
    ]
    links += [(str(c), reverse("tournament:court_display", args=[event.slug, c.pk])) for c in event.courts.all()]
    return links
