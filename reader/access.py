"""Who may see and who may edit the decks and the recordings (issue 21, item 1; the outside
tester's findings, item 4; docs/architecture.md, URL areas).

Decision: the deck pages (the list, a deck's cards, its Excel download, making a new deck or
a copy) are for the people who run events here: a superuser, a staff user, or an organiser
of any event. Editing a deck (its cards, its import, its recordings) is for its owners only:
the user who made it and the organisers of the event it was made for, besides staff and
superusers. The shipped ``hitachi`` deck is edited by staff and superusers only; others copy
it into their own deck. Recorders and other logged-in users get 403. The audio and the
reading itself stay open (``/reader/audio/…``, the practice page, readings of any deck).
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from reader.models import SHIPPED_EDITION, DeckEdition


def may_edit_decks(user) -> bool:
    """True for a superuser, a staff user or an organiser of any event: may open the deck
    pages, make a deck, copy one."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.is_staff or user.organised_events.exists()


def may_edit_edition(user, edition: DeckEdition) -> bool:
    """True when ``user`` may change ``edition``'s cards and recordings: staff and
    superusers; for any deck but the shipped one, its maker and the organisers of its event."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or user.is_staff:
        return True
    if edition.slug == SHIPPED_EDITION:
        return False
    if edition.owner_id is not None and edition.owner_id == user.pk:
        return True
    return edition.event_id is not None and edition.event.organisers.filter(pk=user.pk).exists()


def require_deck_editor(request) -> None:
    """Raises ``PermissionDenied`` (403) unless the user may open the deck pages."""
    if not may_edit_decks(request.user):
        raise PermissionDenied


def edition_for_viewer(request, slug) -> DeckEdition:
    """The edition of ``slug`` for the deck pages: 403 for users who may not open them,
    then 404 for an unknown slug."""
    require_deck_editor(request)
    return get_object_or_404(DeckEdition.objects.select_related("owner", "event"), slug=slug)


def edition_for_editor(request, slug) -> DeckEdition:
    """The edition of ``slug`` for one who may edit it (``may_edit_edition``): 404 for an
    unknown slug, 403 for others."""
    edition = edition_for_viewer(request, slug)
    if not may_edit_edition(request.user, edition):
        raise PermissionDenied
    return edition
