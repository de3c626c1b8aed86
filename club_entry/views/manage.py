"""The organiser's side of the clubs' entry links (``/manage/<event>/clubs/…``): the entry
settings (deadline, lock, consent note), a link per club with its contact, revoking and renewing
a link, the links with their QR codes as a PDF, and every change made by a club with its time."""

from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from club_entry import paper, services
from club_entry.forms import LinkForm, SettingsForm
from club_entry.link import link_url
from club_entry.models import AbsenceReport, ChangeLog, ClubLink
from common.downloads import PDF, file_response
from common.errors import UserError
from common.qr_svg import qr_svg
from tournament.access import event_for_organiser
from tournament.services import versions

_ACTIONS = ("revoke", "renew")


def _base(request) -> str:
    return django_settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def _post(request, event, settings_form, link_form):
    """The page's three forms: the settings, a new link, links for every affiliation."""
    action = request.POST.get("action")
    try:
        if action == "settings" and settings_form.is_valid():
            data = settings_form.cleaned_data
            services.save_settings(
                event,
                deadline=data["deadline"],
                locked=data["locked"],
                consent_note=data["consent_note"],
                base_version=settings_form.base_version(),
            )
            messages.success(request, _("Entry settings saved."))
            return True
        if action == "add" and link_form.is_valid():
            data = link_form.cleaned_data
            link = services.create_link(event, data["club"], contact_name=data["contact_name"], contact=data["contact"])
            messages.success(request, _("Entry link for %(club)s made.") % {"club": link.club})
            return True
        if action == "affiliations":
            made = services.create_links_for_affiliations(event)
            messages.success(request, _("%(n)s new entry links made.") % {"n": len(made)})
            return True
    except versions.StaleEdit as e:
        settings_form.add_error(None, str(e))
    except UserError as e:
        (settings_form if action == "settings" else link_form).add_error(None, str(e))
    return False


@login_required
def club_links(request, slug):
    """The clubs, their links (with QR codes), last activity, the entry settings, the changes."""
    event = event_for_organiser(request, slug)
    found = services.entry_settings(event)
    is_post = request.method == "POST"
    action = request.POST.get("action") if is_post else None
    settings_form = SettingsForm(request.POST if action == "settings" else None, instance=found)
    link_form = LinkForm(request.POST if action == "add" else None)
    if is_post and _post(request, event, settings_form, link_form):
        return redirect("club_entry:links", event.slug)
    base = _base(request)
    links = []
    for link in ClubLink.objects.filter(event=event):
        url = link_url(base, link)
        qr = qr_svg(url, _("QR code of the link")) if link.enabled else ""
        teams = list(link.teams())
        links.append(
            {
                "link": link,
                "url": url,
                "qr": qr,
                "state": services.state(link),
                "teams": teams,
                "moved": services.moved_away(link, teams),
            }
        )
    context = {
        "event": event,
        "settings_form": settings_form,
        "link_form": link_form,
        "closes": services.closing_sentence(event),
        "links": links,
        "changes": ChangeLog.objects.filter(link__event=event).select_related("link")[:300],
        "duplicates": services.cross_club_duplicates(event),
        "absences": AbsenceReport.objects.filter(player__team__division__event=event).select_related(
            "player__team__division", "link"
        ),
    }
    return render(request, "club_entry/manage.html", context, status=400 if is_post else 200)


@login_required
def link_change(request, slug, pk, action):
    """Revoke or renew a club's link after a confirmation page (GET); POST does it."""
    event = event_for_organiser(request, slug)
    link = get_object_or_404(ClubLink, event=event, pk=pk)
    if action not in _ACTIONS:
        raise Http404
    if request.method == "POST":
        if action == "renew":
            services.renew(link)
            messages.success(request, _("%(club)s has a new link; the old one no longer works.") % {"club": link.club})
        else:
            services.revoke(link)
            messages.success(request, _("The link of %(club)s is revoked.") % {"club": link.club})
        return redirect("club_entry:links", event.slug)
    return render(request, "club_entry/link_change.html", {"event": event, "link": link, "action": action})


@login_required
def links_pdf(request, slug):
    """Every active club link with its QR code, one card per club (A4)."""
    event = event_for_organiser(request, slug)
    base = _base(request)
    cards = [
        paper.LinkCard(link.club, link.contact_name, link.contact, link_url(base, link))
        for link in ClubLink.objects.filter(event=event, enabled=True)
    ]
    return file_response(paper.club_links_pdf(str(event), cards), f"{event.slug}-club-links.pdf", PDF)
