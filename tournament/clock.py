"""The day's clock of an event: minutes counted from midnight (Asia/Tokyo) of its date.

Shared by the schedule, the knockout and the changes on the day, and by the read side.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from tournament.engine import scheduling


def event_midnight(event):
    """Midnight (Asia/Tokyo) of the event's day: the clock counts minutes from it."""
    return timezone.make_aware(datetime.datetime.combine(event.date, datetime.time(0, 0)))


def _minutes(time_of_day):
    return time_of_day.hour * 60 + time_of_day.minute


def event_clock(event, delays=True):
    """The day's clock: start, game and changeover lengths, lunch break, courts starting late.

    A court delayed on the day (``Court.delayed_until``) opens at the end of its delay, so no
    placer puts a game inside it; ``delays=False``: the courts' planned openings only (to
    shift a delayed court's games again)."""
    lunch = None
    if event.lunch_start and event.lunch_end:
        lunch = (_minutes(event.lunch_start), _minutes(event.lunch_end))
    court_start = {}
    for c in event.courts.all():
        opens = [_minutes(c.start_time)] if c.start_time else []
        if delays and c.delayed_until:
            opens += [_minutes(c.delayed_until), _minutes(event.start_time)]
        if opens:
            court_start[c.pk] = max(opens)
    return scheduling.Clock(
        _minutes(event.start_time), event.game_minutes, event.changeover_minutes, lunch=lunch, court_start=court_start
    )
