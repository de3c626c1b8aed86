"""Creating a tournament with its courts."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.models import (
    Court,
    Event,
)


def create_event(slug, name, date, *, courts=0, **fields):
    """Create an event with courts named 1..N. Raises ``UserError`` on a used slug."""
    if Event.objects.filter(slug=slug).exists():
        raise UserError(_("A tournament with the short name “%(slug)s” already exists.") % {"slug": slug})
    with transaction.atomic():
        event = Event.objects.create(slug=slug, name=name, date=date, **fields)
        Court.objects.bulk_create(Court(event=event, name=str(i), order=i) for i in range(1, courts + 1))
    return event
