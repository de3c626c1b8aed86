"""The words of the series engine's codes: a points table's fault as a sentence.

The engine (``series.engine.points``) returns codes, never translated text (docs/architecture.md,
"Direction of imports"); this module turns them into the sentence the forms, the services and the
read side (``series.ranking``) show, so that none of them imports another's layer for it.
"""

from django.utils.translation import gettext as _

from series.engine import points


def table_error_text(error: points.PointsTableError) -> str:
    """The sentence of a ``points.PointsTableError``, naming the bad entry (translated).

    In: the engine's error (``code``, ``position``, ``item``). Out: the sentence of its code
    (docs/rules/series.md, "Points"). Raises ``KeyError`` for a code the engine does not make."""
    values = {"position": error.position, "item": error.item, "most": points.MAX_PLACES, "max": points.MAX_POINTS}
    texts = {
        "empty": _("Points per place: type at least one number, e.g. 10,7,5,3,2,1."),
        "not_a_number": _("Points per place: entry %(position)s 「%(item)s」 is not a whole number (0 or more)."),
        "too_long": _("Points per place: at most %(most)s places."),
        "too_large": _("Points per place: entry %(position)s 「%(item)s」 is more than %(max)s."),
        "increasing": _(
            "Points per place: entry %(position)s 「%(item)s」 is more than the place above it; "
            "a lower place never scores more."
        ),
    }
    return texts[error.code] % values
