"""The referee's screens on a court link (no account): the court's games, the result form,
the saved page with the leaders' sign-off and the photo, the dispute helper, the rules.

A court link's token is the credential: it opens only its own court's games, and only
while the link is active; an unknown link answers 404 and reveals nothing, a revoked one
says so (``judging.court_link``).
"""

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.downloads import PDF, file_response
from common.errors import UserError
from common.images import MAX_UPLOAD_BYTES
from judging import court_link, services, signoff, tablets
from judging.engine import rules
from judging.forms import (
    TabletReportForm,
)
from judging.models import RecordingSheet
from judging.pages import MATCH_RELATED, court_match, dispute_page, handle_entry, touch_matrix_rows
from judging.paper.game_setup import game_setup_pdf, setup_steps
from judging.paper.touch_matrix import touch_matrix_pdf
from tournament.models import Match
from tournament.reports import division_game_slots


def _court_game(court, number):
    """Game ``number`` on this court; a game moved away from it answers where it went
    (``court_link.GameMoved``), any other number 404."""
    try:
        return court_match(court, number)
    except Http404:
        moved = court_link.moved_game(court, number)
        if moved is None:
            raise
        raise court_link.GameMoved(court, moved) from None


@never_cache
@court_link.court_page
def court_home(request, token):
    court = court_link.court(token)
    matches = list(Match.objects.filter(court=court).select_related(*MATCH_RELATED).order_by("slot", "match_number"))
    open_matches = [m for m in matches if m.status in Match.Status.AT_COURT]
    current = next((m for m in open_matches if m.teams_known), None)
    upcoming = [m for m in open_matches if m is not current][:4]
    # Never "no game" while one is coming: the next game may wait for its teams (a final after
    # semifinals still being played or confirmed), or the games after the groups may not be made yet.
    next_game = upcoming[0] if current is None and upcoming else None
    waiting = [m for m in matches if m.status == Match.Status.SUBMITTED]
    finished = [m for m in matches if m.has_result][-5:]
    for m in open_matches:
        m.sent_back = services.sent_back(m)
    _attach_slots(matches)
    return render(
        request,
        "judging/court_home.html",
        {
            "court": court,
            "event": court.event,
            "current": current,
            "next_game": next_game,
            "stage_to_come": [] if current or next_game else _stage_to_come(court),
            "upcoming": upcoming,
            "waiting": waiting,
            "finished": finished,
            "token": token,
            "state_url": reverse("judging:court_state", args=[token]),
            "court_state": court_link.court_signature(court),
            "moved_away": _moved_away(court),
        },
    )


def _stage_to_come(court):
    """Names of the divisions played on ``court`` whose games after the groups (knockout or
    placement, ``Division.after_groups``) are not made yet: they may still come to this court."""
    made = set(Match.objects.filter(event_id=court.event_id).after_groups().values_list("division_id", flat=True))
    return [d.name for d in court.divisions.exclude(after_groups="none").order_by("order", "pk") if d.pk not in made]


def _attach_slots(matches):
    """Give each knockout or placement game of ``matches`` its ``GameSlots`` as ``m.slots`` (the
    slot labels of sides without a team, the out-of-date mark): one reading of the standings
    per division concerned."""
    divisions = {m.division_id: m.division for m in matches if m.stage != Match.Stage.GROUP}
    slots = {}
    for division in divisions.values():
        slots.update(division_game_slots(division))
    for m in matches:
        m.slots = slots.get(m.pk)


def _moved_away(court):
    """A closed court's games that were moved to other courts, in the order of the day."""
    if not court.closed:
        return []
    return list(Match.objects.filter(moved_from=court).select_related("court").order_by("start_at", "match_number"))


@never_cache
def court_state(request, token):
    """The court pages' poll: ``{"state": fingerprint, "games": [numbers]}``; 410 with
    ``{"revoked": true}`` for a revoked or renewed link, 404 for an unknown one."""
    try:
        court = court_link.court(token)
    except court_link.LinkRevoked:
        return JsonResponse({"revoked": True}, status=410)
    numbers = list(Match.objects.filter(court=court).order_by("match_number").values_list("match_number", flat=True))
    return JsonResponse({"state": court_link.court_signature(court), "games": numbers})


@never_cache
@court_link.court_page
def court_entry(request, token, number):
    court = court_link.court(token)
    match = _court_game(court, number)
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("judging:court_home", token)
    # Opening the page never starts the game: the 開始 button (court_start) or the first result does.
    _attach_slots([match])
    # A logged-in recorder typing on a court link is still that person (no self-confirmation).
    return handle_entry(
        request,
        match,
        who={"court": court, "user": request.user},
        template="judging/court_entry.html",
        saved_url=lambda sheet: reverse("judging:court_saved", args=[token, number, sheet.version]),
        extra={
            "token": token,
            "done_url": reverse("judging:court_home", args=[token]),
            "sent_back": services.sent_back(match),
            "slots": match.slots,
            "state_url": reverse("judging:court_state", args=[token]),
            "court_state": court_link.court_signature(court),
            "start_url": reverse("judging:court_start", args=[token, number]),
        },
    )


@require_POST
@never_cache
@court_link.court_page
def court_start(request, token, number):
    """The referee's 開始 (Start) tap: the game's actual start, once (``services.mark_started``).

    Answers JSON ``{"started": "HH:MM"}`` to the page's script, else goes back to the game's
    page; a refusal (teams not known, game over) is said there (JSON: 400 with ``error``).
    """
    court = court_link.court(token)
    match = _court_game(court, number)
    try:
        services.mark_started(match, court=court, user=request.user)
    except UserError as e:
        if request.headers.get("Accept") == "application/json":
            return JsonResponse({"error": str(e)}, status=400)
        messages.error(request, str(e))
    else:
        match.refresh_from_db(fields=["actual_start"])
        if request.headers.get("Accept") == "application/json":
            return JsonResponse({"started": timezone.localtime(match.actual_start).strftime("%H:%M")})
    return redirect("judging:court_entry", token, number)


@never_cache
@court_link.court_page
def court_saved(request, token, number, version):
    """A clear confirmation of what was saved, to show the team leaders."""
    court = court_link.court(token)
    match = _court_game(court, number)
    sheet = get_object_or_404(RecordingSheet, match=match, version=version)
    return render(
        request,
        "judging/court_saved.html",
        {
            "court": court,
            "event": court.event,
            "match": match,
            "sheet": sheet,
            "token": token,
            "winner": match.team_a if sheet.winner_side == "A" else match.team_b,
            **_signoff_context(court.event, match, sheet),
        },
    )


def _signoff_context(event, match, sheet):
    """What the saved page needs for the leaders' sign-off and the photo (items 4 and 5)."""
    is_newest = services.latest_sheet(match).pk == sheet.pk
    sides = [
        {"side": "A", "team": match.team_a, "at": sheet.signed_a_at, "name": sheet.signed_a_name},
        {"side": "B", "team": match.team_b, "at": sheet.signed_b_at, "name": sheet.signed_b_name},
    ]
    return {
        "sign_off": event.leaders_sign_off
        and not sheet.is_walkover
        and is_newest
        and match.status != Match.Status.VOID,
        "sides": sides,
        "is_newest": is_newest,
        "photo_limit_mb": MAX_UPLOAD_BYTES // (1024 * 1024),
    }


def _court_sheet(token, number, version):
    court = court_link.court(token)
    match = court_match(court, number)
    return court, get_object_or_404(RecordingSheet.objects.select_related("match__event"), match=match, version=version)


@never_cache
def court_sign(request, token, number, version):
    """A team leader's tap (and optional name) confirming the saved counts (item 4)."""
    court, sheet = _court_sheet(token, number, version)
    saved = redirect("judging:court_saved", token, number, version)
    if request.method != "POST":
        return saved
    side = request.POST.get("side", "")
    if side not in ("A", "B"):
        messages.error(request, _("Choose the team whose leader signs."))
        return saved
    try:
        signoff.sign_off(sheet, rules.Side(side), name=request.POST.get(f"name_{side}", ""), court=court)
    except UserError as e:
        messages.error(request, str(e))
    return saved


@never_cache
def court_photo(request, token, number, version):
    """A photo of the paper sheet, from the tablet's camera, kept with the version (item 5).
    A refused file leaves the saved result as it is and says why."""
    court, sheet = _court_sheet(token, number, version)
    if request.method == "POST":
        upload = request.FILES.get("photo")
        if upload is None:
            messages.error(request, _("Photo of the paper sheet: choose or take a photo first."))
        else:
            try:
                signoff.attach_photo(sheet, upload, court=court)
            except UserError as e:
                messages.error(request, _("Photo of the paper sheet: %(error)s The result is saved.") % {"error": e})
            else:
                messages.success(
                    request, _("The photo of the paper sheet is kept with version %(v)s.") % {"v": version}
                )
    return redirect("judging:court_saved", token, number, version)


@never_cache
@court_link.court_page
def court_dispute(request, token, number):
    court = court_link.court(token)
    match = _court_game(court, number)
    if not match.teams_known:
        raise Http404
    return dispute_page(
        request,
        match,
        who={"court": court},
        template="judging/dispute.html",
        extra={"token": token, "court": court, "back_url": reverse("judging:court_entry", args=[token, number])},
    )


@never_cache
@court_link.court_page
def court_rules(request, token):
    court = court_link.court(token)
    return render(
        request,
        "judging/rules_help.html",
        {
            "court": court,
            "event": court.event,
            "token": token,
            "matrix": touch_matrix_rows(),
            "setup_steps": setup_steps(),
        },
    )


@court_link.court_page
def court_setup_pdf(request, token):
    """試合の準備 (the referee's notice ① and the layout of the cards) on one A4 page."""
    court_link.court(token)
    return file_response(game_setup_pdf(), "game-setup.pdf", PDF, inline=True)


@court_link.court_page
def court_matrix_pdf(request, token):
    """The whole touch-judgment matrix on one A4 page, to print for the court."""
    court_link.court(token)
    return file_response(touch_matrix_pdf(), "touch-judgment-matrix.pdf", PDF, inline=True)


@require_POST
@never_cache
def court_heard(request, token):
    """The court page's script says the tablet is here and how many results it holds unsent.

    In: POST ``unsent``, a whole number from 0 to 999 (results kept on the tablet that the
    server has not acknowledged; static/js/offline.js). Out: JSON ``{"heard_at", "unsent"}``;
    400 with the field's error for a bad count; 404 for an unknown or revoked link. The desk's
    court board shows both; no result is written here (a result counts only once
    ``services.submit_sheet`` recorded it: docs/rules/hitachi-karuta.md, "Result and winner").
    """
    court = court_link.court(token)
    form = TabletReportForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
    heard_at = tablets.record_tablet_report(court, form.cleaned_data["unsent"])
    return JsonResponse({"heard_at": heard_at.isoformat(), "unsent": form.cleaned_data["unsent"]})
