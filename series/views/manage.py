"""The organisers' series pages (/series/…): the list and a new series, a series' ranking page,
its settings and events, its Excel and PDF, and the clubs page (merging spellings).

Who may open what: ``series.access`` (docs/rules/series.md, "Who"). Pages behind a login are
no-store (``config.middleware``). A refusal is shown on the form or as a message, nothing typed
is lost."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.downloads import PDF, XLSX, file_response
from common.errors import UserError
from series import services
from series.access import (
    may_create_series,
    may_edit_series,
    may_manage_clubs,
    series_for_editor,
    series_for_organiser,
    visible_series,
)
from series.clubs import club_listing
from series.exports import series_workbook
from series.forms import MemberForm, MergeForm, SeriesForm
from series.models import Club, SeriesEvent
from series.paper import series_pdf
from series.ranking import rank_text, series_standings
from tournament.access import whole_number
from tournament.models import Event


@login_required
def series_list(request):
    """The series the user may open; a new series (POST) for those who may create one."""
    may_create = may_create_series(request.user)
    if request.method == "POST" and not may_create:
        raise PermissionDenied
    form = SeriesForm(request.POST or None, initial={"points_table": "10,7,5,3,2,1"})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            series = services.create_series(
                request.user, data["slug"], data["name"], data["season"], data["points_table"]
            )
        except UserError as error:
            form.add_error("slug", error.message)
        else:
            messages.success(request, _("Series created. Next: add its tournaments."))
            return redirect("series:series_events", series.slug)
    return render(
        request,
        "series/list.html",
        {
            "series_list": visible_series(request.user),
            "form": form,
            "may_create": may_create,
            "may_clubs": may_manage_clubs(request.user),
        },
    )


def _standings(request, series):
    """The series' standings, or None with the reason as a message (a stored points table that
    is not valid: the caller sends the organiser to the edit page to fix it, never a 500)."""
    try:
        return series_standings(series)
    except UserError as error:
        messages.error(request, str(error))
        return None


@login_required
def series_detail(request, slug):
    """The series ranking per division and per club, each row with its explanation."""
    series = series_for_organiser(request, slug)
    standings = _standings(request, series)
    if standings is None:
        return redirect("series:series_edit", series.slug)
    divisions = [(d.name, [(rank_text(r), r, standings.explain(r)) for r in d.rows]) for d in standings.divisions]
    clubs = [(rank_text(r), r, standings.club_explain(r)) for r in standings.clubs]
    return render(
        request,
        "series/detail.html",
        {
            "series": series,
            "standings": standings,
            "divisions": divisions,
            "clubs": clubs,
            "may_edit": may_edit_series(request.user, series),
        },
    )


@login_required
def series_edit(request, slug):
    """The series' name, season and points table (a bad table is named on its field); its
    editors only (``series.access.may_edit_series``: 403 for an event's organiser who joined
    with the key file)."""
    series = series_for_editor(request, slug)
    form = SeriesForm(request.POST or None, instance=series, creating=False)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        series.refresh_from_db()
        services.update_series(series, data["name"], data["season"], data["points_table"])
        messages.success(request, _("Saved."))
        return redirect("series:series_detail", series.slug)
    return render(
        request,
        "series/form.html",
        {"series": series, "form": form, "title": _("Series settings"), "may_edit": True},
    )


def _addable(user):
    """The events ``user`` may add to a series: those they organise (all for a superuser) that
    are in no series yet."""
    events = Event.objects.all() if user.is_superuser else Event.objects.filter(organisers=user)
    return events.filter(series_member__isnull=True).order_by("-date", "name")


@login_required
def series_events(request, slug):
    """The series' tournaments with their roles; its editors add one of their own (POST
    ``event``, ``role``, ``district``) or take any out (POST ``remove`` = its id). An organiser
    of a member event who does not edit the series (it joined with the key file) sees the list
    and may take out their own events only (issue 28, item 4)."""
    series = series_for_organiser(request, slug)
    may_edit = may_edit_series(request.user, series)
    own = None if may_edit or request.user.is_superuser else Event.objects.filter(organisers=request.user)
    if request.method == "POST" and "remove" in request.POST:
        try:
            services.remove_event(series, whole_number(request.POST["remove"]) or 0, only_events=own)
            messages.success(request, _("The tournament was taken out of the series."))
        except UserError as error:
            messages.error(request, error.message)
        return redirect("series:series_events", series.slug)
    if request.method == "POST" and not may_edit:
        raise PermissionDenied
    form = MemberForm(request.POST or None, events=_addable(request.user))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.add_event(series, data["event"], data["role"], data["district"])
        except UserError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The tournament is in the series."))
            return redirect("series:series_events", series.slug)
    members = SeriesEvent.objects.filter(series=series).select_related("event").order_by("event__date")
    removable = (
        {m.pk for m in members} if own is None else set(members.filter(event__in=own).values_list("pk", flat=True))
    )
    return render(
        request,
        "series/events.html",
        {"series": series, "members": members, "form": form, "may_edit": may_edit, "removable": removable},
    )


@login_required
def series_xlsx(request, slug):
    """The series ranking as an Excel workbook (``series.exports.series_workbook``)."""
    series = series_for_organiser(request, slug)
    standings = _standings(request, series)
    if standings is None:
        return redirect("series:series_edit", series.slug)
    return file_response(series_workbook(standings), f"{series.slug}-ranking.xlsx", XLSX)


@login_required
def series_paper(request, slug):
    """The series ranking as a PDF to print, A4 landscape (``series.paper.series_pdf``)."""
    series = series_for_organiser(request, slug)
    standings = _standings(request, series)
    if standings is None:
        return redirect("series:series_edit", series.slug)
    return file_response(series_pdf(standings), f"{series.slug}-ranking.pdf", PDF, inline=True)


@login_required
def clubs(request):
    """Every club seen in the stored events and imported places with its spellings; merge two
    spellings into one club (POST ``keep``, ``other``), split one off (POST ``split``), rename
    a club (POST ``rename`` = its id, ``name``)."""
    if not may_manage_clubs(request.user):
        raise PermissionDenied
    listing = club_listing()
    form = MergeForm(request.POST if "keep" in request.POST else None, spellings=listing.spellings)
    if request.method == "POST":
        try:
            done = _club_change(request, form)
        except UserError as error:
            messages.error(request, error.message)
            done = "keep" not in request.POST
        if done:
            return redirect("series:clubs")
    return render(request, "series/clubs.html", {"listing": listing, "form": form})


def _club_change(request, form):
    """Carry out the clubs page's POST; True when done (redirect), False to show the form again."""
    post = request.POST
    if "split" in post:
        club = services.split_spelling(post["split"])
        messages.success(request, _("「%(text)s」 is a club of its own again.") % {"text": post["split"]})
        return bool(club)
    if "rename" in post:
        club = Club.objects.filter(pk=whole_number(post["rename"]) or 0).first()
        if club is None:
            raise UserError(_("That club does not exist (any more)."))
        services.rename_club(club, post.get("name", ""))
        messages.success(request, _("Saved."))
        return True
    if not form.is_valid():
        return False
    services.merge_spellings(form.cleaned_data["keep"], form.cleaned_data["other"])
    messages.success(request, _("The two spellings are one club now."))
    return True
