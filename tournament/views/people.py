"""Who may do what in an event: its organisers (everything) and recorders (results only)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.access import event_for_organiser, object_or_404
from tournament.forms import PersonForm, people_rows, with_version
from tournament.services import versions


@login_required
def people(request, slug):
    """Who may do what in this event: organisers (everything) and recorders (results only).

    Every change carries the roles as the page showed them (``versions.people_version``); a
    change made on a page opened before another organiser's change is refused, and the page
    shows the saved roles beside the roles with the change asked for (issue 18, item 8)."""
    event = event_for_organiser(request, slug)
    form = PersonForm(request.POST or None, initial={"version": versions.people_version(event)})
    stale = {}
    if request.method == "POST":
        try:
            with transaction.atomic():
                versions.claim_people(event, request.POST.get("version"))
                response = _change(request, event, form)
        except versions.StaleEdit as e:
            data = with_version(request.POST, versions.people_version(event))
            form = PersonForm(data if "remove" not in request.POST else None, initial={"version": data["version"]})
            if form.is_bound:
                form.is_valid()
            stale = {"stale_rows": people_rows(event, request.POST), "stale_message": str(e)}
        else:
            if response is not None:
                return response
    return render(
        request,
        "tournament/people.html",
        {
            "event": event,
            "form": form,
            "organisers": event.organisers.all(),
            "recorders": event.recorders.all(),
            "version": versions.people_version(event),
            **stale,
        },
        status=409 if stale else 200,
    )


def _change(request, event, form):
    """Remove a role, or give one from a valid form; the redirect, or None (form errors)."""
    if "remove" in request.POST:
        user = object_or_404(get_user_model().objects.all(), request.POST.get("user"))
        if user == request.user:
            messages.error(request, _("You cannot remove yourself."))
        else:
            event.organisers.remove(user)
            event.recorders.remove(user)
            messages.success(request, _("%(user)s no longer has a role in this event.") % {"user": user})
        return redirect("tournament:people", event.slug)
    if not form.is_valid():
        return None
    User = get_user_model()
    data = form.cleaned_data
    user = User.objects.filter(username=data["username"].strip()).first()
    if user is None:
        user = User.objects.create_user(data["username"].strip(), password=data["password"])
    (event.organisers if data["role"] == "organiser" else event.recorders).add(user)
    if data["role"] == "organiser":
        messages.success(request, _("%(user)s is now an organiser of this event.") % {"user": user})
    else:
        messages.success(request, _("%(user)s is now a recorder of this event.") % {"user": user})
    return redirect("tournament:people", event.slug)
