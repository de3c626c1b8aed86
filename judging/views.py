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
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.downloads import PDF, file_response
from common.errors import UserError
from judging import services
from judging.engine import rules
from judging.forms import DisputeForm, RejectForm, ResultForm, RetypeForm, TabletReportForm, WalkoverForm
from judging.models import Dispute, RecordingSheet
from judging.paper.touch_matrix import touch_matrix_pdf
from judging.services import mark_started
from tournament.access import event_for_organiser as _event_for_organiser
from tournament.access import event_for_recorder as _event_for_recorder
from tournament.models import Court, Match

MATCH_RELATED = ("event", "division", "group", "court", "team_a", "team_b", "winner")


def _client(request):
    return {"ip": request.META.get("REMOTE_ADDR"), "device": request.META.get("HTTP_USER_AGENT", "")}


def _court(token):
    court = get_object_or_404(Court.objects.select_related("event"), token=token)
    if not court.link_enabled:
        raise Http404
    return court


def _court_match(court, number):
    return get_object_or_404(Match.objects.select_related(*MATCH_RELATED), court=court, match_number=number)


def _names(match):
    return {"team_a": match.team_a.name if match.team_a else "", "team_b": match.team_b.name if match.team_b else ""}


def _sheet_initial(sheet):
    if sheet is None or sheet.is_walkover:
        return {}
    return {field: getattr(sheet, field) for field in services.SHEET_FIELDS}


def _fresh_keys(sheet):
    return {"base_version": sheet.version if sheet else 0, "submission_key": secrets.token_hex(16)}


# --- Court link: the referee's tablet --------------------------------------------------


@never_cache
def court_home(request, token):
    court = _court(token)
    matches = list(Match.objects.filter(court=court).select_related(*MATCH_RELATED).order_by("slot", "match_number"))
    open_matches = [m for m in matches if m.awaits_result and m.status != Match.Status.SUBMITTED]
    current = next((m for m in open_matches if m.teams_known), None)
    upcoming = [m for m in open_matches if m is not current][:4]
    waiting = [m for m in matches if m.status == Match.Status.SUBMITTED]
    finished = [m for m in matches if m.has_result][-5:]
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
        },
    )


def _handle_entry(request, match, *, who, saved_url, template, extra):
    """Shared by the court screen and the recorders' screen: show, validate, save."""
    event = match.event
    current = services.latest_sheet(match)
    names = _names(match)
    form = ResultForm(initial={**_sheet_initial(current), **_fresh_keys(current)}, card_total=event.card_total, **names)
    walkover_form = WalkoverForm(initial=_fresh_keys(current), **names)
    if request.method == "POST":
        is_walkover = request.POST.get("action") == "walkover"
        bound = (WalkoverForm if is_walkover else ResultForm)(
            request.POST, **names, **({} if is_walkover else {"card_total": event.card_total})
        )
        if is_walkover:
            walkover_form = bound
        else:
            form = bound
        if bound.is_valid():
            data = bound.cleaned_data
            keys = {"base_version": data.get("base_version") or 0, "submission_key": data.get("submission_key") or ""}
            try:
                if is_walkover:
                    sheet, created = services.submit_walkover(
                        match, rules.Side(data["absent_side"]), **keys, **who, **_client(request)
                    )
                else:
                    sheet, created = services.submit_sheet(match, bound.values(), **keys, **who, **_client(request))
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
        "rps_logged": services.rps_logged(match),
    }
    return render(request, template, context)


@never_cache
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
        extra={"token": token, "done_url": reverse("judging:court_home", args=[token])},
    )


@never_cache
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
        },
    )


def _dispute(request, match, *, who, extra, template):
    names = _names(match)
    verdict = None
    source = request.POST if request.method == "POST" else (request.GET if "state_a" in request.GET else None)
    form = DisputeForm(source, **names)
    logged = None
    if source is not None and form.is_valid():
        verdict = rules.touch_verdict(form.cleaned_data["state_a"], form.cleaned_data["state_b"])
        if request.method == "POST":
            try:
                logged = services.log_dispute(
                    match,
                    form.cleaned_data["state_a"],
                    form.cleaned_data["state_b"],
                    rps_winner=form.cleaned_data["rps_winner"],
                    submission_key=request.POST.get("submission_key", "")[:64],
                    **who,
                )
            except UserError as e:
                form.add_error(None, str(e))
            else:
                messages.success(request, _("Dispute logged: %(verdict)s.") % {"verdict": logged.get_verdict_display()})
                # Post/redirect/get: a reload never logs the dispute twice.
                return redirect(request.path)
    rps_count = services.rps_logged(match)
    return render(
        request,
        template,
        {
            **extra,
            "event": match.event,
            "match": match,
            "form": form,
            "verdict": verdict,
            "logged": logged,
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
def court_rules(request, token):
    court = _court(token)
    return render(
        request,
        "judging/rules_help.html",
        {"court": court, "event": court.event, "token": token, "matrix": touch_matrix_rows()},
    )


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
    extra = {
        "done_url": reverse("tournament:schedule", args=[event.slug]) + f"#m{number}",
        "history": history,
        "events": match.history.select_related("user", "court", "sheet"),
        "newest": newest,
        "can_confirm": newest is not None
        and not newest.is_confirmed
        and not services.is_submitter(newest, user=request.user),
        "own_newest": newest is not None and services.is_submitter(newest, user=request.user),
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
def confirm_queue(request, slug):
    """Games waiting for a recorder: submitted or disputed, oldest first."""
    event = _event_for_recorder(request, slug)
    matches = (
        event.matches.filter(status__in=[Match.Status.SUBMITTED, Match.Status.DISPUTED])
        .select_related(*MATCH_RELATED)
        .annotate(last_version=Max("sheets__version"))
        .order_by("match_number")
    )
    return render(request, "judging/confirm_queue.html", {"event": event, "games": matches})


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
        court = get_object_or_404(Court, event=event, pk=request.POST.get("court"))
        if request.POST.get("action") == "renew":
            court.renew_token()
            messages.success(request, _("%(court)s has a new link; the old one no longer works.") % {"court": court})
        elif request.POST.get("action") == "revoke":
            court.link_enabled = False
            court.save(update_fields=["link_enabled"])
            messages.warning(request, _("The link of %(court)s is revoked.") % {"court": court})
        return redirect("tournament:court_links", event.slug)
    base = settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")
    courts = []
    for court in event.courts.prefetch_related("divisions"):
        url = base + court.get_link_path()
        qr = segno.make(url, error="m").svg_inline(scale=4, border=2) if court.link_enabled else ""
        courts.append({"court": court, "url": url, "qr": qr})
    return render(request, "tournament/court_links.html", {"event": event, "courts": courts})
