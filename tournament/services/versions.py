"""Optimistic locking of the organisers' edit forms: team, division, event, court (issue 18,
item 8).

Two organisers may open the same form. Each row carries a ``version`` counter; the form carries
the version it was opened with. ``claim`` runs inside the save's transaction: it locks the row,
refuses a save based on an older version with ``StaleEdit`` (carrying the saved row, so the page
can show both versions side by side and lose nothing), and otherwise sets the next version on the
instance about to be saved. The same rule as the results' versions (``judging.services``:
"no silent overwrite").
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from common.errors import UserError


class StaleEdit(UserError):
    """The form was opened on an older version: someone saved the same row in between.
    ``saved`` is the row as saved now."""

    def __init__(self, saved):
        super().__init__(
            _(
                "Someone else saved this while you were editing it. Nothing was saved: compare the saved values "
                "with yours below, then save again to keep yours."
            )
        )
        self.saved = saved


def claim(instance, base_version):
    """Lock ``instance``'s row (call inside ``transaction.atomic``) and give ``instance`` the next
    version.

    In: a model instance with a ``version`` field (saved or not), and the version the form was
    opened with (None: a post without it, such as a script, is not checked). Raises
    ``StaleEdit`` when the saved version differs from ``base_version``; nothing is written.
    A new row (no pk) is never stale.
    """
    if instance.pk is None:
        return
    saved = type(instance).objects.select_for_update().get(pk=instance.pk)
    if base_version is not None and saved.version != base_version:
        raise StaleEdit(saved)
    instance.version = saved.version + 1


def people_version(event) -> str:
    """The version of an event's people: its organisers and recorders by account id
    ("o3,o5,r7"), which the people page carries (the roles have no row of their own)."""
    organisers = sorted(event.organisers.values_list("pk", flat=True))
    recorders = sorted(event.recorders.values_list("pk", flat=True))
    return ",".join([f"o{pk}" for pk in organisers] + [f"r{pk}" for pk in recorders])


def parse_people_version(text) -> tuple[list[int], list[int]]:
    """``(organiser ids, recorder ids)`` of a ``people_version`` text; unreadable parts are skipped."""
    organisers, recorders = [], []
    for part in (text or "").split(","):
        if len(part) > 1 and part[0] in "or" and part[1:].isdigit():
            (organisers if part[0] == "o" else recorders).append(int(part[1:]))
    return organisers, recorders


def claim_people(event, base_version):
    """Lock ``event``'s row (inside ``transaction.atomic``) and refuse a change of its people
    made on a page opened before another change (``StaleEdit`` with the event; None: not
    checked). The roles' optimistic lock, as ``claim`` is the rows' (issue 18, item 8)."""
    saved = type(event).objects.select_for_update().get(pk=event.pk)
    if base_version is not None and people_version(saved) != base_version:
        raise StaleEdit(saved)
