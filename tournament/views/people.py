"""Who may do what in an event: its organisers (everything) and recorders (results only)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.access import event_for_organiser, object_or_404
from tournament.forms import PersonForm


@login_required
def people(request, slug):
    """Who may do what in this event: organisers (everything) and recorders (results only)."""
    event = event_for_organiser(request, slug)
    form = PersonForm(request.POST or None)
    if request.method == "POST" and "remove" in request.POST:
        user = object_or_404(get_user_model().objects.all(), request.POST.get("user"))
        if user == request.user:
            messages.error(request, _("You cannot remove yourself."))
        else:
            event.organisers.remove(user)
            event.recorders.remove(user)
            messages.success(request, _("%(user)s no longer has a role in this event.") % {"user": user})
        return redirect("tournament:people", event.slug)
    if request.method == "POST" and form.is_valid():
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
    return render(
        request,
        "tournament/people.html",
        {"event": event, "form": form, "organisers": event.organisers.all(), "recorders": event.recorders.all()},
    )
