"""Creating a tournament with its courts; who sees it (draft, public, archived); deleting a
rehearsal event with everything that belongs to it (issue 27)."""

from __future__ import annotations

import datetime
import hashlib
import logging
from dataclasses import dataclass, field

from django.db import router, transaction
from django.db.models import QuerySet
from django.db.models.deletion import Collector
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.models import RecordingSheet
from judging.signoff import photo_path
from ops import backups
from tournament.engine import limits
from tournament.models import (
    Court,
    Event,
)
from tournament.services import versions

logger = logging.getLogger("tournament.events")


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


def set_visibility(event, visibility):
    """Make ``event`` a draft, public or archived (``Event.Visibility`` value, text) in one
    transaction, its version moved on (an edit form opened before sees the change).

    Raises ``UserError`` naming the field for a value that is not one of the three; nothing is
    written then. Returns the saved event. README, "Public pages of an event".
    """
    if visibility not in Event.Visibility.values:
        raise UserError(
            _("%(field)s: choose draft, public or archived.")
            % {"field": Event._meta.get_field("visibility").verbose_name}
        )
    with transaction.atomic():
        versions.claim(event, None)
        event.visibility = visibility
        event.save(update_fields=["visibility", "version"])
    return event


@dataclass
class Deletion:
    """What deleting an event takes with it: ``rows`` ``[(label, count)]`` (the model's plural
    name and how many rows, most first; the event itself not counted), ``photos`` (files of
    paper sheets' photos), ``kept`` ``[(label, count)]`` (rows that stay, their link to the
    event emptied: decks made for it), and ``digest`` (changes when any count does)."""

    rows: list = field(default_factory=list)
    photos: int = 0
    kept: list = field(default_factory=list)
    digest: str = ""
    backup: object = None  # the backup's path once deleted (None: none taken)


def _collector(event):
    using = router.db_for_write(Event, instance=event)
    collector = Collector(using=using, origin=event)
    collector.collect([event])
    return collector


def deletion_preview(event) -> Deletion:
    """What ``delete_event`` would delete with ``event``: every row of every model that belongs to
    it (Django's own cascade, so a new model is counted without anyone adding it here), the
    photo files, and what is kept. Reads only."""
    collector = _collector(event)
    counts = {}
    for model, instances in collector.data.items():
        if model is not Event and not model._meta.auto_created:
            counts[model] = counts.get(model, 0) + len(instances)
    for queryset in collector.fast_deletes:
        model = queryset.model
        if model is not Event and not model._meta.auto_created:
            counts[model] = counts.get(model, 0) + queryset.count()
    kept = {}
    for (fld, _value), batches in collector.field_updates.items():
        if fld.remote_field and fld.remote_field.model is Event:
            count = sum(b.count() if isinstance(b, QuerySet) else len(b) for b in batches)
            kept[fld.model] = kept.get(fld.model, 0) + count
    rows = sorted(
        ((str(m._meta.verbose_name_plural), n) for m, n in counts.items() if n),
        key=lambda row: (-row[1], row[0]),
    )
    photos = RecordingSheet.objects.filter(match__event=event).exclude(photo="").count()
    kept_rows = sorted((str(m._meta.verbose_name_plural), n) for m, n in kept.items() if n)
    digest = hashlib.sha256(repr((event.pk, event.version, rows, photos, kept_rows)).encode()).hexdigest()[:16]
    return Deletion(rows=rows, photos=photos, kept=kept_rows, digest=digest)


def delete_event(event, *, typed_slug, digest):
    """Delete ``event`` and everything that belongs to it, in one transaction, after a backup of
    the whole database (``ops.backups.auto_backup``, when automatic backups are on).

    In: the event, the short name the organiser typed to confirm (``typed_slug``) and the
    ``digest`` of the confirmation page (``deletion_preview``). Raises ``UserError`` before
    anything is written when the short name differs, or when the counts changed since the page
    was shown (a result arrived meanwhile: the page is shown again with the new counts).
    Returns the ``Deletion`` that was done, with ``backup`` (its path, or None). The photo files
    are removed once the transaction commits. README, "Deleting a rehearsal event".
    """
    if (typed_slug or "").strip() != event.slug:
        raise UserError(
            _("Type the short name “%(slug)s” to delete this tournament; nothing was deleted.") % {"slug": event.slug}
        )
    if deletion_preview(event).digest != digest:
        raise UserError(_("Something changed since this page was shown; check the numbers again. Nothing was deleted."))
    backup = backups.auto_backup("delete-event")  # outside the transaction: the copy holds the event
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        done = deletion_preview(locked)
        if done.digest != digest:
            raise UserError(
                _("Something changed since this page was shown; check the numbers again. Nothing was deleted.")
            )
        files = [photo_path(s) for s in RecordingSheet.objects.filter(match__event=locked).exclude(photo="")]
        locked.delete()
        transaction.on_commit(lambda: _remove_files(files))
    done.backup = backup
    return done


def _remove_files(paths):
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:  # a file that cannot go stays; the rows are gone already
            logger.warning("photo %s of a deleted event not removed: %s", path, error)
