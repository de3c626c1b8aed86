"""The organiser's page of the people of the day (issue 32; docs/people.md): the accounts of
the reception desk (受付) and the announcer, the roll call on the tablet and the
referees' rest, and the links to the desk, the announcer, the cards, referees and roster."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from people import access, cards, reports
from people.forms import DaySettingsForm, RoleForm
from tournament.access import event_for_organiser, object_or_404


@login_required
def day(request, slug):
    """GET the page; POST ``action`` = ``settings`` (the settings form), ``role`` (the role
    form) or ``remove`` with ``user`` (id) and ``role``."""
    event = event_for_organiser(request, slug)
    settings = access.day_settings(event)
    action = request.POST.get("action")
    settings_form = DaySettingsForm(request.POST if action == "settings" else None, instance=settings)
    role_form = RoleForm(request.POST if action == "role" else None)
    if action == "settings" and settings_form.is_valid():
        settings_form.save()
        messages.success(request, _("Saved."))
        return redirect("people:day", event.slug)
    if action == "role" and role_form.is_valid():
        data = role_form.cleaned_data
        User = get_user_model()
        user = User.objects.filter(username=data["username"].strip()).first()
        if user is None:
            user = User.objects.create_user(data["username"].strip(), password=data["password"])
        (settings.receptionists if data["role"] == "reception" else settings.announcers).add(user)
        messages.success(request, _("%(user)s has the role now.") % {"user": user})
        return redirect("people:day", event.slug)
    if action == "remove":
        user = object_or_404(get_user_model().objects.all(), request.POST.get("user"))
        settings.receptionists.remove(user)
        settings.announcers.remove(user)
        messages.success(request, _("%(user)s no longer has a role of the day.") % {"user": user})
        return redirect("people:day", event.slug)
    return render(
        request,
        "people/day.html",
        {
            "event": event,
            "settings_form": settings_form,
            "role_form": role_form,
            "receptionists": settings.receptionists.all(),
            "announcers": settings.announcers.all(),
            "counts": reports.division_counts(event),
            "last_print": cards.last_print(event),
            "changed_cards": [c.team for c in cards.team_cards(event, "") if c.changed],
        },
        status=400 if request.method == "POST" else 200,
    )
