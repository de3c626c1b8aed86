"""Creating a tournament with its courts."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.engine import limits
from tournament.models import (
    Court,
    Event,
)


def create_event(slug, name, date, *, courts=0, **fields):
    """Create an event with courts named 1..N. Raises ``UserError`` on a used slug, and on a
    date or number outside ``tournament.engine.limits`` naming the field (issue 18, item 5: the
    form's limits hold for ``manage.py create_event`` too)."""
    if Event.objects.filter(slug=slug).exists():
        raise UserError(_("A tournament with the short name “%(slug)s” already exists.") % {"slug": slug})
    problems = limits.out_of_limits(date, fields, datetime.date.today())
    if problems:
        raise UserError(
            " ".join(
                _("%(field)s: from %(low)s to %(high)s.")
                % {"field": Event._meta.get_field(name).verbose_name, "low": low, "high": high}
                for name, low, high in problems
            )
        )
    with transaction.atomic():
        event = Event.objects.create(slug=slug, name=name, date=date, **fields)
        Court.objects.bulk_create(Court(event=event, name=str(i), order=i) for i in range(1, courts + 1))
    return event
