"""The deck master's pages (issue 21, item 1): editions, cards, Excel import and template.

Login; deck editors only (``reader.access``: superuser, staff, or an organiser of any
event). Every page is no-store (``never_cache``): it is behind a login.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from common.downloads import XLSX, file_response
from common.errors import UserError
from reader import deck_import, voices
from reader.access import edition_for_editor, require_deck_editor
from reader.forms import CardForm, DeckImportForm, EditionForm
from reader.models import Card, DeckEdition
from reader.services import decks


@never_cache
@login_required
def deck_list(request):
    """The editions, how complete each is, and a form to create one (a club's practice deck)."""
    require_deck_editor(request)
    form = EditionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            edition = decks.create_edition(form.cleaned_data["slug"], form.cleaned_data["name"])
        except UserError as error:
            form.add_error("slug", error.message)
        else:
            edition.source = form.cleaned_data["source"]
            edition.save(update_fields=["source"])
            return redirect("reader:deck_detail", edition.slug)
    editions = [(edition, edition.cards.count()) for edition in DeckEdition.objects.all()]
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
def deck_detail(request, slug):
    """One edition: its cards with what reads each (recording, synthetic voice, nothing), the
    number still missing of the 56, the phrases and their recordings, the voice's status."""
    edition = edition_for_editor(request, slug)
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
        "card_form": CardForm(instance=Card(edition=edition)),
    }
    return render(request, "reader/deck_detail.html", context)


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
    edition = edition_for_editor(request, slug)
    return file_response(deck_import.template_workbook(edition.cards.all()), f"{edition.slug}-cards.xlsx", XLSX)
