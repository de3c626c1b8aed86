"""The Sanjô Dôsai screens. Thin: load the object for its owner (404 for anyone else,
superusers see all), call a service, redirect after every POST."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common import once
from common.downloads import PDF, XLSX, file_response
from dosai import editions, paper, reader, services
from dosai.engine.options import EndFreeTurn, Options, options_as_dict
from dosai.forms import (
    ENUM_CHOICES,
    OPTION_LABELS,
    YES_NO,
    CallForm,
    ConfirmForm,
    DeleteSessionForm,
    EditionForm,
    EditionNameForm,
    LayoutForm,
    NewHandForm,
    SessionForm,
    SessionTitleForm,
    ValuesForm,
)
from dosai.models import ClubEdition, Hand, Session


def _mine(request, model):
    """The user's own objects of ``model`` (all of them for a superuser)."""
    if request.user.is_superuser:
        return model.objects.all()
    return model.objects.filter(owner=request.user)


def _edition(request, pk):
    return get_object_or_404(_mine(request, ClubEdition), pk=pk)


def _session(request, pk):
    return get_object_or_404(_mine(request, Session).select_related("edition"), pk=pk)


def _hand(request, pk, number):
    session = _session(request, pk)
    return get_object_or_404(Hand.objects.select_related("session", "session__edition"), session=session, number=number)


@login_required
def home(request):
    club_editions = _mine(request, ClubEdition)
    return render(
        request,
        "dosai/home.html",
        {
            "editions": [(e, editions.edition_status(e)) for e in club_editions],
            "sessions": _mine(request, Session).select_related("edition"),
        },
    )


@login_required
def edition_new(request):
    if request.method == "POST" and (done := once.already_created(request)):
        messages.info(request, _("This form was sent already: here is the edition it created."))
        return redirect(done)
    form = EditionForm(request.POST or None, initial={"name": _("Matsui Tengudô"), "base": ClubEdition.BASE_MATSUI})
    if request.method == "POST" and form.is_valid():
        edition = editions.create_edition(request.user, form.cleaned_data["name"], form.cleaned_data["base"])
        once.remember(request, reverse("dosai:edition", kwargs={"pk": edition.pk}))
        messages.success(request, _("Edition created. Enter the values printed on your efuda."))
        return redirect("dosai:edition", pk=edition.pk)
    return render(request, "dosai/edition_new.html", {"form": form, "creation_key": once.form_key(request)})


@login_required
def edition(request, pk):
    club = _edition(request, pk)
    base = editions.base_edition(club)
    status = editions.edition_status(club)
    initial = {"source": club.source, **{f"n_{k}": v for k, v in club.values.items()}}
    # Another maker's set: any value its efuda print (its classes are its own, issue 33).
    classes = None if editions.own_classes(club) else base.class_counts
    form = ValuesForm(request.POST or None, initial=initial, edition=base, classes=classes)
    if request.method == "POST":
        if form.is_valid():
            try:
                status = editions.save_values(club, form.values(), form.cleaned_data["source"])
            except services.DosaiError as exc:
                form.add_error(None, str(exc))
            else:
                if status.ready:
                    messages.success(request, _("Saved. The edition is ready: a hand can start."))
                else:
                    messages.success(request, _("Saved. The edition is not ready yet (see the checks below)."))
                return redirect("dosai:edition", pk=club.pk)
        messages.error(request, _("Nothing was saved: correct the fields marked below."))
    inputs = form.bound_inputs()
    rows = []
    for s in status.edition.subjects:
        known = base.subject(s.number)
        rows.append(
            {
                "subject": known,
                "known": known.points is not None,
                "input": inputs.get(s.number),
                "value": s.points,
                "tag": paper.source_tag(known),
            }
        )
    return render(
        request,
        "dosai/edition.html",
        {
            "club": club,
            "form": form,
            "status": status,
            "rows": rows,
            "sources_note": paper.sources_note(),
            "full_deck_note": editions.full_deck_note(),
            "rename_form": EditionNameForm(initial={"name": club.name}, auto_id="rename_%s"),
            "class_counts": list(base.class_counts.items()),
            "known_counts": {
                p: sum(1 for s in base.subjects if s.in_play and s.points == p) for p in base.class_counts
            },
        },
    )


def _rename(request, obj, form, rename, field, *, heading, done, back):
    """The rename form of an edition or a session: saved and back to its page, or the small
    rename page with the error on its field (also what a GET shows)."""
    if request.method == "POST":
        if form.is_valid():
            try:
                rename(obj, form.cleaned_data[field])
            except services.DosaiError as exc:
                form.add_error(field, str(exc))
            else:
                messages.success(request, done % {"name": str(obj)})
                return redirect(back)
        messages.error(request, _("Nothing was saved: correct the fields marked below."))
    return render(
        request,
        "dosai/rename.html",
        {"form": form, "field": form[field], "heading": heading, "back": back, "back_label": str(obj)},
    )


@login_required
def edition_rename(request, pk):
    club = _edition(request, pk)
    form = EditionNameForm(request.POST if request.method == "POST" else None, initial={"name": club.name})
    return _rename(
        request,
        club,
        form,
        editions.rename_edition,
        "name",
        heading=_("Rename the edition"),
        done=_("The edition is now called “%(name)s”."),
        back=reverse("dosai:edition", kwargs={"pk": club.pk}),
    )


@login_required
def edition_delete(request, pk):
    """GET: what deleting the edition loses, or why it cannot be deleted; POST: delete."""
    club = _edition(request, pk)
    if request.method == "POST":
        if not ConfirmForm(request.POST).is_valid():
            messages.error(request, _("Nothing was deleted: press the button on this page to confirm."))
            return redirect("dosai:edition_delete", pk=club.pk)
        try:
            name = editions.delete_edition(club)
        except services.DosaiError as exc:
            messages.error(request, str(exc))
            return redirect("dosai:edition_delete", pk=club.pk)
        messages.success(request, _("The edition “%(name)s” was deleted.") % {"name": name})
        return redirect("dosai:home")
    return render(
        request,
        "dosai/edition_delete.html",
        {"club": club, "users": editions.edition_users(club), "entered": len(club.values or {})},
    )


@login_required
def points_table(request, pk):
    club = _edition(request, pk)
    data = paper.points_table_pdf(editions.edition_status(club))
    return file_response(data, "points-table.pdf", PDF, inline=True)


@login_required
def session_new(request):
    club_editions = _mine(request, ClubEdition)
    if not club_editions.exists():
        return render(request, "dosai/session_new.html", {"form": None})
    if request.method == "POST" and (done := once.already_created(request)):
        messages.info(request, _("This form was sent already: here is the session it created."))
        return redirect(done)
    form = SessionForm(request.POST or None, editions=club_editions, initial={"edition": club_editions.first()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.create_session(
                request.user, data["title"], data["edition"], data["players"], data["options"]
            )
        except services.DosaiError as exc:
            form.add_error(None, str(exc))
        else:
            once.remember(request, reverse("dosai:session", kwargs={"pk": session.pk}))
            messages.success(request, _("Session created."))
            return redirect("dosai:session", pk=session.pk)
    return render(request, "dosai/session_new.html", {"form": form, "creation_key": once.form_key(request)})


@login_required
def session(request, pk):
    session = _session(request, pk)
    totals = services.session_totals(session)
    status = editions.edition_status(session.edition)
    last = totals.hands[-1] if totals.hands else None
    return render(
        request,
        "dosai/session.html",
        {
            "session": session,
            "totals": totals,
            "status": status,
            "last": last,
            "options": _option_lines(session),
            "may_deal": status.ready and (last is None or last.over),
            "form": NewHandForm(),
            "rename_form": SessionTitleForm(initial={"title": session.title}, auto_id="rename_%s"),
        },
    )


@login_required
def session_rename(request, pk):
    session = _session(request, pk)
    form = SessionTitleForm(request.POST if request.method == "POST" else None, initial={"title": session.title})
    return _rename(
        request,
        session,
        form,
        services.rename_session,
        "title",
        heading=_("Rename the session"),
        done=_("The session is now called “%(name)s”."),
        back=reverse("dosai:session", kwargs={"pk": session.pk}),
    )


@login_required
def session_delete(request, pk):
    """GET: what deleting the session loses (its hands and calls); POST: delete, unless the
    session changed since the page was shown."""
    session = _session(request, pk)
    if request.method == "POST":
        form = DeleteSessionForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Nothing was deleted: press the button on this page to confirm."))
            return redirect("dosai:session_delete", pk=session.pk)
        try:
            title = services.delete_session(session, hands=form.cleaned_data["hands"], calls=form.cleaned_data["calls"])
        except services.DosaiError as exc:
            messages.warning(request, str(exc))
            return redirect("dosai:session_delete", pk=session.pk)
        messages.success(request, _("The session “%(title)s” was deleted.") % {"title": title})
        return redirect("dosai:home")
    return render(
        request, "dosai/session_delete.html", {"session": session, "contents": services.session_contents(session)}
    )


def _option_lines(session):
    """(label, value, is default) for each option of the session, for the session page."""
    defaults = options_as_dict(Options())
    lines = []
    for name, value in services.session_options(session).__dict__.items():
        value = getattr(value, "value", value)
        if name in ENUM_CHOICES:
            shown = dict(ENUM_CHOICES[name]).get(value, value)
        elif isinstance(value, bool):
            shown = dict(YES_NO)["1" if value else "0"]
        else:
            shown = value
        lines.append((OPTION_LABELS[name], shown, value == defaults[name]))
    return lines


@login_required
def hand_new(request, pk):
    session = _session(request, pk)
    status = editions.edition_status(session.edition)
    if not status.ready:
        messages.error(
            request, _("A hand cannot start until every efuda in play has its value. Complete the edition first.")
        )
        return redirect("dosai:session", pk=session.pk)
    dealing = request.POST.get("dealing") or request.GET.get("dealing") or Hand.DEAL_APP
    if dealing == Hand.DEAL_ENTERED:
        form = LayoutForm(request.POST if "layout" in request.POST else None, players=session.players)
        if request.method == "POST" and "layout" in request.POST:
            if form.is_valid():
                return _start(
                    request,
                    session,
                    dealing=Hand.DEAL_ENTERED,
                    reader=form.cleaned_data["reader"],
                    houses=form.cleaned_data["houses"],
                    holders=form.cleaned_data["holders"],
                )
            messages.error(request, _("Nothing was saved: correct the houses marked below."))
        return render(request, "dosai/layout.html", {"session": session, "form": form})
    if request.method != "POST":
        return redirect("dosai:session", pk=session.pk)
    form = NewHandForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how the houses are dealt and who reads."))
        return redirect("dosai:session", pk=session.pk)
    return _start(request, session, dealing=Hand.DEAL_APP, reader=form.cleaned_data["reader"])


def _start(request, session, **kwargs):
    try:
        hand = services.start_hand(session, **kwargs)
    except services.DosaiError as exc:
        messages.error(request, str(exc))
        return redirect("dosai:session", pk=session.pk)
    messages.success(request, _("Hand %(number)s is dealt.") % {"number": hand.number})
    return redirect("dosai:hand", pk=session.pk, number=hand.number)


@login_required
def hand(request, pk, number):
    hand = _hand(request, pk, number)
    r = services.replay(hand)
    later = hand.session.hands.filter(number__gt=hand.number).exists()
    context = reader.reader_context(r)
    context.update(
        {"session": hand.session, "hand": hand, "r": r, "later": later, "live": services.hand_state(hand, later=later)}
    )
    if r.over:
        context["totals"] = services.session_totals(hand.session)
    return render(request, "dosai/hand.html", context)


@login_required
@require_GET
@never_cache
def hand_state(request, pk, number):
    """The hand's state for a second tablet showing the same reader screen (``dosai.js``
    polls it): one query, for the owner's hand with whether a later hand has started."""
    later = Hand.objects.filter(session=OuterRef("session"), number__gt=OuterRef("number"))
    hands = (
        Hand.objects.filter(session__in=_mine(request, Session)).select_related("session").annotate(later=Exists(later))
    )
    hand = get_object_or_404(hands, session_id=pk, number=number)
    return JsonResponse(services.hand_state(hand, later=hand.later))


@login_required
@require_POST
def hand_call(request, pk, number):
    hand = _hand(request, pk, number)
    form = CallForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Tap a number from 1 to 62."))
    else:
        try:
            r = services.record_call(hand, form.cleaned_data["number"], form.cleaned_data["expected"])
        except services.StaleForm as exc:
            messages.warning(request, str(exc))
        except services.DosaiError as exc:
            messages.error(request, str(exc))
        else:
            if r.over and r.options.end_free_turn is EndFreeTurn.CHOICE:
                messages.success(
                    request,
                    _(
                        "The hand is over: the holders of nos. 46 and 50 may turn them free below; the nobori pool is settled as shown."
                    ),
                )
            elif r.over and r.settlement.turned_free:
                freed = "、".join(str(n) for n in r.settlement.turned_free)
                messages.success(
                    request,
                    _("The hand is over: no(s). %(numbers)s turned free and the nobori pool is settled.")
                    % {"numbers": freed},
                )
            elif r.over:
                messages.success(
                    request, _("The hand is over and the nobori pool is settled (nos. 46 and 50 were already called).")
                )
    return redirect(reverse("dosai:hand", kwargs={"pk": pk, "number": number}) + "#now")


@login_required
@require_POST
def hand_undo(request, pk, number):
    hand = _hand(request, pk, number)
    form = CallForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was undone."))
    else:
        try:
            taken = services.undo_last_call(hand, form.cleaned_data["expected"])
        except services.DosaiError as exc:
            messages.warning(request, str(exc))
        else:
            messages.success(request, _("The call of no. %(number)s was taken back.") % {"number": taken})
    return redirect("dosai:hand", pk=pk, number=number)


@login_required
@require_POST
def hand_turn_free(request, pk, number):
    hand = _hand(request, pk, number)
    chosen = [int(n) for n in request.POST.getlist("turn") if n in ("46", "50")]
    try:
        services.set_turn_free(hand, chosen)
    except services.DosaiError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Saved."))
    return redirect("dosai:hand", pk=pk, number=number)


@login_required
def hand_xlsx(request, pk, number):
    hand = _hand(request, pk, number)
    data = paper.ledger_workbook(hand.session, [services.replay(hand)], totals=None)
    return file_response(data, f"hand-{hand.number}.xlsx", XLSX)


@login_required
def session_xlsx(request, pk):
    session = _session(request, pk)
    totals = services.session_totals(session)
    return file_response(paper.ledger_workbook(session, totals.hands, totals=totals), "session.xlsx", XLSX)
