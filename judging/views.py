"""The referee's screens (court link, no account) and the recorders' result screens.

A court link's token is the credential: it opens only its own court's games, and only
while the link is active; anything else answers 404 and reveals nothing. Recorders
(記録係) and organisers log in; they confirm, reject, re-type blind, restore and void.
"""

import json
import secrets

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.downloads import PDF, file_response
from common.errors import UserError
from common.images import MAX_UPLOAD_BYTES
from judging import court_link, services
from judging.engine import rules
from judging.forms import (
    DisputeForm,
    PlayerCardsForm,
    RejectForm,
    ResultForm,
    RetypeForm,
    TabletReportForm,
    WalkoverForm,
)
from judging.models import Dispute, RecordingSheet
from judging.paper.touch_matrix import touch_matrix_pdf
from judging.services import mark_started
from tournament.access import event_for_organiser as _event_for_organiser
from tournament.access import event_for_recorder as _event_for_recorder
from tournament.models import Court, Match

MATCH_RELATED = ("event", "division", "group", "court", "team_a", "team_b", "winner")


def _client(request):
    return {"ip": request.META.get("REMOTE_ADDR"), "device": request.META.get("HTTP_USER_AGENT", "")}


# The court of an active link (404 unknown; revoked or renewed: the page of `court_link.court_page`).
_court = court_link.court


def _court_match(court, number):
    return get_object_or_404(Match.objects.select_related(*MATCH_RELATED), court=court, match_number=number)


def _names(match):
    return {"team_a": match.team_a.name if match.team_a else "", "team_b": match.team_b.name if match.team_b else ""}


def _sheet_initial(sheet):
    if sheet is None or sheet.is_walkover:
        return {}
    return {field: getattr(sheet, field) for field in services.SHEET_FIELDS}


def _rps_prefill(sheet, logged):
    """ "じゃんけん used" taken from the touch helper's log when no result is saved yet
    (a saved version keeps its own number; the form says where the number came from)."""
    if logged and (sheet is None or sheet.is_walkover):
        return {"rps_used": min(logged, rules.MAX_RPS_DECISIONS)}
    return {}


def _fresh_keys(sheet):
    return {"base_version": sheet.version if sheet else 0, "submission_key": secrets.token_hex(16)}


# --- Court link: the referee's tablet --------------------------------------------------


@never_cache
@court_link.court_page
def court_home(request, token):
    court = _court(token)
    matches = list(Match.objects.filter(court=court).select_related(*MATCH_RELATED).order_by("slot", "match_number"))
    open_matches = [m for m in matches if m.awaits_result and m.status != Match.Status.SUBMITTED]
    current = next((m for m in open_matches if m.teams_known), None)
    upcoming = [m for m in open_matches if m is not current][:4]
    waiting = [m for m in matches if m.status == Match.Status.SUBMITTED]
    finished = [m for m in matches if m.has_result][-5:]
    for m in open_matches:
        m.sent_back = services.sent_back(m)
    return render(
        request,
        "judging/court_home.html",
        {
            "court": court,
            "event": court.event,
            "current": current,
            "upcoming": upcoming,
            "waiting": waiting,
            "finished": finished,
            "token": token,
            "state_url": reverse("judging:court_state", args=[token]),
            "court_state": court_link.court_signature(court),
        },
    )


@never_cache
def court_state(request, token):
    """The court pages' poll: ``{"state": fingerprint, "games": [numbers]}``; 410 with
    ``{"revoked": true}`` for a revoked or renewed link, 404 for an unknown one."""
    try:
        court = _court(token)
    except court_link.LinkRevoked:
        return JsonResponse({"revoked": True}, status=410)
    numbers = list(Match.objects.filter(court=court).order_by("match_number").values_list("match_number", flat=True))
    return JsonResponse({"state": court_link.court_signature(court), "games": numbers})


def _player_cards_form(match, current, data=None):
    """The individual counts of the result form, or None when the event does not take them;
    unbound, it shows the counts of the current version (a correction starts from them)."""
    if not match.event.individual_counts:
        return None
    if data is not None:
        return PlayerCardsForm(data, match=match)
    counts = current.player_cards.all() if current is not None and not current.is_walkover else []
    return PlayerCardsForm(match=match, initial={f"player_{c.player_id}": c.cards for c in counts})


def _player_cards_valid(players, bound):
    """Whether the individual counts (if any) are valid and add up to the valid sheet's counts."""
    return players is None or (players.is_valid() and players.check(bound.values()))


def _handle_entry(request, match, *, who, saved_url, template, extra):
    """Shared by the court screen and the recorders' screen: show, validate, save."""
    event = match.event
    current = services.latest_sheet(match)
    names = _names(match)
    rps_logged = services.rps_logged(match)
    initial = {**_rps_prefill(current, rps_logged), **_sheet_initial(current), **_fresh_keys(current)}
    form = ResultForm(initial=initial, card_total=event.card_total, **names)
    walkover_form = WalkoverForm(initial=_fresh_keys(current), **names)
    players = _player_cards_form(match, current)
    if request.method == "POST":
        is_walkover = request.POST.get("action") == "walkover"
        if players is not None and not is_walkover:
            players = _player_cards_form(match, current, request.POST)
        bound = (WalkoverForm if is_walkover else ResultForm)(
            request.POST, **names, **({} if is_walkover else {"card_total": event.card_total})
        )
        if is_walkover:
            walkover_form = bound
        else:
            form = bound
        if bound.is_valid() and (is_walkover or _player_cards_valid(players, bound)):
            data = bound.cleaned_data
            keys = {"base_version": data.get("base_version") or 0, "submission_key": data.get("submission_key") or ""}
            try:
                if is_walkover:
                    sheet, created = services.submit_walkover(
                        match, rules.Side(data["absent_side"]), **keys, **who, **_client(request)
                    )
                else:
                    counts = {"player_cards": players.counts()} if players is not None else {}
                    sheet, created = services.submit_sheet(
                        match, bound.values(), **keys, **who, **_client(request), **counts
                    )
            except services.Conflict as conflict:
                return render(
                    request,
                    "judging/conflict.html",
                    {
                        **extra,
                        "event": event,
                        "match": match,
                        "current": conflict.current,
                        "typed": bound,
                        "is_walkover": is_walkover,
                        "resubmit": {**_fresh_keys(conflict.current)},
                    },
                    status=409,
                )
            except UserError as e:
                bound.add_error(None, str(e))
            else:
                return redirect(saved_url(sheet))
    context = {
        **extra,
        "event": event,
        "match": match,
        "form": form,
        "walkover_form": walkover_form,
        "current": current,
        "rps_logged": rps_logged,
        "player_form": players,
    }
    return render(request, template, context)


@never_cache
@court_link.court_page
def court_entry(request, token, number):
    court = _court(token)
    match = _court_match(court, number)
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("judging:court_home", token)
    if request.method == "GET":
        mark_started(match)
    # A logged-in recorder typing on a court link is still that person (no self-confirmation).
    return _handle_entry(
        request,
        match,
        who={"court": court, "user": request.user},
        template="judging/court_entry.html",
        saved_url=lambda sheet: reverse("judging:court_saved", args=[token, number, sheet.version]),
        extra={
            "token": token,
            "done_url": reverse("judging:court_home", args=[token]),
            "sent_back": services.sent_back(match),
            "state_url": reverse("judging:court_state", args=[token]),
            "court_state": court_link.court_signature(court),
        },
    )


@never_cache
@court_link.court_page
def court_saved(request, token, number, version):
    """A clear confirmation of what was saved, to show the team leaders."""
    court = _court(token)
    match = _court_match(court, number)
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
    court = _court(token)
    match = _court_match(court, number)
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
        services.sign_off(sheet, rules.Side(side), name=request.POST.get(f"name_{side}", ""), court=court)
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
                services.attach_photo(sheet, upload, court=court)
            except UserError as e:
                messages.error(request, _("Photo of the paper sheet: %(error)s The result is saved.") % {"error": e})
            else:
                messages.success(
                    request, _("The photo of the paper sheet is kept with version %(v)s.") % {"v": version}
                )
    return redirect("judging:court_saved", token, number, version)


def _dispute(request, match, *, who, extra, template):
    """The touch-rule helper: step one (a hand underneath), the table, then the named team."""
    names = _names(match)
    asked = any(key in request.GET for key in ("state_a", "underneath"))
    source = request.POST if request.method == "POST" else (request.GET if asked else None)
    form = DisputeForm(source, **names)
    rps_count = services.rps_logged(match)
    ruling = None
    if source is not None and form.is_valid():
        ruling = form.ruling(rps_count)
        if request.method == "POST":
            data = form.cleaned_data
            try:
                logged = services.log_dispute(
                    match,
                    data["state_a"],
                    data["state_b"],
                    underneath=data["underneath"],
                    rps_winner=data["rps_winner"],
                    first_team=data["first_team"],
                    referee_choice=data["referee_choice"],
                    submission_key=request.POST.get("submission_key", "")[:64],
                    **who,
                )
            except UserError as e:
                form.add_error(None, str(e))
            else:
                taker = match.team_a if logged.taken_by == "A" else match.team_b
                messages.success(
                    request,
                    _("Dispute logged: %(team)s takes the card (%(how)s).")
                    % {"team": taker.name, "how": logged.get_settlement_display()},
                )
                # Post/redirect/get: a reload never logs the dispute twice.
                return redirect(request.path)
    return render(
        request,
        template,
        {
            **extra,
            "event": match.event,
            "match": match,
            "form": form,
            "ruling": ruling,
            "verdict": ruling.verdict if ruling else None,
            "rps_count": rps_count,
            "rps_limit": rules.MAX_RPS_DECISIONS,
            "disputes": match.disputes.all(),
            "matrix": touch_matrix_rows(),
            "matrix_json": _matrix_json(),
            "submission_key": secrets.token_hex(16),
        },
    )


def _matrix_json():
    states = [value for value, _label in Dispute.STATE_CHOICES]
    return json.dumps({a: {b: rules.touch_verdict(a, b).value for b in states} for a in states})


def touch_matrix_rows():
    """The 判定表 as rows of (state of A, [(state of B, verdict) …]) for templates."""
    states = [value for value, _label in Dispute.STATE_CHOICES]
    labels = dict(Dispute.STATE_CHOICES)
    return {
        "columns": [labels[s] for s in states],
        "rows": [(labels[a], [rules.touch_verdict(a, b).value for b in states]) for a in states],
    }


@never_cache
@court_link.court_page
def court_dispute(request, token, number):
    court = _court(token)
    match = _court_match(court, number)
    if not match.teams_known:
        raise Http404
    return _dispute(
        request,
        match,
        who={"court": court},
        template="judging/dispute.html",
        extra={"token": token, "court": court, "back_url": reverse("judging:court_entry", args=[token, number])},
    )


@never_cache
@court_link.court_page
def court_rules(request, token):
    court = _court(token)
    return render(
        request,
        "judging/rules_help.html",
        {"court": court, "event": court.event, "token": token, "matrix": touch_matrix_rows()},
    )


@court_link.court_page
def court_matrix_pdf(request, token):
    """The whole touch-judgment matrix on one A4 page, to print for the court."""
    _court(token)
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
    court = _court(token)
    form = TabletReportForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
    heard_at = services.record_tablet_report(court, form.cleaned_data["unsent"])
    return JsonResponse({"heard_at": heard_at.isoformat(), "unsent": form.cleaned_data["unsent"]})


# --- Recorders and organisers ----------------------------------------------------------


@login_required
def match_detail(request, slug, number):
    """A game for recorders: enter or correct, confirm, reject, re-type blind, history."""
    event = _event_for_recorder(request, slug)
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED), event=event, match_number=number)
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("tournament:schedule", event.slug)
    here = reverse("judging:match_detail", args=[event.slug, number])
    if request.method == "POST" and request.POST.get("action") in (
        "confirm",
        "retype",
        "reject",
        "restore",
        "void",
        "reopen",
    ):
        return _recorder_action(request, event, match, here)
    history = match.sheets.select_related("submitted_by", "court", "confirmed_by").order_by("-version")
    newest = history.first()
    sent_back = services.sent_back(match)
    own_newest = newest is not None and services.is_submitter(newest, user=request.user)
    extra = {
        "done_url": reverse("tournament:schedule", args=[event.slug]) + f"#m{number}",
        "history": history,
        "events": match.history.select_related("user", "court", "sheet"),
        "newest": newest,
        "can_confirm": newest is not None and not newest.is_confirmed and not own_newest and sent_back is None,
        "own_newest": own_newest,
        "sent_back": sent_back,
        "can_confirm_own": own_newest
        and not newest.is_confirmed
        and sent_back is None
        and match.status != Match.Status.VOID
        and services.may_confirm_own(event, request.user),
        "retype_form": RetypeForm(card_total=event.card_total, prefix="retype", **_names(match)),
        "reject_form": RejectForm(),
        "is_organiser": event.is_organiser(request.user),
    }
    return _handle_entry(
        request,
        match,
        who={"user": request.user},
        template="judging/organiser_entry.html",
        saved_url=lambda sheet: here,
        extra=extra,
    )


@login_required
def confirm_own(request, slug, number):
    """The second step of a one-person confirmation: the page says that nobody else checked
    the version; its button confirms it (``services.confirm_own_sheet``, recorded as such in
    the history). Organisers always, recorders when the event allows it; else 403. A version
    that cannot be confirmed this way sends the user back to the game's page with the reason.
    """
    event = _event_for_recorder(request, slug)
    if not services.may_confirm_own(event, request.user):
        raise PermissionDenied
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED), event=event, match_number=number)
    here = reverse("judging:match_detail", args=[event.slug, number])
    newest = services.latest_sheet(match)
    if newest is None or not services.is_submitter(newest, user=request.user) or newest.is_confirmed:
        messages.info(request, _("There is no version of yours waiting for confirmation."))
        return redirect(here)
    if request.method == "POST":
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = None
        if version != newest.version:
            messages.error(request, _("A newer version came in meanwhile: check it first."))
            return redirect(here)
        try:
            services.confirm_own_sheet(newest, request.user)
        except UserError as e:
            messages.error(request, str(e))
        else:
            messages.success(request, _("Version %(v)s confirmed by you alone.") % {"v": newest.version})
        return redirect(here)
    return render(
        request,
        "judging/confirm_own.html",
        {"event": event, "match": match, "sheet": newest, "back_url": here},
    )


def _organisers_only(request, event):
    if not event.is_organiser(request.user):
        raise PermissionDenied


def _reopen(request, event, match, sheet):
    _organisers_only(request, event)
    services.reopen_match(match, request.user)
    messages.success(request, _("The game is open again."))


def _void(request, event, match, sheet):
    _organisers_only(request, event)
    services.void_match(match, request.user, request.POST.get("reason", ""))
    messages.warning(request, _("The game is void."))


def _confirm(request, event, match, sheet):
    services.confirm_sheet(sheet, request.user)
    messages.success(request, _("Version %(v)s confirmed.") % {"v": sheet.version})


def _retype(request, event, match, sheet):
    form = RetypeForm(request.POST, card_total=event.card_total, prefix="retype", **_names(match))
    if not form.is_valid():
        raise UserError(
            _("The re-typed sheet is not valid: %(errors)s")
            % {"errors": " ".join(str(e) for errors in form.errors.values() for e in errors)}
        )
    services.confirm_sheet(sheet, request.user, retyped=form.values())
    messages.success(request, _("The re-typed sheet matches: version %(v)s confirmed.") % {"v": sheet.version})


def _reject(request, event, match, sheet):
    form = RejectForm(request.POST)
    form.is_valid()
    services.reject_sheet(sheet, request.user, form.cleaned_data.get("reason", ""))
    messages.warning(request, _("Version %(v)s rejected: the game is disputed.") % {"v": sheet.version})


def _restore(request, event, match, sheet):
    _organisers_only(request, event)
    new = services.restore_version(sheet, request.user)
    messages.success(
        request, _("Version %(old)s restored as version %(new)s.") % {"old": sheet.version, "new": new.version}
    )


# The desk's buttons on a game's page: what each does, and whether it acts on a version.
_MATCH_ACTIONS = {"reopen": _reopen, "void": _void}
_SHEET_ACTIONS = {"confirm": _confirm, "retype": _retype, "reject": _reject, "restore": _restore, "void": _void}


def _mismatch_messages(request, mismatch):
    """One message per field where the recorder's blind re-typing differs from the entry."""
    labels = {
        "cards_a": _("cards of team A"),
        "cards_b": _("cards of team B"),
        "referee_cards": _("cards held by the referee"),
        "joker_holder": _("「り」 holder"),
        "rps_winner": _("じゃんけん winner"),
        "rps_used": _("じゃんけん decisions"),
    }
    shown = {"A": _("Team A"), "B": _("Team B"), "referee": _("Referee")}

    def text(value):
        if value is None or value == "":
            return "—"
        return str(shown.get(str(value), value))

    for field, entered, typed in mismatch.differences:
        messages.error(
            request,
            _("%(field)s: entered %(entered)s, paper sheet %(typed)s.")
            % {"field": labels[field], "entered": text(entered), "typed": text(typed)},
        )
    messages.error(request, _("Not confirmed: the entry and the paper sheet differ."))


def _recorder_action(request, event, match, here):
    """A desk button (confirm, re-type, reject, restore, void, reopen) on game ``match``."""
    action = request.POST["action"]
    sheet = None
    if action == "reopen" or (action == "void" and not match.sheets.exists()):
        handler = _MATCH_ACTIONS[action]
    elif action in _SHEET_ACTIONS:
        handler = _SHEET_ACTIONS[action]
        sheet = get_object_or_404(RecordingSheet, match=match, version=request.POST.get("version") or 0)
    else:
        return redirect(here)
    try:
        handler(request, event, match, sheet)
    except services.Mismatch as mismatch:
        _mismatch_messages(request, mismatch)
    except UserError as e:
        messages.error(request, str(e))
    return redirect(here)


@login_required
def sheet_photo(request, slug, number, version):
    """The photo of a version's paper sheet, for the event's organisers and recorders only
    (login; 403 for others); never stored by the browser or a proxy."""
    event = _event_for_recorder(request, slug)
    sheet = get_object_or_404(RecordingSheet, match__event=event, match__match_number=number, version=version)
    path = services.photo_path(sheet)
    if path is None or not path.is_file():
        raise Http404
    response = FileResponse(path.open("rb"), content_type="image/jpeg")
    response["Cache-Control"] = "no-store, private"
    return response


def _newest_sheets(matches):
    """Each game's newest version as ``newest_sheet`` (the queue shows its sign-off and photo)."""
    newest = {}
    for sheet in RecordingSheet.objects.filter(match__in=matches).order_by("match_id", "version"):
        newest[sheet.match_id] = sheet
    for match in matches:
        match.newest_sheet = newest.get(match.pk)
    return matches


@login_required
def confirm_queue(request, slug):
    """Games waiting for a recorder: submitted or disputed, oldest first."""
    event = _event_for_recorder(request, slug)
    matches = (
        event.matches.filter(status__in=[Match.Status.SUBMITTED, Match.Status.DISPUTED])
        .select_related(*MATCH_RELATED)
        .annotate(last_version=Max("sheets__version"))
        .order_by("match_number")
    )
    return render(request, "judging/confirm_queue.html", {"event": event, "games": _newest_sheets(list(matches))})


@login_required
def status_board(request, slug):
    """Each court: current game, last entry, waiting for confirmation, overdue, disputes."""
    event = _event_for_recorder(request, slug)
    now = timezone.now()
    courts = list(event.courts.all())
    matches = list(
        event.matches.select_related("team_a", "team_b", "court", "division", "group").order_by("slot", "match_number")
    )
    last_entry = dict(
        RecordingSheet.objects.filter(match__event=event)
        .values("match__court")
        .annotate(at=Max("submitted_at"))
        .values_list("match__court", "at")
    )
    disputes = dict(
        Dispute.objects.filter(match__event=event)
        .values("match__court")
        .annotate(n=Count("pk"))
        .values_list("match__court", "n")
    )
    length = event.game_minutes + event.changeover_minutes
    rows = []
    for court in courts:
        mine = [g for g in matches if g.court_id == court.pk]
        current = next(
            (g for g in mine if g.awaits_result and g.status != Match.Status.SUBMITTED and g.teams_known), None
        )
        overdue = [
            g
            for g in mine
            if g.awaits_result
            and g.status != Match.Status.SUBMITTED
            and g.start_at
            and (now - g.start_at).total_seconds() > length * 60
        ]
        started = [g for g in mine if g.actual_start and g.start_at]
        late = round((started[-1].actual_start - started[-1].start_at).total_seconds() / 60) if started else None
        rows.append(
            {
                "court": court,
                "current": current,
                "last_entry": last_entry.get(court.pk),
                "late": late,
                "waiting": [g for g in mine if g.status == Match.Status.SUBMITTED],
                "disputed": [g for g in mine if g.status == Match.Status.DISPUTED],
                "overdue": overdue,
                "disputes": disputes.get(court.pk, 0),
                "done": sum(1 for g in mine if g.has_result),
                "total": len(mine),
            }
        )
    return render(request, "judging/status_board.html", {"event": event, "rows": rows, "now": now})


@login_required
def organiser_dispute(request, slug, number):
    event = _event_for_recorder(request, slug)
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED), event=event, match_number=number)
    if not match.teams_known:
        raise Http404
    return _dispute(
        request,
        match,
        who={"user": request.user},
        template="judging/dispute.html",
        extra={"back_url": reverse("judging:match_detail", args=[slug, number])},
    )


@login_required
def court_links(request, slug):
    """All court links with QR codes, printable; revoke and renew a link."""
    event = _event_for_organiser(request, slug)
    if request.method == "POST":
        # Revoking and renewing are confirmed on their own page first.
        court = get_object_or_404(Court, event=event, pk=request.POST.get("court"))
        action = request.POST.get("action")
        if action in _LINK_ACTIONS:
            return redirect("tournament:court_link_change", event.slug, court.pk, action)
        return redirect("tournament:court_links", event.slug)
    base = settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")
    sheets = reverse("tournament:recording_sheets", args=[event.slug])
    courts = []
    for court in event.courts.prefetch_related("divisions"):
        url = base + court.get_link_path()
        qr = segno.make(url, error="m").svg_inline(scale=4, border=2) if court.link_enabled else ""
        courts.append({"court": court, "url": url, "qr": qr, "sheets_url": sheets + f"?court={court.pk}"})
    changed = next((c for c in courts if str(c["court"].pk) == request.GET.get("changed")), None)
    return render(request, "tournament/court_links.html", {"event": event, "courts": courts, "changed": changed})


_LINK_ACTIONS = ("revoke", "renew")


@login_required
def court_link_change(request, slug, pk, action):
    """Revoke or renew a court's link, after a confirmation page that says the printed QR
    codes (recording sheets, court cards) stop working and offers the court's sheets to print
    again. GET: the confirmation; POST: the change, then back to the court links."""
    event = _event_for_organiser(request, slug)
    court = get_object_or_404(Court, event=event, pk=pk)
    if action not in _LINK_ACTIONS:
        raise Http404
    if request.method == "POST":
        if action == "renew":
            court.renew_token()
            messages.success(
                request,
                _("%(court)s has a new link; the old one and its printed QR codes no longer work. Print new sheets.")
                % {"court": court},
            )
        else:
            court.link_enabled = False
            court.save(update_fields=["link_enabled"])
            messages.warning(
                request,
                _("The link of %(court)s is revoked; its printed QR codes no longer work.") % {"court": court},
            )
        return redirect(reverse("tournament:court_links", args=[event.slug]) + f"?changed={court.pk}")
    return render(
        request,
        "judging/court_link_change.html",
        {
            "event": event,
            "court": court,
            "action": action,
            "games": event.matches.filter(court=court).count(),
        },
    )
