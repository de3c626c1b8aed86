"""Writing a deck: editions and cards (issue 21, item 1). Each function is one transaction;
refusals are ``UserError`` raised before any write (docs/architecture.md, "Errors")."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from reader.deck_import import CardRow
from reader.models import Card, DeckEdition, Recording


def _refuse_taken(slug: str) -> None:
    if DeckEdition.objects.filter(slug=slug).exists():
        raise UserError(_("A deck named %(slug)s already exists.") % {"slug": slug})


def create_edition(slug: str, name: str, *, owner=None, event=None, source: str = "") -> DeckEdition:
    """A new, empty edition made by ``owner`` (a user) for ``event`` (optional): its owners
    edit it (``reader.access.may_edit_edition``). Raises ``UserError`` when ``slug`` is taken."""
    with transaction.atomic():
        _refuse_taken(slug)
        return DeckEdition.objects.create(slug=slug, name=name, owner=owner, event=event, source=source)


def copy_edition(edition: DeckEdition, slug: str, name: str, *, owner) -> DeckEdition:
    """A copy of ``edition`` (its cards, its source, its recordings) as a new edition ``slug``
    made by ``owner``, who edits the copy; the original is unchanged (how a club changes the
    shipped deck: the outside tester's findings, item 4). Raises ``UserError`` when ``slug``
    is taken. One transaction."""
    with transaction.atomic():
        _refuse_taken(slug)
        copy = DeckEdition.objects.create(slug=slug, name=name, owner=owner, source=edition.source)
        Card.objects.bulk_create(
            Card(
                edition=copy,
                head_kana=card.head_kana,
                text=card.text,
                furigana=card.furigana,
                is_joker=card.is_joker,
                order=card.order,
            )
            for card in edition.cards.all()
        )
        recordings = list(edition.recordings.all())
        for recording in recordings:
            recording.pk, recording.edition = None, copy
        Recording.objects.bulk_create(recordings)
    return copy


def import_cards(edition: DeckEdition, rows: list[CardRow]) -> tuple[int, int]:
    """Write the checked ``rows`` into ``edition``: a card of the same head kana is updated,
    a new head kana is added; cards not in the file stay as they are. The cards take the
    file's order; the cards not in the file follow them in their own order (never
    interleaved). Out: (added, updated). One transaction: all rows or none. Raises
    ``UserError`` when the deck would have two 役札 (``deck_import.read_deck`` says it first,
    by row and column)."""
    added = updated = 0
    with transaction.atomic():
        existing = {card.head_kana: card for card in edition.cards.select_for_update().order_by("order", "head_kana")}
        listed = {row.head_kana for row in rows}
        jokers = {row.head_kana for row in rows if row.is_joker}
        jokers |= {kana for kana, card in existing.items() if card.is_joker and kana not in listed}
        if len(jokers) > 1:
            raise UserError(_("Only one card is the special card: %(cards)s.") % {"cards": ", ".join(sorted(jokers))})
        rest = [card for kana, card in existing.items() if kana not in listed]
        for position, card in enumerate(rest, start=len(rows) + 1):
            if card.order != position:
                card.order = position
                card.save(update_fields=["order"])
        for position, row in enumerate(rows, start=1):
            card = existing.get(row.head_kana) or Card(edition=edition, head_kana=row.head_kana)
            is_new = card.pk is None
            card.text, card.furigana, card.is_joker, card.order = row.text, row.furigana, row.is_joker, position
            card.save()
            added, updated = (added + 1, updated) if is_new else (added, updated + 1)
    return added, updated


def save_card(card: Card, old_head_kana: str | None) -> Card:
    """Save an edited or new ``card``; when its head kana changed, its recording follows it
    (the audio key is ``card:<head kana>``)."""
    with transaction.atomic():
        card.save()
        if old_head_kana and old_head_kana != card.head_kana:
            card.edition.recordings.filter(key=f"card:{old_head_kana}").update(key=f"card:{card.head_kana}")
    return card


def delete_card(card: Card) -> None:
    """Remove ``card`` and its recording."""
    with transaction.atomic():
        card.edition.recordings.filter(key=f"card:{card.head_kana}").delete()
        card.delete()
