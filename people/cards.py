"""Team cards (issue 32 item 5; docs/people.md "Team cards"): what each team's A6 card says,
read from the timetable's read side, and the signed code of its QR (the team's public page,
and at reception the team's check-in).

The code is the event's and the team's ids signed with ``django.core.signing.Signer`` (salt
``SALT``): a card of another event is refused naming the event it was printed for, a card of a
team no longer entered as an old card.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from common.dates import format_time
from common.errors import UserError
from people.models import CardPrint
from tournament.models import Event, Team
from tournament.reports.timetable import match_lines
from tournament.stage_path import stage_paths

SALT = "people.team-card"


def code_for(team) -> str:
    """The signed code of ``team``'s card: ``<event id>.<team id>:<signature>`` (URL-safe text,
    short enough for a QR code a tablet's camera reads at arm's length)."""
    return signing.Signer(salt=SALT).sign(f"{team.division.event_id}.{team.pk}")


def _ids(code):
    """``(event id, team id)`` of a card's code. Raises ``signing.BadSignature`` for a forged
    or unreadable one."""
    value = signing.Signer(salt=SALT).unsign(code or "")
    event_pk, _sep, team_pk = value.partition(".")
    if not (event_pk.isdigit() and team_pk.isdigit()):
        raise signing.BadSignature(value)
    return int(event_pk), int(team_pk)


def team_pk_of_code(event, code):
    """The team id a card's ``code`` names when it is a card of ``event``; None otherwise."""
    try:
        event_pk, team_pk = _ids(code)
    except signing.BadSignature:
        return None
    return team_pk if event_pk == event.pk else None


def team_of_code(event, code) -> Team:
    """The team of ``event`` a card's ``code`` names. Raises ``UserError`` for an unreadable
    code, a card of another event (naming it) or of a team no longer in ``event`` (an old card)."""
    try:
        event_pk, team_pk = _ids(code)
    except signing.BadSignature:
        raise UserError(_("This QR code is not a team card of this site.")) from None
    if event_pk != event.pk:
        other = Event.objects.filter(pk=event_pk).first()
        raise UserError(
            _("This card was printed for 「%(card)s」, not for 「%(event)s」: use this event's card.")
            % {"card": other or _("a deleted tournament"), "event": event}
        )
    team = Team.objects.filter(pk=team_pk, division__event=event).select_related("division").first()
    if team is None:
        raise UserError(
            _("This card of 「%(event)s」 names a team that is no longer entered: an old card.") % {"event": event}
        )
    return team


@dataclass(frozen=True)
class CardGame:
    number: int
    time: str  # "10:15" (JST), "" before the schedule
    court: str
    opponent: str  # the other team, or its slot (「Aリーグ 1位」)
    stage: str


@dataclass(frozen=True)
class TeamCard:
    team: str
    affiliation: str
    division: str
    games: list[CardGame] = field(default_factory=list)
    path: list[str] = field(default_factory=list)
    scan_url: str = ""
    calendar_url: str = ""
    team_pk: int = 0
    changed: bool = False  # its games differ from the last recorded print (False: none yet)


def snapshot_of(card: TeamCard) -> list[list]:
    """What a print remembers of ``card``: its games as [No., time, court, opponent]."""
    return [[g.number, g.time, g.court, g.opponent] for g in card.games]


def last_print(event):
    """The last recorded print of ``event``'s team cards, or None."""
    return CardPrint.objects.filter(event=event).first()


def printed_snapshot(cards: list[TeamCard]) -> dict[str, list]:
    """The snapshot a print of ``cards`` records (team id as text -> games)."""
    return {str(c.team_pk): snapshot_of(c) for c in cards}


def with_changes(cards: list[TeamCard], printed) -> list[TeamCard]:
    """``cards`` marked ``changed`` where their games differ from the ``printed`` snapshot (a
    ``CardPrint``; None: nothing is marked). A team not on the last print counts as changed."""
    if printed is None:
        return cards
    before = printed.snapshot
    return [replace(c, changed=before.get(str(c.team_pk)) != snapshot_of(c)) for c in cards]


def team_cards(event, base_url: str) -> list[TeamCard]:
    """A card per team of ``event`` (withdrawn ones left out), by division and entry number:
    its games (No., JST time, court, opponent or slot), stage path (``tournament.stage_path``), the QR's URL
    (``base_url`` + the scan page) and the calendar's URL."""
    lines = match_lines(event, order=("start_at", "match_number"))
    paths = stage_paths(event)
    teams = Team.objects.filter(division__event=event, withdrawn=False).select_related("division__event")
    cards = []
    for team in teams.order_by("division__order", "division__pk", "entry_number", "pk"):
        games = []
        for line in lines:
            if team.pk not in (line.match.team_a_id, line.match.team_b_id):
                continue
            opponent = line.team_b_text if line.match.team_a_id == team.pk else line.team_a_text
            time = format_time(line.start) if line.start else ""
            games.append(CardGame(line.number, time, str(line.match.court or ""), opponent, line.stage_text))
        cards.append(
            TeamCard(
                team=team.name,
                affiliation=team.affiliation,
                division=team.division.name,
                games=games,
                path=[str(line) for line in paths.get(team.pk, [])],
                scan_url=base_url + reverse("people:card_scan", args=[event.slug, code_for(team)]),
                calendar_url=base_url + reverse("tournament:public_team_ics", args=[event.slug, team.pk]),
                team_pk=team.pk,
            )
        )
    return with_changes(cards, last_print(event))
