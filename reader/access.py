"""Who may edit the decks and the recordings (issue 21, item 1; docs/architecture.md, URL areas).

Decision: the deck master is shared by the whole laptop (one ``hitachi`` edition for every
event, and the clubs' practice decks), so its editors are the people who run events here:
a superuser, a staff user, or an organiser of any event. Recorders and other logged-in users
get 403. The audio itself is public (``/reader/audio/…``: card audio holds no personal data).
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from reader.models import DeckEdition


def may_edit_decks(user) -> bool:
    """True for a superuser, a staff user or an organiser of any event."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.is_staff or user.organised_events.exists()


def require_deck_editor(request) -> None:
    """Raises ``PermissionDenied`` (403) unless the user may edit decks."""
    if not may_edit_decks(request.user):
        raise PermissionDenied


def edition_for_editor(request, slug) -> DeckEdition:
    """The edition of ``slug`` for a deck editor: 404 for an unknown slug, 403 for others."""
    require_deck_editor(request)
    return get_object_or_404(DeckEdition, slug=slug)
