"""Saving the duty roster (係分担表, issue 32 item 6; docs/people.md "Duty roster"): the whole
table in one transaction, refused before any write when a name is too long (naming its cell)."""

import re

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from people.models import NAME_MAX, Duty

SEPARATORS = re.compile(r"[、,，\n;；]+")


def split_names(text) -> list[str]:
    """The names of one cell: separated by 、 , ; or new lines, spaces trimmed, each once."""
    found = []
    for part in SEPARATORS.split(text or ""):
        name = " ".join(part.split())
        if name and name not in found:
            found.append(name)
    return found


@transaction.atomic
def save_roster(event, cells: dict[tuple[str, int], list[str]], labels: dict[tuple[str, int], str] | None = None):
    """Replace ``event``'s roster with ``cells`` ((role, block) -> names). Raises ``UserError``
    naming the cell (``labels``: its words) of a name longer than ``NAME_MAX`` or an unknown role."""
    labels = labels or {}
    roles = set(Duty.Role.values)
    rows = []
    for (role, block), names in cells.items():
        if role not in roles or not 0 <= block <= 20:
            raise UserError(_("Unknown role or time block: reload the page."))
        for name in names:
            if len(name) > NAME_MAX:
                raise UserError(
                    _("%(cell)s: a name of at most %(max)d characters (%(name)s…).")
                    % {"cell": labels.get((role, block), role), "max": NAME_MAX, "name": name[:20]}
                )
            rows.append(Duty(event=event, role=role, block=block, name=name))
    Duty.objects.filter(event=event).delete()
    Duty.objects.bulk_create(rows)
    return rows
