"""What the tournament's and the referee's pages show of the people of the day (issue 32;
docs/people.md "Flags"): a template library, so the court board, the tablet, the desk's game
page and the draw page show who is not received, whether a game was called and who referees it
without the tournament or judging code importing this app.

``{% load people_day %}`` then ``{% people_game_flags match %}`` (a team not received by its
first game, the call state, the referee), ``{% people_referee match %}`` (「審判：○○」) and
``{% people_draw_warning event %}`` (teams not received before drawing).
"""

from django import template
from django.utils import timezone
from django.utils.translation import get_language

from people import reports
from people.models import DaySettings
from tournament.models import Event

register = template.Library()


def _cache(context, key, build):
    """One read per page for a value the tags need on many rows (kept in the render context)."""
    store = context.render_context.setdefault("people_day", {})
    if key not in store:
        store[key] = build()
    return store[key]


def _event_of(context, match):
    """``match``'s event without a query when the page has it (``event`` in the context)."""
    event = context.get("event")
    if event is not None and getattr(event, "pk", None) == match.event_id:
        return event
    return _cache(context, ("event", match.event_id), lambda: Event.objects.get(pk=match.event_id))


@register.inclusion_tag("people/includes/game_flags.html", takes_context=True)
def people_game_flags(context, match, desk=False):
    """The flags of ``match``: its teams not received by their first game (with, on the desk
    for an organiser, the link to the game page's walkover step), its calls and its referee.
    A page of many games (the court board) reads each of these once (a few queries)."""
    if match is None:
        return {"show": False}
    event = _event_of(context, match)
    late = _cache(context, ("late", event.pk), lambda: reports.late_team_ids(event))
    calls = _cache(context, ("calls", event.pk), lambda: reports.calls_of(event.matches.all())).get(match.pk, [])
    names = _cache(context, ("referees", event.pk), lambda: reports.referee_names(event.matches.all()))
    teams = [t for t in (match.team_a, match.team_b) if t is not None and t.pk in late]
    return {
        "show": True,
        "late_teams": teams,
        "calls": calls,
        "state": reports.call_state(match, calls, timezone.now()),
        "referee": names.get(match.pk, ""),
        "desk": desk,
        "match": match,
        "event": event,
    }


@register.simple_tag
def people_referee(match):
    """The referee's name of ``match`` ("" for none)."""
    if match is None:
        return ""
    return reports.referee_names([match]).get(match.pk, "")


@register.inclusion_tag("people/includes/draw_warning.html")
def people_draw_warning(event):
    """The draw page's warning: teams not received (受付) yet, once reception has begun or on
    the day of the event."""
    if not (reports.reception_started(event) or event.date == timezone.localdate()):
        return {"teams": []}
    return {"teams": reports.not_received_teams(event), "event": event}


@register.inclusion_tag("people/includes/roll_call.html")
def people_roll_call(match, token=None):
    """The roll call of ``match`` (点呼): on the tablet (``token`` given) the link to it before
    開始 where the event asks for one; on the desk what it recorded (absent players,
    substitutes playing)."""
    if match is None:
        return {"show": False}
    enabled = DaySettings.objects.filter(event_id=match.event_id, roll_call=True).exists()
    done = reports.roll_call_of(match)
    return {
        "show": bool(enabled or done),
        "done": done,
        "token": token,
        "match": match,
        "link": bool(enabled and token and match.actual_start is None and match.teams_known),
    }


@register.simple_tag
def people_sep():
    """The separator between two items of a line: 「・」 on a Japanese page, " · " on an English one
    (one language per page)."""
    return "・" if (get_language() or "").startswith("ja") else " · "
