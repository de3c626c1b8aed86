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
