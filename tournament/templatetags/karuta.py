"""Template filters: dates as Japanese organisers write them (2027年1月17日(日))."""

import datetime

from django import template
from django.utils.translation import get_language

register = template.Library()

WEEKDAYS_JA = "月火水木金土日"


ERAS = (  # (first day, name): the modern Japanese eras
    (datetime.date(2019, 5, 1), "令和"),
    (datetime.date(1989, 1, 8), "平成"),
    (datetime.date(1926, 12, 25), "昭和"),
)


def japanese_year(value):
    """2027 → 令和9年 (the first year is 元年)."""
    for start, name in ERAS:
        if value >= start:
            year = value.year - start.year + 1
            return f"{name}{'元' if year == 1 else year}年"
    return f"{value.year}年"


@register.filter
def long_date(value, era=False):
    """A date as 2027年1月17日(日) (or 令和9年1月17日(日) with ``era``) in Japanese, Sun 17 Jan 2027 in English."""
    if not value:
        return ""
    if (get_language() or "ja").startswith("ja"):
        year = japanese_year(value) if era else f"{value.year}年"
        return f"{year}{value.month}月{value.day}日({WEEKDAYS_JA[value.weekday()]})"
    return value.strftime("%a %-d %b %Y")


@register.filter
def event_date(event):
    """The event's date as its organisers write it (the 令和 setting)."""
    return long_date(event.date, event.japanese_era)


@register.filter
def organised_by(event, user):
    """True when ``user`` may set up ``event`` (organiser or superuser)."""
    return event.is_organiser(user)
