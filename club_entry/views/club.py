"""The club's pages (``/club/<token>/…``): phone-first, no login, the token is the credential
(``club_entry.link``). The club sees and edits its own teams only, until the deadline; after
it, a sentence says so and what was typed is shown back as text; on the day, absences."""

from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club_entry import services
from club_entry.forms import ClubTeamForm, ConsentForm
from club_entry.link import club_link, club_page, own_team, typed_values
from common.errors import UserError
from tournament.access import whole_number
from tournament.forms import compare_versions, merge_stale
from tournament.models import Player
from tournament.services import versions


def _teams(link):
    """The club's teams with their players and absence reports, as the organiser lists them."""
    return link.teams().prefetch_related(
        Prefetch(
            "players",
            queryset=Player.objects.order_by("order", "pk").select_related("absence_report"),
        )
    )


@club_page
def club_home(request, token):
    """The club's page: the state of the entries, the consent note (ticked once, with the
    time), its teams as the organiser will see them, and on the day the absence buttons."""
    link = club_link(token)
    state = services.state(link)
    settings = services.entry_settings(link.event)
    consent = ConsentForm(request.POST or None)
    if request.method == "POST":
        if not state.open:
            return _closed(request, link, state, None)
        if consent.is_valid():
            services.give_consent(link)
            return redirect("club_entry:home", token)
    context = {
        "link": link,
        "event": link.event,
        "token": token,
        "state": state,
        "settings": settings,
        "closes": services.closing_sentence(link.event, settings),
        "consent": consent,
        "teams": _teams(link),
        "moved": services.moved_away(link),
    }
    return render(request, "club_entry/home.html", context)


def _closed(request, link, state, form):
    """A POST after the deadline, a lock (or a revocation): the sentence, what was typed as
    text, nothing saved (410)."""
    form = form if form is not None else ClubTeamForm(event=link.event)
    typed = form.typed_rows(typed_values(request))
    context = {"link": link, "event": link.event, "token": link.token, "state": state, "typed": typed}
    return render(request, "club_entry/closed.html", context, status=410)


@club_page
def club_team(request, token, pk=None):
    """Add (``pk`` None) or edit one of the club's teams: the organiser's team checks, the
    warnings ticked to go on, the optimistic lock (a stale save shows both versions)."""
    link = club_link(token)
    team = own_team(link, pk) if pk is not None else None
    state = services.team_state(link, team)
    if link.consent_at is None:
        return redirect("club_entry:home", token)
    initial = ClubTeamForm.initial_for(team) if team else {}
    form = ClubTeamForm(request.POST or None, event=link.event, team=team, initial=initial)
    if request.method == "POST" and not state.open:
        return _closed(request, link, state, form)
    context = {"link": link, "event": link.event, "token": token, "state": state, "team": team, "warnings": []}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.save_club_team(
                link,
                division=data["division"],
                name=data["name"],
                players=form.players(),
                chaperone=data["chaperone"],
                team=team,
                base_version=form.base_version(),
                accept_warnings=data["accept_warnings"],
            )
        except services.EntryClosed:
            return _closed(request, link, services.state(link), form)
        except services.WarningsNotAccepted as e:
            context["warnings"] = e.warnings
            form.add_error("accept_warnings", str(e))
        except versions.StaleEdit as e:
            saved_form = ClubTeamForm(event=link.event, team=e.saved, initial=ClubTeamForm.initial_for(e.saved))
            data, merge = merge_stale(request.POST, saved_form, e.saved.version)  # field by field
            form = ClubTeamForm(data, event=link.event, team=e.saved)
            form.is_valid()
            form.add_error(None, str(e))
            context.update(
                stale_rows=compare_versions(form, saved_form, merge), stale_version=e.saved.version, stale_merged=True
            )
        except UserError as e:
            form.add_error("name", str(e))
        else:
            messages.success(request, _("Team “%(name)s” saved.") % {"name": saved.name})
            for warning in form.font_warnings:
                messages.warning(request, warning.message)
            return redirect("club_entry:home", token)
    context["form"] = form
    return render(request, "club_entry/team_form.html", context, status=409 if "stale_rows" in context else 200)


@club_page
def club_team_remove(request, token, pk):
    """Remove one of the club's teams: GET asks, POST removes (before the deadline, not once drawn)."""
    link = club_link(token)
    team = own_team(link, pk)
    state = services.team_state(link, team)
    if request.method == "POST":
        if not state.open:
            return _closed(request, link, state, None)
        try:
            services.remove_club_team(link, team, whole_number(request.POST.get("version")))
        except UserError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, _("Team “%(name)s” removed.") % {"name": team.name})
        return redirect("club_entry:home", token)
    context = {"link": link, "event": link.event, "token": token, "state": state, "team": team}
    return render(request, "club_entry/team_remove.html", context)


@require_POST
@club_page
def club_absent(request, token):
    """On the day: report one of the club's players absent (``absent=1``) or withdraw the report."""
    link = club_link(token)
    team = own_team(link, request.POST.get("team"))
    player = team.players.filter(pk=whole_number(request.POST.get("player")) or 0).first()
    if player is None:
        messages.error(request, _("Choose a player of the team."))
        return redirect("club_entry:home", token)
    absent = request.POST.get("absent") == "1"
    try:
        services.report_absence(link, player, absent)
    except UserError as e:
        messages.error(request, str(e))
    else:
        text = _("%(player)s reported absent.") if absent else _("%(player)s is no longer reported absent.")
        messages.success(request, text % {"player": player.name})
    return redirect("club_entry:home", token)
