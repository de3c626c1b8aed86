"""The limits of an event's numbers and dates: one table for the forms, the admin and the
database constraints (issue 18, item 5).

Pure Python. A value outside these limits is a typing slip (9999-12-31, a 40,000-minute game,
99,999 cards), never a tournament: the forms refuse it naming the field, the model fields carry
the same bounds as validators (the admin), and the database refuses it with check constraints
(the fixed bounds; the date's window moves with the year, so the database holds only
``DATE_FLOOR`` … ``DATE_CEILING``).

Sources: docs/rules/hitachi-karuta.md, "Teams and the court" (56 cards in play, two piles of
28: the total is even); a game lasts about 15 minutes (docs/rules/scheduling-standings-seeding.md).
"""

from __future__ import annotations

import datetime

#: (smallest, largest) of each number of the event's settings, both included.
GAME_MINUTES = (1, 120)
CHANGEOVER_MINUTES = (0, 60)
CARD_TOTAL = (2, 100)  # and even: two equal piles
EDITION = (1, 999)
COURT_ORDER = (0, 999)
DIVISION_ORDER = (0, 999)
GAMES_PER_TEAM = (1, 99)
BEST_RUNNERS_UP = (0, 32)
SEED = (1, 999)

#: An event's date lies from January 1st of last year to December 31st five years on.
YEARS_BEFORE = 1
YEARS_AFTER = 5
#: What the database holds whatever the year (the check constraint).
DATE_FLOOR = datetime.date(2000, 1, 1)
DATE_CEILING = datetime.date(2199, 12, 31)


def date_window(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The first and last date an event may have, seen from ``today``: January 1st of
    ``YEARS_BEFORE`` years ago to December 31st ``YEARS_AFTER`` years on (both included)."""
    return datetime.date(today.year - YEARS_BEFORE, 1, 1), datetime.date(today.year + YEARS_AFTER, 12, 31)


def card_total_ok(total: int) -> bool:
    """Whether ``total`` cards in play is possible: even (two equal piles) within ``CARD_TOTAL``."""
    return CARD_TOTAL[0] <= total <= CARD_TOTAL[1] and total % 2 == 0


#: The event's numbers checked by ``out_of_limits``, with their limits.
EVENT_NUMBERS = {
    "edition": EDITION,
    "game_minutes": GAME_MINUTES,
    "changeover_minutes": CHANGEOVER_MINUTES,
    "card_total": CARD_TOTAL,
}


def out_of_limits(date: datetime.date, numbers: dict, today: datetime.date) -> list[tuple[str, object, object]]:
    """The event's values outside their limits: ``[(field name, smallest, largest)]``, the date
    first (``date_window`` seen from ``today``), then each number of ``numbers`` (field name →
    value; None and names not in ``EVENT_NUMBERS`` are not checked; an odd card total counts as
    outside). Empty when all is well."""
    found = []
    first, last = date_window(today)
    if not first <= date <= last:
        found.append(("date", first, last))
    for name, value in numbers.items():
        limit = EVENT_NUMBERS.get(name)
        if limit is None or value is None:
            continue
        if not limit[0] <= value <= limit[1] or (name == "card_total" and not card_total_ok(value)):
            found.append((name, limit[0], limit[1]))
    return found
