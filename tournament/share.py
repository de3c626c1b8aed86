"""「LINEで送る文面」 (issue 35, item 2): ready texts a club pastes into its own group chat.

The venue has no internet for the server, so nothing is sent from here: a page shows the text
and a button copies it (``static/js/share.js``), and a phone on mobile data pastes it. Each text
names the event, then what happened (time, court, result, place), then the public page's address.
No players' names, ever (the texts leave the event's control once pasted). Plain text, one item a
line, in the active language; nothing here reads the database beyond what it is given.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from common.dates import format_date


def head(event):
    """「第40回日立市郷土かるた大会　2027年1月17日(日)」."""
    return _("%(event)s, %(date)s") % {"event": event.title, "date": format_date(event.date, event.japanese_era)}


def team_text(event, team, day, url):
    """The team page's text: the team and its division, its next game (time, court, opponent,
    game number) or that none is left, its group rank, its stage path, its final place and
    prizes, and ``url``. ``day`` is ``tournament.family.TeamDay`` (its ``place`` already in
    words). Never the players' names, even where the event publishes them."""
    lines = [head(event), _("%(team)s (%(division)s)") % {"team": team.name, "division": team.division.name}]
    n = day.next
    if n is not None:
        lines.append(
            _("Next game: %(start)s %(court)s against %(opponent)s (game %(number)s)")
            % {
                "start": n.start or "—",
                "court": n.court or "—",
                "opponent": n.opponent,
                "number": n.number,
            }
        )
    elif not day.place:
        lines.append(_("No game left to play."))
    if day.rank is not None and day.group is not None:
        lines.append(_("Group rank: %(group)s place %(rank)s") % {"group": day.group, "rank": day.rank.rank_text})
    lines += day.path[:3]
    if day.place:
        lines.append(_("Final place: %(place)s") % {"place": day.place})
    if day.certificates:
        lines.append(_("Certificates won: %(prizes)s") % {"prizes": pgettext("separator", ", ").join(day.certificates)})
    lines.append(url)
    return "\n".join(lines)


def announcement_text(event, announcement, url):
    """An announcement's text: the event, 「10:45 第3コートへ集合：○○チーム」 (the time it was
    shown from, JST), and ``url`` (the event's public timetable)."""
    at = timezone.localtime(announcement.shown_from).strftime("%H:%M")
    return "\n".join([head(event), f"{at} {announcement.text}", url])


def division_text(event, division, places, url):
    """A division's results: the event, 「▽小学生の部」, one line per place 「優勝 赤チーム（会瀬子ども会）」
    (``places``: ``[(place words, Team, to confirm)]`` as the final results page lists them, a
    place to confirm marked), and ``url`` (the final results page)."""
    lines = [head(event), f"▽{division.name}"]
    for place, team, check in places:
        line = f"{place} {team.name}"
        if team.affiliation:
            line += _(" (%(affiliation)s)") % {"affiliation": team.affiliation}
        if check:
            line += _(" (to be confirmed)")
        lines.append(line)
    lines.append(url)
    return "\n".join(lines)


def result_text(event, match, sheet, url):
    """A confirmed game's text (the outgoing webhook, issue 35 item 2): the event, 「第12試合
    第3コート 小学生の部」, 「赤チーム 5 – 3 青チーム」, the winner (a walkover said), and ``url`` (the
    public results page). Teams only, never a player's name."""
    a, b = match.team_a, match.team_b
    where = _("Game %(number)s, %(court)s, %(division)s") % {
        "number": match.match_number,
        "court": match.court or "—",
        "division": match.division.name,
    }
    score = f"{a.name if a else '—'} {sheet.cards_a} – {sheet.cards_b} {b.name if b else '—'}"
    winner = a if sheet.winner_side == "A" else b
    name = winner.name if winner else "—"
    won = (
        _("Winner: %(team)s (walkover)") % {"team": name}
        if sheet.is_walkover
        else _("Winner: %(team)s") % {"team": name}
    )
    return "\n".join([head(event), where, score, won, url])
