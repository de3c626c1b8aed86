"""The awards desk's pages, under ``/manage/<event>/awards/`` (organisers of the event only:
certificates and the MC's list hold children's names; never linked from public pages; the
``/manage/`` area is answered no-store by ``config.middleware``).

The list of certificates per division with their print status, printing (all, the ones not
printed yet, one), the preview on a drawn frame, the calibration page, the settings, prizes
added by hand and the MC's list (issue 19, items 1–4; docs/rules/awards.md).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from awards import ceremony, printing, services
from awards.forms import AwardSettingsForm, HandPrizeForm, paper_mm
from awards.models import AwardSettings, HandPrize
from awards.reports import CHANGED, NOT_PRINTED, all_certificates, event_awards, orphaned_prints
from common.downloads import PDF, file_response
from common.errors import UserError
from tournament.access import event_for_organiser, int_param, whole_number


def _list_url(event):
    return reverse("awards:desk", args=[event.slug])


@login_required
def desk(request, slug, hand_form=None):
    """The certificates of every division with their status, and the desk's buttons."""
    event = event_for_organiser(request, slug)
    settings = AwardSettings.for_event(event)
    awards = event_awards(event, settings=settings)
    certificates = [c for d in awards for c in d.certificates]
    counts = {
        "total": len(certificates),
        "pending": sum(1 for c in certificates if c.status == NOT_PRINTED),
        "changed": sum(1 for c in certificates if c.status == CHANGED),
        "unprintable": sum(1 for c in certificates if c.font_notes),
    }
    return render(
        request,
        "awards/desk.html",
        {
            "event": event,
            "settings": settings,
            "awards": awards,
            "counts": counts,
            "orphans": orphaned_prints(event, awards),
            "no_issuers": not settings.issuer_lines(),
            "hand_form": hand_form or HandPrizeForm(event),
            "hand_prizes": HandPrize.objects.filter(event=event).select_related("division", "team", "player"),
        },
    )


@login_required
def collected(request, slug):
    """POST ``key`` = one key of the papers printed but no longer given, or "all": record that
    their paper was collected or discarded (``services.mark_collected``), back to the desk."""
    event = event_for_organiser(request, slug)
    if request.method == "POST":
        key = request.POST.get("key", "")
        orphans = orphaned_prints(event, event_awards(event))
        chosen = [log for log in orphans if key in ("all", log.key)]
        try:
            count = services.mark_collected(event, chosen, request.user)
        except UserError as e:
            messages.warning(request, str(e))
        else:
            messages.success(request, _("%(n)s printed paper(s) marked as collected or discarded.") % {"n": count})
    return redirect(_list_url(event) + "#orphans")


@login_required
def print_certificates(request, slug):
    """POST ``which`` = "pending" (not printed or changed since), "all" or one certificate's key:
    the PDF, with the print log written in the same transaction. A GET goes back to the desk."""
    event = event_for_organiser(request, slug)
    if request.method != "POST":
        return redirect(_list_url(event))
    which = request.POST.get("which", "pending")
    settings = AwardSettings.for_event(event)
    chosen = all_certificates(event_awards(event, settings=settings), which)
    if not chosen and which in ("all", "pending"):
        messages.info(request, _("Nothing to print: every certificate is printed and up to date."))
        return redirect(_list_url(event))
    if not chosen:  # a page shown before a correction or a change of settings
        messages.warning(request, _("That certificate is no longer in the list (a result or a setting changed)."))
        return redirect(_list_url(event))
    try:
        data = printing.print_certificates(event, chosen, settings, request.user)
    except UserError as e:  # the drawing refused (a text too long for the paper …): nothing logged
        messages.error(request, str(e))
        return redirect(_list_url(event))
    label = {"all": "all", "pending": "pending"}.get(which, "one")
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-certificates-{label}.pdf", PDF, inline=True)


@login_required
def preview(request, slug):
    """The certificates (all, or ``?division=<id>``) drawn on a frame; logs nothing."""
    event = event_for_organiser(request, slug)
    settings = AwardSettings.for_event(event)
    division_id = int_param(request, "division")
    division = event.divisions.filter(pk=division_id).first() if division_id is not None else None
    chosen = all_certificates(event_awards(event, settings=settings, division=division))
    if not chosen:
        messages.info(request, _("No certificate to preview yet: no division is finished and no prize was added."))
        return redirect(_list_url(event))
    try:
        data = printing.certificates_pdf(chosen, settings, draw_frame=True)
    except UserError as e:
        messages.error(request, str(e))
        return redirect(_list_url(event))
    return file_response(data, f"{event.slug}-certificates-preview.pdf", PDF, inline=True)


@login_required
def calibration(request, slug):
    """The calibration page of the paper set: a thin frame and rulers."""
    event = event_for_organiser(request, slug)
    try:
        data = printing.calibration_pdf(AwardSettings.for_event(event))
    except UserError as e:
        messages.error(request, str(e))
        return redirect(_list_url(event))
    return file_response(data, f"{event.slug}-certificates-calibration.pdf", PDF, inline=True)


@login_required
def settings_page(request, slug):
    """The certificate settings; a refusal names its field and keeps what was typed."""
    event = event_for_organiser(request, slug)
    settings = AwardSettings.for_event(event)
    form = AwardSettingsForm(request.POST or None, instance=settings)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Certificate settings saved."))
        return redirect(_list_url(event))
    papers = {size: paper_mm(size, "portrait") for size in ("A4", "B5")}
    return render(
        request,
        "awards/settings.html",
        {"event": event, "form": form, "papers": papers, "event_date": event.date},
    )


@login_required
def add_prize(request, slug):
    """POST: add a prize by hand (name, team, optionally one player). A GET goes back."""
    event = event_for_organiser(request, slug)
    if request.method != "POST":
        return redirect(_list_url(event))
    form = HandPrizeForm(event, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.add_hand_prize(event, data["name"], data["team_obj"], data["player_obj"])
        except UserError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("Prize added: %(name)s.") % {"name": data["name"]})
            return redirect(_list_url(event))
    return desk(request, slug, hand_form=form)


@login_required
def remove_prize(request, slug, pk):
    """POST: remove a prize added by hand. A GET goes back to the desk."""
    event = event_for_organiser(request, slug)
    if request.method == "POST":
        try:
            services.remove_hand_prize(event, whole_number(pk))
        except UserError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, _("Prize removed."))
    return redirect(_list_url(event))


@login_required
def mc_list(request, slug):
    """The MC's list on the screen in large type, or ``?format=pdf``."""
    event = event_for_organiser(request, slug)
    settings = AwardSettings.for_event(event)
    if request.GET.get("format") == "pdf":
        data = ceremony.ceremony_pdf(event, settings)
        return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-ceremony.pdf", PDF, inline=True)
    divisions = ceremony.ceremony(event, settings)
    context = {"event": event, "divisions": divisions, "no_reading": ceremony.no_reading_count(divisions)}
    return render(request, "awards/mc_list.html", context)
