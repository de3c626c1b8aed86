"""Template filters: dates as Japanese organisers write them (2027年1月17日(日)), names cut into
phrases for line breaks."""

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from common import once
from common.dates import format_date
from common.grades import grade_band_label, grade_label
from common.phrases import phrases as _phrases

register = template.Library()


@register.filter
def long_date(value, era=False):
    """A date as 2027年1月17日(日) (or 令和9年1月17日(日) with ``era``) in Japanese, Sun 17 Jan 2027 in English."""
    if not value:
        return ""
    if (get_language() or "ja").startswith("ja"):
        return format_date(value, era)
    return value.strftime("%a %-d %b %Y")


@register.filter
def event_date(event):
    """The event's date as its organisers write it (the 令和 setting)."""
    return long_date(event.date, event.japanese_era)


@register.filter
def organised_by(event, user):
    """True when ``user`` may set up ``event`` (organiser or superuser)."""
    return event.is_organiser(user)


@register.filter
def phrases(text):
    """``text`` in the pieces between which a line may break (``common.phrases.phrases``): a
    template writes ``<wbr>`` between them in an element with ``word-break: keep-all``."""
    return _phrases(str(text or ""))


@register.simple_tag
def step_key():
    """The hidden submission key of an organiser step's form (``common.once.one_step_at_a_time``):
    a new one each time the page is drawn, the same one when the form is sent twice."""
    return format_html('<input type="hidden" name="{}" value="{}">', once.KEY, once.new_key())


@register.filter
def grade(code):
    """A player's grade in the active language (``common.grades.grade_label``: 小1 / Grade 1)."""
    return grade_label(code)


@register.filter
def game(number):
    """A game by its number in the active language (docs/glossary.md, display terms):
    「第12試合」 in Japanese, "Game 12" in English; the number is an int or its text."""
    return _("Game %(number)s") % {"number": number}


def _japanese():
    return (get_language() or "ja").startswith("ja")


@register.simple_tag
def colon():
    """The colon after a label: 「：」 in Japanese (full-width, no space), ": " in English
    (docs/glossary.md, display terms: no ASCII colon in Japanese text)."""
    return "：" if _japanese() else ": "


@register.filter
def paren(value):
    """``value`` in brackets after the word before it: 「（value）」 in Japanese, " (value)" in
    English (docs/glossary.md: no ASCII brackets in Japanese text). Empty text stays empty."""
    if value is None or str(value) == "":
        return ""
    return f"（{value}）" if _japanese() else f" ({value})"


@register.filter
def grade_band(text):
    """A division's band of grades in the active language (``common.grades.grade_band_label``:
    小1〜小3 / Grade 1–Grade 3)."""
    return grade_band_label(text)
