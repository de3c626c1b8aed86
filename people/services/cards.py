"""Recording a print of the team cards (issue 32 item 5; docs/people.md "Team cards"): what each
printed card said, so a reprint marks and can be limited to the cards that changed since."""

from django.db import transaction
from django.utils import timezone

from people.models import CardPrint


@transaction.atomic
def record_print(event, printed: dict[str, list], now=None):
    """Record that the cards of ``printed`` (team id as text -> its games as printed,
    ``people.cards.snapshot_of``) of ``event`` were printed at ``now``; the earlier print's
    cards not printed this time are kept (a reprint of the changed cards only). Returns the
    ``CardPrint``."""
    previous = CardPrint.objects.select_for_update().filter(event=event).first()
    snapshot = dict(previous.snapshot) if previous else {}
    snapshot.update(printed)
    return CardPrint.objects.create(event=event, printed_at=now or timezone.now(), snapshot=snapshot)
