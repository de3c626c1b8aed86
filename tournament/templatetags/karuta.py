"""Template filters: dates as Japanese organisers write them (2027年1月17日(日))."""

from django import template
from django.utils.translation import get_language

register = template.Library()

WEEKDAYS_JA = "月火水木金土日"


@register.filter
def long_date(value):
    """A date as 2027年1月17日(日) in Japanese, Sun 17 Jan 2027 in English."""
    if not value:
        return ""
    if (get_language() or "ja").startswith("ja"):
        return f"{value.year}年{value.month}月{value.day}日({WEEKDAYS_JA[value.weekday()]})"
    return value.strftime("%a %-d %b %Y")


@register.filter
def organised_by(event, user):
    """True when ``user`` may set up ``event`` (organiser or superuser)."""
    return event.is_organiser(user)
