"""The recorders' desk (記録係, login): a game's page with its versions and history, confirm
(also alone, in a second step), re-type blind, send back, restore, void; the queue, the
court board, the court links.
"""

from collections import defaultdict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, Q
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import UserError
from common.kept_forms import on_page
from common.qr_svg import qr_svg
from judging import services, signoff
from judging.forms import (
    RejectForm,
    RetypeForm,
)
from judging.models import Dispute, HistoryEntry, RecordingSheet
from judging.pages import MATCH_RELATED, client_info, dispute_page, handle_entry, team_names
from tournament.access import event_for_organiser as _event_for_organiser
from tournament.access import event_for_recorder as _event_for_recorder
from tournament.access import object_or_404
from tournament.models import Court, Match
from tournament.reports import stage_notes, stages


@login_required
def match_detail(request, slug, number):
    """A game for recorders: its versions and history, and the result form (GET, and the
    form's POST: enter or correct). The desk's buttons (confirm, re-type, reject, restore,
    void, reopen, adopt) post to their own addresses (``match_confirm`` … below)."""
    event = _event_for_recorder(request, slug)
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED), event=event, match_number=number)
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("tournament:schedule", event.slug)
    here = reverse("judging:match_detail", args=[event.slug, number])
    history = list(match.sheets.select_related("submitted_by", "court", "confirmed_by").order_by("-version"))
    cutoff = services.replay_cutoff(match)
    newest = history[0] if history and history[0].version > cutoff else None
    sent_back = services.sent_back(match)
    own_newest = newest is not None and services.is_submitter(newest, user=request.user)
    extra = {
        "done_url": reverse("tournament:schedule", args=[event.slug]) + f"#m{number}",
        "history": [sheet for sheet in history if sheet.version > cutoff],
        "before_replay": [sheet for sheet in history if sheet.version <= cutoff],
        "events": match.history.select_related("user", "court", "sheet"),
        "refused": services.refused_saves(match),
        "newest": newest,
        "can_confirm": newest is not None and not newest.is_confirmed and not own_newest and sent_back is None,
        "own_newest": own_newest,
        "sent_back": sent_back,
        "can_confirm_own": own_newest
        and not newest.is_confirmed
        and sent_back is None
        and match.status != Match.Status.VOID
        and services.may_confirm_own(event, request.user),
        "retype_form": RetypeForm(card_total=event.card_total, prefix="retype", **team_names(match)),
        "reject_form": RejectForm(),
        "is_organiser": event.is_organiser(request.user),
        **_stage_warnings(match, newest),
    }
    return handle_entry(
        request,
        match,
        who={"user": request.user},
        template="judging/organiser_entry.html",
        saved_url=lambda sheet: here,
        extra=extra,
    )


def _stage_warnings(match, newest):
    """What a game's page says about the stage after the groups: ``slot_changes``, the sentences
    of what confirming the waiting version would change ("確定するとAリーグ1位が…"); ``stale``,
    the game's ``stage_notes.OutOfDate`` when a change reached it after it started;
    ``frozen_after``, the started or played games after the groups that a correction of this
    game can reach (docs/rules/stages.md, "Slots")."""
    waiting = newest is not None and not newest.is_confirmed and match.status != Match.Status.VOID
    return {
        "slot_changes": stages.changes_if_confirmed(newest) if waiting else [],
        "stale": stage_notes.match_out_of_date(match),
        "frozen_after": stage_notes.frozen_after(match),
    }


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
        {
            "event": event,
            "match": match,
            "sheet": newest,
            "back_url": here,
            "slot_changes": stages.changes_if_confirmed(newest),
        },
    )


def _organisers_only(request, event):
    if not event.is_organiser(request.user):
        raise PermissionDenied


def _posted_version(request, match):
    """The version of ``match`` the form names (POST ``version``); 404 when it names none."""
    return object_or_404(RecordingSheet.objects.filter(match=match), request.POST.get("version") or 0, field="version")


def _mismatch_messages(request, mismatch):
    """One message per field where the recorder's blind re-typing differs from the entry."""
    labels = {
        "cards_a": _("cards of team A"),
        "cards_b": _("cards of team B"),
        "referee_cards": _("cards held by the referee"),
        "joker_holder": _("「り」 holder"),
        "rps_winner": _("rock-paper-scissors winner"),
        "rps_used": _("rock-paper-scissors decisions"),
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


def _desk_action(request, slug, number, act):
    """One desk button on game ``number`` of event ``slug``: ``act(request, event, match)``
    does the work through ``judging.services`` and says what it did; every button then goes
    back to the game's page. The event's recorders and organisers only (403 for others; the
    organisers-only buttons check again); a game whose teams are not known yet goes back to
    the schedule. A refusal (``UserError``, a re-typing that differs) is shown as messages,
    nothing written; a tampered version or entry answers 404."""
    event = _event_for_recorder(request, slug)
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED), event=event, match_number=number)
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("tournament:schedule", event.slug)
    try:
        act(request, event, match)
    except services.Mismatch as mismatch:
        _mismatch_messages(request, mismatch)
    except UserError as e:
        messages.error(request, str(e))
    return redirect("judging:match_detail", event.slug, number)


def _confirm(request, event, match):
    sheet = _posted_version(request, match)
    services.confirm_sheet(sheet, request.user)
    messages.success(request, _("Version %(v)s confirmed.") % {"v": sheet.version})


def _retype(request, event, match):
    sheet = _posted_version(request, match)
    form = RetypeForm(request.POST, card_total=event.card_total, prefix="retype", **team_names(match))
    if not form.is_valid():
        raise UserError(
            _("The re-typed sheet is not valid: %(errors)s")
            % {"errors": " ".join(str(e) for errors in form.errors.values() for e in errors)}
        )
    services.confirm_sheet(sheet, request.user, retyped=form.values())
    messages.success(request, _("The re-typed sheet matches: version %(v)s confirmed.") % {"v": sheet.version})


def _reject(request, event, match):
    sheet = _posted_version(request, match)
    form = RejectForm(request.POST)
    if not form.is_valid():
        # Never an empty reason in place of the one typed (issue 27): refused, naming the field.
        raise UserError(
            _("%(field)s: %(problem)s Nothing was changed.")
            % {"field": form.fields["reason"].label, "problem": " ".join(form.errors.get("reason", []))}
        )
    services.reject_sheet(sheet, request.user, form.cleaned_data["reason"])
    messages.warning(request, _("Version %(v)s rejected: the game is disputed.") % {"v": sheet.version})


def _restore(request, event, match):
    _organisers_only(request, event)
    sheet = _posted_version(request, match)
    new = services.restore_version(sheet, request.user)
    messages.success(
        request, _("Version %(old)s restored as version %(new)s.") % {"old": sheet.version, "new": new.version}
    )


def _void(request, event, match):
    _organisers_only(request, event)
    if match.sheets.exists():
        _posted_version(request, match)  # the page's newest version: a tampered one answers 404
    services.void_match(match, request.user, request.POST.get("reason", ""))
    messages.warning(request, _("The game is void."))


def _reopen(request, event, match):
    _organisers_only(request, event)
    services.reopen_match(match, request.user)
    messages.success(request, _("The game is open again."))


def _adopt(request, event, match):
    """A refused save's values (POST ``entry``: its history entry) as a new version."""
    entry = object_or_404(HistoryEntry.objects.filter(match=match), request.POST.get("entry") or 0)
    sheet, _created = services.adopt_refused(entry, request.user, **client_info(request))
    messages.success(
        request, _("The refused values are version %(v)s now; confirm it like any other.") % {"v": sheet.version}
    )


# The desk's buttons on a game's page, one address each (issue 30, item 5): POST only; every
# one answers with the game's page. Confirm, re-type and reject act on the version they name,
# for the event's recorders; restore, void and reopen for its organisers only.


@login_required
@require_POST
@on_page("judging:match_detail")
def match_confirm(request, slug, number):
    """Confirm the version POST ``version`` names: it matches the paper sheet
    (``services.confirm_sheet``; one's own version is refused, see ``confirm_own``)."""
    return _desk_action(request, slug, number, _confirm)


@login_required
@require_POST
@on_page("judging:match_detail")
def match_retype(request, slug, number):
    """Confirm version ``version`` after re-typing the paper sheet blind (the ``retype-``
    fields of ``RetypeForm``): confirmed only when every field matches, else one message per
    difference (``services.confirm_sheet`` with ``retyped``)."""
    return _desk_action(request, slug, number, _retype)


@login_required
@require_POST
@on_page("judging:match_detail")
def match_reject(request, slug, number):
    """Send version ``version`` back with POST ``reason`` (required): the game is disputed
    (``services.reject_sheet``)."""
    return _desk_action(request, slug, number, _reject)


@login_required
@require_POST
@on_page("judging:match_detail")
def match_restore(request, slug, number):
    """Organisers: an older version ``version`` again as the newest (``services.restore_version``)."""
    return _desk_action(request, slug, number, _restore)


@login_required
@require_POST
@on_page("judging:match_detail")
def match_void(request, slug, number):
    """Organisers: void the game, with POST ``reason`` (``services.void_match``)."""
    return _desk_action(request, slug, number, _void)


@login_required
@require_POST
@on_page("judging:match_detail")
def match_reopen(request, slug, number):
    """Organisers: open a void game again (``services.reopen_match``)."""
    return _desk_action(request, slug, number, _reopen)


@login_required
@require_POST
@on_page("judging:match_detail")
def match_adopt(request, slug, number):
    """A refused save's values (POST ``entry``) as the newest version, to confirm like any other
    (``services.adopt_refused``; issue 28, item 7)."""
    return _desk_action(request, slug, number, _adopt)


@login_required
def sheet_photo(request, slug, number, version):
    """The photo of a version's paper sheet, for the event's organisers and recorders only
    (login; 403 for others); never stored by the browser or a proxy."""
    event = _event_for_recorder(request, slug)
    sheet = get_object_or_404(RecordingSheet, match__event=event, match__match_number=number, version=version)
    path = signoff.photo_path(sheet)
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
        event.matches.waiting()
        .select_related(*MATCH_RELATED)
        .annotate(
            last_version=Max("sheets__version"),
            # Refused saves kept with their values (issue 28, item 7): the game's page lists them.
            refused_count=Count("history", filter=Q(history__action=HistoryEntry.Action.REFUSED), distinct=True),
        )
        .order_by("match_number")
    )
    return render(request, "judging/confirm_queue.html", {"event": event, "games": _newest_sheets(list(matches))})


@login_required
def status_board(request, slug):
    """Each court: current game, last entry, waiting for confirmation, overdue, disputes, and
    the games a change left out of date (docs/rules/stages.md, "Slots")."""
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
    by_court = defaultdict(list)  # one pass over the games, not one per court (issue 31 item 1)
    for g in matches:
        by_court[g.court_id].append(g)
    for court in courts:
        mine = by_court[court.pk]
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
    stale = stage_notes.event_out_of_date(event)
    for row in rows:
        row["stale"] = [stale[g.pk] for g in by_court[row["court"].pk] if g.pk in stale]
    return render(
        request,
        "judging/status_board.html",
        {"event": event, "rows": rows, "now": now, "stale": list(stale.values())},
    )


@login_required
def organiser_dispute(request, slug, number):
    event = _event_for_recorder(request, slug)
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED), event=event, match_number=number)
    if not match.teams_known:
        raise Http404
    return dispute_page(
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
        court = object_or_404(Court.objects.filter(event=event), request.POST.get("court"))
        action = request.POST.get("action")
        if action in _LINK_ACTIONS:
            return redirect("tournament:court_link_change", event.slug, court.pk, action)
        return redirect("tournament:court_links", event.slug)
    base = settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")
    sheets = reverse("tournament:recording_sheets", args=[event.slug])
    courts = []
    for court in event.courts.prefetch_related("divisions"):
        url = base + court.get_link_path()
        qr = qr_svg(url, _("QR code of the link")) if court.link_enabled else ""
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
