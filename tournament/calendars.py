"""iCalendar files (RFC 5545) of an event's games and of one team's games (issue 34 item 2).

Written as plain text from the read side (``reports.match_line``), so the calendar shows
what the public timetable shows. Times are Japan wall-clock times with ``TZID=Asia/Tokyo``
and the zone's ``VTIMEZONE`` (JST, +09:00, no summer time); a game lasts the event's
``game_minutes``. Each game is one ``VEVENT``:

* ``UID`` ``match-<event slug>-<match number>@<host>``: a game keeps its match number when
  it is delayed or moved to another court, so a calendar app that downloads the file again
  updates the game instead of adding a second one;
* ``SEQUENCE`` the seconds from the event's creation to the game's last change (it only
  grows), ``LAST-MODIFIED`` and ``DTSTAMP`` that last change (moved, started or ended);
* ``LOCATION`` the court (and the venue), ``SUMMARY`` the match number, both sides and the
  result once confirmed, ``STATUS:CANCELLED`` for a voided game.

Public: team names and affiliations only; the players of a team are listed in its own
calendar only where the event publishes names (``Event.publish_names``). A game without a
planned start (before the schedule) is not in the calendar.
"""

from __future__ import annotations

import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from common.dates import TOKYO
from tournament.models import Match
from tournament.reports.timetable import event_slots, match_line, match_queryset

PRODID = "-//Hitachi Folk Karuta//tournament manager//JA"
VTIMEZONE = (
    "BEGIN:VTIMEZONE",
    "TZID:Asia/Tokyo",
    "BEGIN:STANDARD",
    "DTSTART:19700101T000000",
    "TZOFFSETFROM:+0900",
    "TZOFFSETTO:+0900",
    "TZNAME:JST",
    "END:STANDARD",
    "END:VTIMEZONE",
)


def escape(text):
    """A TEXT value of RFC 5545 (3.3.11): backslash, semicolon, comma and line breaks escaped."""
    text = str(text).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")


def fold(line):
    """One content line folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 character."""
    parts, current, used = [], [], 0
    for ch in line:
        size = len(ch.encode("utf-8"))
        limit = 75 if not parts else 74  # a continuation line starts with a space
        if used + size > limit:
            parts.append("".join(current))
            current, used = [], 0
        current.append(ch)
        used += size
    parts.append("".join(current))
    return "\r\n ".join(parts)


def _local(moment):
    return moment.astimezone(TOKYO).strftime("%Y%m%dT%H%M%S")


def _utc(moment):
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def uid(event, number, host):
    """The stable UID of game ``number`` of ``event``: ``match-<slug>-<number>@<host>``."""
    return f"match-{event.slug}-{number}@{host}"


def _changed(event, match):
    moments = [event.created_at, match.changed_at, match.actual_start, match.actual_end]
    return max(m for m in moments if m is not None)


def _vevent(event, line, host, players):
    match = line.match
    changed = _changed(event, match)
    end = line.start + datetime.timedelta(minutes=event.game_minutes)
    where = " ".join(part for part in (str(line.group or line.stage_text), line.division) if part)
    sides = f"{line.team_a_text or '?'} - {line.team_b_text or '?'}"
    result = f" ({line.result})" if line.result else ""
    summary = f"{_('Game %(number)s') % {'number': line.number}} {sides}{result}"
    location = " ".join(part for part in (line.court, event.venue) if part)
    description = [f"{event.title} ・ {where}"]
    description += players
    lines = [
        "BEGIN:VEVENT",
        f"UID:{uid(event, line.number, host)}",
        f"DTSTAMP:{_utc(changed)}",
        f"LAST-MODIFIED:{_utc(changed)}",
        f"SEQUENCE:{max(0, int((changed - event.created_at).total_seconds()))}",
        f"DTSTART;TZID=Asia/Tokyo:{_local(line.start)}",
        f"DTEND;TZID=Asia/Tokyo:{_local(end)}",
        f"SUMMARY:{escape(summary)}",
        f"LOCATION:{escape(location)}",
        f"DESCRIPTION:{escape(chr(10).join(description))}",
        f"STATUS:{'CANCELLED' if match.status == Match.Status.VOID else 'CONFIRMED'}",
        "END:VEVENT",
    ]
    return lines


def calendar_bytes(event, host, team=None):
    """The ``.ics`` of ``event``'s games (bytes, UTF-8, CRLF), or of ``team``'s games only.

    ``host`` names the site in each UID (``SITE_URL``'s host, else the request's). With a
    team, its players' names are in each game's description only when
    ``event.publish_names``."""
    matches = match_queryset(event).filter(start_at__isnull=False)
    name = event.title
    players = []
    if team is not None:
        matches = matches.filter(Q(team_a=team) | Q(team_b=team))
        name = f"{team.name} ・ {event.title}"
        if event.publish_names:
            players = [f"{_('players')}: " + "、".join(p.name for p in team.players.all())]
    slots = event_slots(event)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{escape(name)}",
        "X-WR-TIMEZONE:Asia/Tokyo",
        *VTIMEZONE,
    ]
    for match in matches.order_by("match_number"):
        lines += _vevent(event, match_line(match, slots), host, players)
    lines.append("END:VCALENDAR")
    return ("\r\n".join(fold(line) for line in lines) + "\r\n").encode("utf-8")
