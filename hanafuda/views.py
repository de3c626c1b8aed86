"""The hanafuda scorekeeper's screens. Thin: load the session (404 unless it is the user's),
call a service, respond (POST/redirect/GET). The work is in ``hanafuda.services``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common import once
from common.downloads import PDF, XLSX, file_response
from hanafuda import exports, labels, pdf, printing, services
from hanafuda.engine.deck import CARD_BY_ID
from hanafuda.engine.dekiyaku import DEKIYAKU
from hanafuda.engine.formation import composition
from hanafuda.engine.options import DEFAULT_OPTIONS
from hanafuda.forms import RoundForm, SessionForm, rules_summary

SIDE_CSS = ("side-0", "side-1", "side-2")


def _session_for(request, pk):
    """The session, for its owner (or a superuser); 404 for anyone else (it is private)."""
    return get_object_or_404(services.sessions_for(request.user), pk=pk)


def _state(session):
    try:
        return services.session_state(session)
    except services.SessionDataError as exc:  # stored data the rules refuse (e.g. edited in the admin)
        raise Http404(str(exc)) from exc


@login_required
def session_list(request):
    sessions = services.sessions_for(request.user).prefetch_related("round_set")
    return render(request, "hanafuda/session_list.html", {"sessions": sessions})


@login_required
def session_create(request):
    if request.method == "POST" and (done := once.already_created(request)):
        messages.info(request, _("This form was sent already: here is the session it created."))
        return redirect(done)
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        sides, members = form.sides_and_members()
        session = services.create_session(
            request.user,
            form.cleaned_data["title"],
            sides,
            form.cleaned_data["options"],
            first_dealer=form.cleaned_data["first_dealer"],
            team_members=members,
            first_partner=form.cleaned_data.get("first_partner") or 0,
            first_draws=form.cleaned_data.get("draws") or (),
        )
        once.remember(request, reverse("hanafuda:session_detail", kwargs={"pk": session.pk}))
        if form.cleaned_data.get("drawn_by"):
            messages.info(
                request, _("%(name)s drew the earliest card and deals first.") % {"name": form.cleaned_data["drawn_by"]}
            )
        messages.success(request, _("Session created. Enter round 1 when it is played."))
        return redirect("hanafuda:session_detail", pk=session.pk)
    return render(
        request,
        "hanafuda/session_form.html",
        {"form": form, "creation_key": once.form_key(request), "colon": labels.colon()},
    )


def _side_rows(state):
    """Per played round: the rows the session page and the papers show."""
    session = state.session
    rows = []
    for i, r in enumerate(state.rounds):
        res = r.result
        rows.append(
            {
                "number": r.number,
                "dealer": state.dealer_names[i],
                "insta_win": res.insta_win is not None,
                **_scored(session, res),
                "payments": [
                    {
                        "payer": services.unit_label(session, p.payer),
                        "payee": services.unit_label(session, p.payee),
                        "amount": p.amount,
                        "capped": p.amount < p.uncapped,
                    }
                    for p in res.payments
                ],
                "net": [res.net[u] for u in state.units],
                "running": [r.running[u] for u in state.units],
                "next_dealer": state.dealer_names[i + 1],
            }
        )
    return rows


def _scored(session, result):
    """What a scored round shows per side (name, dekiyaku, points, winner, what the storm did)
    and the storm cards the Sun rule cancelled: for the round pages and the live preview."""
    return {
        "sides": [
            {
                "name": session.sides[s],
                "css": SIDE_CSS[s],
                "yaku": [labels.scored_label(y) for y in result.dekiyaku[s]],
                "score": result.scores[s],
                "winner": s in result.winners,
                "storm": _storm_lines(result, s),
            }
            for s in range(len(session.sides))
        ],
        "sun": labels.join(labels.card_name(c) for c in sorted(result.storm_cancelled)),
    }


def _storm_lines(result, side):
    """What the Storm rule did to a side in a round (musashino-bana.md l.24–29): the cards it could not use
    (Storm A) and the dekiyaku it lost, as short translated lines."""
    effect = result.storm.get(side)
    if effect is None:
        return []
    lines = []
    if effect.blocked_cards:
        lines.append(
            _("Storm: could not use %(cards)s")
            % {"cards": labels.join(labels.card_name(c) for c in effect.blocked_cards)}
        )
    if effect.lost:
        lines.append(_("Storm: lost %(yaku)s") % {"yaku": labels.join(labels.yaku_name(c) for c in effect.lost)})
    return lines


def _context(state, **extra):
    session = state.session
    units = [services.unit_label(session, u) for u in state.units]
    totals = [state.settlement.totals.get(u, 0) for u in state.units]
    transfers = [
        {
            "payer": services.unit_label(session, t.payer),
            "payee": services.unit_label(session, t.payee),
            "amount": t.amount,
        }
        for t in state.settlement.transfers
    ]
    return {
        "session": session,
        "state": state,
        "rows": _side_rows(state),
        "units": units,
        "totals": list(zip(units, totals, strict=True)),
        "transfers": transfers,
        "next_dealer": state.next_dealer_name,
        "rules": rules_summary(state.options),
        "sides": [{"name": n, "css": SIDE_CSS[i]} for i, n in enumerate(session.sides)],
        "colon": labels.colon(),
        **extra,
    }


@login_required
def session_detail(request, pk):
    session = _session_for(request, pk)
    state = _state(session)
    draws = [[labels.labelled(who, _drawn_card(card)) for who, card in draw] for draw in session.first_draws]
    return render(
        request,
        "hanafuda/session_detail.html",
        _context(state, draws=draws, first_dealer_name=state.dealer_names[0]),
    )


def _drawn_card(card_id):
    """A card drawn for the first dealer as the form showed it: 「1月 松 ・ 松のカス」."""
    return f"{labels.month_name(card_id // 10)} ・ {labels.card_name(card_id)}"


def _grid_data(session, options):
    """What the grid script needs: side names and each dekiyaku's slots under the options."""
    yaku = [
        {
            "code": d.code,
            "name": labels.yaku_name(d),
            "value": d.value,
            "insta": d.insta_win,
            "slots": [sorted(s) for s in composition(d.code, options)],
            "suppresses": list(d.suppresses),
        }
        for d in DEKIYAKU
    ]
    return {
        "sides": session.sides,
        "yaku": yaku,
        "insta_value": options.insta_win_value,
        "needs_order": options.needs_capture_order,
    }


def _round_page(request, session, state, form, number, *, template, **extra):
    show_english = not (translation.get_language() or "ja").startswith("ja")
    return render(
        request,
        template,
        _context(
            state,
            form=form,
            number=number,
            show_english=show_english,
            grid_data=_grid_data(session, state.options),
            **extra,
        ),
    )


@login_required
def round_entry(request, pk):
    session = _session_for(request, pk)
    state = _state(session)
    if request.method == "POST":
        form = RoundForm(request.POST, sides=session.sides, needs_order=state.options.needs_capture_order)
        if form.is_valid():
            number = form.cleaned_data["number"]
            try:
                services.record_round(session, number, form.captures(), user=request.user, tapped=form.tapped())
            except services.RoundAlreadySaved as exc:
                messages.warning(request, str(exc))
                return redirect("hanafuda:session_detail", pk=session.pk)
            except services.RoundError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Round %(n)d saved.") % {"n": number})
                return redirect("hanafuda:round_detail", pk=session.pk, number=number)
        number = state.next_number
    else:
        if state.complete:
            messages.info(request, _("All rounds are played."))
            return redirect("hanafuda:settlement", pk=session.pk)
        number = state.next_number
        form = RoundForm(initial={"number": number}, sides=session.sides, needs_order=state.options.needs_capture_order)
    return _round_page(
        request,
        session,
        state,
        form,
        number,
        template="hanafuda/round_entry.html",
        dealer=state.next_dealer_name,
    )


@login_required
def round_detail(request, pk, number):
    session = _session_for(request, pk)
    state = _state(session)
    played = next((r for r in state.rounds if r.number == number), None)
    if played is None:
        raise Http404(_("Round %(n)d is not entered.") % {"n": number})
    if request.method == "POST":
        form = RoundForm(request.POST, sides=session.sides, needs_order=state.options.needs_capture_order)
        if form.is_valid():
            try:
                row = services.correct_round(
                    session,
                    number,
                    form.captures(),
                    user=request.user,
                    base=form.cleaned_data["base"],
                    tapped=form.tapped(),
                )
            except services.RoundError as exc:
                form.add_error(None, str(exc))
            else:
                if services.captures_token(row.captures, row.capture_order) == form.cleaned_data["base"]:
                    messages.info(request, _("Round %(n)d: nothing was changed.") % {"n": number})
                else:
                    messages.success(
                        request, _("Round %(n)d corrected; the later rounds are scored again.") % {"n": number}
                    )
                return redirect("hanafuda:round_detail", pk=session.pk, number=number)
    else:
        stored = played.round
        form = RoundForm(
            initial=RoundForm.initial_for(
                stored.captures,
                number,
                services.captures_token(stored.captures, stored.capture_order),
                services.tapped_order(stored.capture_order),
            ),
            sides=session.sides,
            needs_order=state.options.needs_capture_order,
        )
    row = next(r for r in _side_rows(state) if r["number"] == number)
    revisions = session.revisions.filter(number=number).select_related("changed_by")
    return _round_page(
        request,
        session,
        state,
        form,
        number,
        template="hanafuda/round_detail.html",
        played=played,
        row=row,
        dealer=state.dealer_names[state.rounds.index(played)],
        revisions=revisions,
        captured=_captured(session, played.round.captures),
        order=_order_rows(session, played.round.capture_order),
    )


def _order_rows(session, order):
    """The stored order of captures as rows: (capture number, side name, side css, card chips)."""
    return [
        {
            "k": k,
            "name": session.sides[seat],
            "css": SIDE_CSS[seat],
            "cards": [(labels.card_name(c), labels.type_mark(c), CARD_BY_ID[c].type.value) for c in cards],
        }
        for k, (seat, cards) in enumerate(order or (), start=1)
    ]


def _captured(session, captures):
    return [
        {
            "name": session.sides[seat],
            "css": SIDE_CSS[seat],
            "cards": [(labels.card_name(c), labels.type_mark(c), CARD_BY_ID[c].type.value) for c in pile],
        }
        for seat, pile in enumerate(captures)
    ]


def round_preview(request, pk):
    """POST of the round form as it stands → JSON: each side's dekiyaku and score under every
    house rule (Storm and Sun included), the insta-win, what the storm did; or the problem.
    Nothing is saved (``services.preview_round``). Logged out: 403, not a redirect to the
    login page (the grid script asks in the background; the form itself keeps the taps)."""
    if not request.user.is_authenticated:
        return JsonResponse({"problem": _("You are logged out.")}, status=403)
    session = _session_for(request, pk)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    options = session.rules()
    form = RoundForm(request.POST, sides=session.sides, needs_order=options.needs_capture_order)
    if not form.is_valid():
        return JsonResponse({"problem": _("The form is incomplete.")}, status=400)
    try:
        result = services.preview_round(session, form.cleaned_data["number"], form.captures(), form.tapped())
    except services.RoundError as exc:  # the cards as they stand, or stored rounds the rules refuse
        return JsonResponse({"problem": str(exc)})
    insta = result.insta_win
    return JsonResponse(
        {
            **_scored(session, result),
            "insta": None
            if insta is None
            else {"side": session.sides[insta.side], "yaku": [labels.yaku_name(y.dekiyaku) for y in insta.dekiyaku]},
        }
    )


@login_required
def round_undo(request, pk):
    session = _session_for(request, pk)
    if request.method == "POST":
        try:
            number = services.undo_last_round(session, user=request.user)
        except services.RoundError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request, _("Round %(n)d was taken back; its cards are kept in the history.") % {"n": number}
            )
    return redirect("hanafuda:session_detail", pk=session.pk)


@login_required
def history(request, pk):
    session = _session_for(request, pk)
    revisions = session.revisions.select_related("changed_by")
    entries = []
    for rev in revisions:
        before = _captured(session, rev.old_captures)
        after = _captured(session, rev.new_captures) if rev.new_captures is not None else None
        changes = []
        if after is not None:
            for seat, name in enumerate(session.sides):
                gained = sorted(set(rev.new_captures[seat]) - set(rev.old_captures[seat]))
                lost = sorted(set(rev.old_captures[seat]) - set(rev.new_captures[seat]))
                if gained or lost:
                    changes.append(
                        {
                            "name": name,
                            "css": SIDE_CSS[seat],
                            "gained": labels.cards_summary(gained),
                            "lost": labels.cards_summary(lost),
                        }
                    )
        order_changed = None  # the first capture (1-based) whose place changed
        if after is not None and rev.old_order != rev.new_order:
            pairs = zip(rev.old_order, rev.new_order, strict=False)
            order_changed = next(
                (k for k, (a, b) in enumerate(pairs, start=1) if a != b),
                min(len(rev.old_order), len(rev.new_order)) + 1,
            )
        entries.append({"rev": rev, "before": before, "changes": changes, "order_changed": order_changed})
    rounds = session.round_set.select_related("entered_by").order_by("number")
    return render(request, "hanafuda/history.html", {"session": session, "entries": entries, "rounds": rounds})


@login_required
def settlement(request, pk):
    session = _session_for(request, pk)
    state = _state(session)
    return render(request, "hanafuda/settlement.html", _context(state))


def _filename(session, suffix):
    return f"hanafuda-{session.pk}-{slugify(session.title) or 'session'}{suffix}"


@login_required
def score_sheet_pdf(request, pk):
    session = _session_for(request, pk)
    state = _state(session)
    with translation.override("ja"):  # the paper's words are Japanese
        rules = rules_summary(state.options)
    for warning in printing.paper_warnings(printing.paper_texts(session, state)):
        messages.warning(request, warning)
    data = pdf.score_sheet(state, rules)
    return file_response(data, _filename(session, "-score-sheet.pdf"), PDF)


@login_required
def reference_card_pdf(request, pk=None):
    if pk is None:
        options, title = DEFAULT_OPTIONS, ""
        lines = []
    else:
        session = _session_for(request, pk)
        options, title = _state(session).options, session.title
        with translation.override("ja"):
            lines = rules_summary(options)
    for warning in printing.paper_warnings(printing.title_text(title)):
        messages.warning(request, warning)
    data = pdf.reference_card(options, title=title, rules=lines)
    return file_response(data, "hanafuda-reference-card.pdf", PDF)


@login_required
def session_xlsx(request, pk):
    session = _session_for(request, pk)
    state = _state(session)
    data = exports.session_workbook(state, _side_rows(state))
    return file_response(data, _filename(session, ".xlsx"), XLSX)
