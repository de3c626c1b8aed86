"""What the referee's court pages and the recorders' desk share: the result entry form
(show, validate, save, answer) and the dispute helper page.

Not views themselves: the view modules (``judging/views/court.py``, ``desk.py``) call them.
"""

import json
import secrets

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from judging import disputes, services
from judging.engine import rules
from judging.forms import (
    DisputeForm,
    PlayerCardsForm,
    ResultForm,
    WalkoverForm,
)
from judging.models import Dispute
from judging.paper.touch_matrix import touch_steps
from tournament.models import Match

MATCH_RELATED = ("event", "division", "group", "court", "team_a", "team_b", "winner")


def client_info(request):
    return {"ip": request.META.get("REMOTE_ADDR"), "device": request.META.get("HTTP_USER_AGENT", "")}


def court_match(court, number):
    return get_object_or_404(Match.objects.select_related(*MATCH_RELATED), court=court, match_number=number)


def team_names(match):
    return {"team_a": match.team_a.name if match.team_a else "", "team_b": match.team_b.name if match.team_b else ""}


def sheet_initial(sheet):
    if sheet is None or sheet.is_walkover:
        return {}
    return {field: getattr(sheet, field) for field in services.SHEET_FIELDS}


def walkover_initial(sheet):
    """The absent side of a saved walkover, so the reopened walkover form shows it as it was
    chosen (issue 27, item 2: every form shows again what was typed); {} for a played sheet."""
    if sheet is None or not sheet.is_walkover:
        return {}
    return {"absent_side": rules.Side(sheet.winner_side).other.value}


def rps_prefill(sheet, logged):
    """ "じゃんけん used" taken from the touch helper's log when no result is saved yet
    (a saved version keeps its own number; the form says where the number came from)."""
    if logged and (sheet is None or sheet.is_walkover):
        return {"rps_used": min(logged, rules.MAX_RPS_DECISIONS)}
    return {}


def fresh_keys(sheet):
    return {"base_version": sheet.version if sheet else 0, "submission_key": secrets.token_hex(16)}


def player_cards_form(match, current, data=None):
    """The individual counts of the result form, or None when the event does not take them;
    unbound, it shows the counts of the current version (a correction starts from them)."""
    if not match.event.individual_counts:
        return None
    if data is not None:
        return PlayerCardsForm(data, match=match)
    counts = current.player_cards.all() if current is not None and not current.is_walkover else []
    return PlayerCardsForm(match=match, initial={f"player_{c.player_id}": c.cards for c in counts})


def player_cards_valid(players, bound):
    """Whether the individual counts (if any) are valid and add up to the valid sheet's counts."""
    return players is None or (players.is_valid() and players.check(bound.values()))


def handle_entry(request, match, *, who, saved_url, template, extra):
    """Shared by the court screen and the recorders' screen: show, validate, save."""
    event = match.event
    current = services.latest_sheet(match)
    names = team_names(match)
    rps_logged = disputes.rps_logged(match)
    # A game voided to be replayed (tournament.services.stages.replay_match) starts from an empty
    # sheet: its earlier versions belong to the game as first played, maybe by other teams.
    replay = current is not None and match.status == Match.Status.SCHEDULED
    initial = {**rps_prefill(current, rps_logged), **({} if replay else sheet_initial(current)), **fresh_keys(current)}
    form = ResultForm(initial=initial, card_total=event.card_total, **names)
    walkover_form = WalkoverForm(
        initial={**walkover_initial(None if replay else current), **fresh_keys(current)}, **names
    )
    players = player_cards_form(match, None if replay else current)
    if request.method == "POST":
        is_walkover = request.POST.get("action") == "walkover"
        if players is not None and not is_walkover:
            players = player_cards_form(match, current, request.POST)
        bound = (WalkoverForm if is_walkover else ResultForm)(
            request.POST, **names, **({} if is_walkover else {"card_total": event.card_total})
        )
        if is_walkover:
            walkover_form = bound
        else:
            form = bound
        if bound.is_valid() and (is_walkover or player_cards_valid(players, bound)):
            data = bound.cleaned_data
            keys = {"base_version": data.get("base_version") or 0, "submission_key": data.get("submission_key") or ""}
            try:
                if is_walkover:
                    sheet, created = services.submit_walkover(
                        match, rules.Side(data["absent_side"]), **keys, **who, **client_info(request)
                    )
                else:
                    counts = {"player_cards": players.counts()} if players is not None else {}
                    sheet, created = services.submit_sheet(
                        match, bound.values(), **keys, **who, **client_info(request), **counts
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
                        "resubmit": {**fresh_keys(conflict.current)},
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
        "replay": replay,
    }
    return render(request, template, context)


def dispute_page(request, match, *, who, extra, template):
    """The touch-rule helper: step one (a hand underneath), the table, then the named team."""
    names = team_names(match)
    asked = any(key in request.GET for key in ("state_a", "underneath"))
    source = request.POST if request.method == "POST" else (request.GET if asked else None)
    form = DisputeForm(source, **names)
    rps_count = disputes.rps_logged(match)
    ruling = None
    if source is not None and form.is_valid():
        ruling = form.ruling(rps_count)
        if request.method == "POST":
            data = form.cleaned_data
            try:
                logged = disputes.log_dispute(
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
            "matrix_json": matrix_json(),
            "submission_key": secrets.token_hex(16),
        },
    )


def matrix_json():
    states = [value for value, _label in Dispute.STATE_CHOICES]
    return json.dumps({a: {b: rules.touch_verdict(a, b).value for b in states} for a in states})


def touch_matrix_rows():
    """The 判定表 as rows of (state of A, [(state of B, verdict) …]) for templates, with the
    touch rule's three steps that come with it on every page (``steps``: the hand at the
    bottom first; the printed 判定表's same words, ``touch_matrix.touch_steps``)."""
    states = [value for value, _label in Dispute.STATE_CHOICES]
    labels = dict(Dispute.STATE_CHOICES)
    return {
        "steps": touch_steps(),
        "columns": [labels[s] for s in states],
        "rows": [(labels[a], [rules.touch_verdict(a, b).value for b in states]) for a in states],
    }
