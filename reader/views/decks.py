"""The deck master's pages (issue 21, item 1): editions, cards, Excel import and template.

Login; the deck pages for superusers, staff and organisers of any event; editing a deck for
its owners only (``reader.access``: its maker, the organisers of its event, staff; the shipped
``hitachi`` deck by staff only, others copy it). Every page is no-store (``never_cache``).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.downloads import XLSX, file_response
from common.errors import UserError
from reader import deck_import, voices
from reader.access import edition_for_editor, edition_for_viewer, may_edit_edition, require_deck_editor
from reader.forms import CardForm, CopyForm, DeckImportForm, EditionForm
from reader.models import Card, DeckEdition
from reader.services import decks


@never_cache
@login_required
def deck_list(request):
    """The editions, how complete each is, and a form to create one (a club's practice deck)."""
    require_deck_editor(request)
    form = EditionForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            edition = decks.create_edition(
                data["slug"], data["name"], owner=request.user, event=data["event"], source=data["source"]
            )
        except UserError as error:
            form.add_error("slug", error.message)
        else:
            return redirect("reader:deck_detail", edition.slug)
    editions = [
        (edition, edition.cards.count(), may_edit_edition(request.user, edition))
        for edition in DeckEdition.objects.select_related("owner", "event")
    ]
    return render(request, "reader/deck_list.html", {"editions": editions, "form": form, "deck_size": voices.DECK_SIZE})


def _card_rows(edition, recorded, urls, can_speak):
    rows = []
    for card in edition.cards.all():
        key = voices.card_key(card.head_kana)
        if key in recorded:
            voice = _("recording")
        elif can_speak and voices.spoken_text(card):
            voice = _("synthetic voice")
        else:
            voice = ""
        recording = recorded.get(key)
        seconds = f"{recording.duration_ms / 1000:.1f}" if recording else ""
        rows.append(
            {"card": card, "key": key, "voice": voice, "recorded": recording, "seconds": seconds, "url": urls.get(key)}
        )
    return rows


@never_cache
@login_required
def deck_detail(request, slug, copy_form=None):
    """One edition: its cards with what reads each (recording, synthetic voice, nothing), the
    number still missing of the 56, the phrases and their recordings, the voice's status; the
    editing controls for its owners (``reader.access.may_edit_edition``), a copy form for all."""
    edition = edition_for_viewer(request, slug)
    status = voices.voice_status()
    recorded = {r.key: r for r in edition.recordings.only("key", "duration_ms", "extension")}
    urls = voices.audio_urls(edition)
    rows = _card_rows(edition, recorded, urls, status.installed)
    phrases = [
        {
            "key": f"phrase:{name}",
            "words": words,
            "recorded": recorded.get(f"phrase:{name}"),
            "url": urls[f"phrase:{name}"],
        }
        for name, (words, _kana) in voices.PHRASES.items()
    ]
    unreadable = voices.unreadable_cards(edition)
    context = {
        "edition": edition,
        "rows": rows,
        "phrases": phrases,
        "status": status,
        "deck_size": voices.DECK_SIZE,
        "missing": max(voices.DECK_SIZE - len(rows), 0),
        "unreadable": voices.unreadable_message(unreadable),
        "can_edit": may_edit_edition(request.user, edition),
        "copy_form": copy_form or CopyForm(initial={"name": edition.name, "slug": f"{edition.slug}-copy"[:40]}),
    }
    return render(request, "reader/deck_detail.html", context)


@never_cache
@login_required
@require_POST
def deck_copy(request, slug):
    """Copy a deck (its cards and recordings) into a new deck the user owns and edits: how a
    club changes the shipped deck, which only staff edit (``reader.access``)."""
    edition = edition_for_viewer(request, slug)
    form = CopyForm(request.POST)
    if form.is_valid():
        try:
            copy = decks.copy_edition(edition, form.cleaned_data["slug"], form.cleaned_data["name"], owner=request.user)
        except UserError as error:
            form.add_error("slug", error.message)
        else:
            messages.success(request, _("The deck was copied: this copy is yours to edit."))
            return redirect("reader:deck_detail", copy.slug)
    return deck_detail(request, slug, copy_form=form)


@never_cache
@login_required
def card_edit(request, slug, pk=None):
    """Add a card (``pk`` None) or edit one: head kana, text, kana reading, 役札, order; or
    delete it (POST ``delete``) with its recording."""
    edition = edition_for_editor(request, slug)
    card = get_object_or_404(Card, edition=edition, pk=pk) if pk else Card(edition=edition)
    if request.method == "POST" and "delete" in request.POST and card.pk:
        decks.delete_card(card)
        messages.success(request, _("Card %(kana)s was deleted.") % {"kana": card.head_kana})
        return redirect("reader:deck_detail", edition.slug)
    if card.pk is None and request.method != "POST":
        card.order = edition.cards.count() + 1
    old_head_kana = card.head_kana if card.pk else None
    form = CardForm(request.POST or None, instance=card)
    if request.method == "POST" and form.is_valid():
        decks.save_card(form.instance, old_head_kana)
        messages.success(request, _("Card %(kana)s was saved.") % {"kana": form.instance.head_kana})
        return redirect("reader:deck_detail", edition.slug)
    return render(request, "reader/card_form.html", {"edition": edition, "form": form, "card": card})


@never_cache
@login_required
def deck_import_view(request, slug):
    """Import cards from Excel (頭字, 読み札, 読み, 役札). Any problem: the list by row and
    column, nothing saved; else the cards are added or updated by head kana."""
    edition = edition_for_editor(request, slug)
    form = DeckImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        joker = edition.cards.filter(is_joker=True).values_list("head_kana", flat=True).first() or ""
        rows, problems = deck_import.read_deck(form.cleaned_data["file"], existing_joker=joker)
        if not problems:
            added, updated = decks.import_cards(edition, rows)
            messages.success(
                request,
                _("Imported: %(added)d cards added, %(updated)d updated.") % {"added": added, "updated": updated},
            )
            return redirect("reader:deck_detail", edition.slug)
    return render(request, "reader/deck_import.html", {"edition": edition, "form": form, "problems": problems})


@never_cache
@login_required
def deck_template(request, slug):
    """The deck's Excel template, holding the edition's cards (so it can be edited and
    imported back)."""
    edition = edition_for_viewer(request, slug)
    return file_response(deck_import.template_workbook(edition.cards.all()), f"{edition.slug}-cards.xlsx", XLSX)
