"""Test data for the dosai app: a club edition whose missing values make a consistent set.

The values are computed, never typed in: the unknown efuda in play are given, in number
order, the values still missing from each class of ``MATSUI_CLASS_COUNTS`` after the
values known from the sources. Test data only: the app never invents a value.
"""

from dosai import services
from dosai.engine import cards
from dosai.engine.options import Options
from dosai.models import ClubEdition


def club_values(edition=cards.MATSUI_TENGUDO, class_counts=cards.MATSUI_CLASS_COUNTS):
    """number -> points for every unknown efuda in play, meeting the class counts."""
    known = [s.points for s in edition.subjects if s.in_play and s.points is not None]
    remaining = []
    for points, count in sorted(class_counts.items(), reverse=True):
        remaining += [points] * (count - known.count(points))
    unknown = list(edition.unknown_in_play)
    assert len(unknown) == len(remaining)
    return dict(zip(unknown, remaining, strict=True))


def ready_edition(owner, name="Matsui Tengudô"):
    return ClubEdition.objects.create(
        owner=owner,
        name=name,
        base=ClubEdition.BASE_MATSUI,
        values={str(k): v for k, v in club_values().items()},
        source="club set",
    )


PLAYERS6 = ["Aoki", "Baba", "Chiba", "Doi", "Endo", "Fujii"]


def make_session(owner, players=PLAYERS6, options=None, edition=None):
    edition = edition or ready_edition(owner)
    return services.create_session(owner, "Test table", edition, players, options or Options())
