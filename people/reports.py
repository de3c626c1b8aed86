"""The read side of the people of the day (issue 32; docs/people.md): what the reception desk,
the announcer, the court board, the tablet and the draw page show of who has arrived and who
was called. Every page reads it here, so they agree.

Players' names are for the reception and announcer roles; ``announcer_rows`` gives them only
where the event publishes names (``Event.publish_names``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from common.dates import format_time, to_tokyo
from people.engine import staff as staff_engine
from people.models import Duty, MatchCall, PlayerPresence, Referee, RefereeAssignment, RollCall, TeamCheckin
from people.roster import KIND_LABELS, day_blocks
from tournament.models import Match, Player, Team


@dataclass
class ReceptionPlayer:
    pk: int
    name: str
    furigana: str
    is_leader: bool
    is_substitute: bool
    present: bool | None  # None: not marked yet


@dataclass
class ReceptionTeam:
    pk: int
    name: str
    affiliation: str
    division: str
    division_pk: int
    received: bool
    received_at: object
    first_game: object  # datetime of its first game, or None
    late: bool  # not received and its first game is due
    players: list[ReceptionPlayer] = field(default_factory=list)


@dataclass
class DivisionCount:
    name: str
    received: int
    total: int


def received_team_ids(event) -> set[int]:
    """The ids of ``event``'s teams marked received at reception."""
    return set(TeamCheckin.objects.filter(team__division__event=event, received=True).values_list("team_id", flat=True))


def first_games(event) -> dict[int, object]:
    """Each team's (id) first game's planned start (``Match.start_at``) in ``event``."""
    firsts: dict[int, object] = {}
    for a, b, start in event.matches.filter(start_at__isnull=False).values_list("team_a", "team_b", "start_at"):
        for team in (a, b):
            if team is not None and (team not in firsts or start < firsts[team]):
                firsts[team] = start
    return firsts


def late_team_ids(event, now=None) -> set[int]:
    """Teams not received whose first game is due at ``now`` (default: the present moment):
    the teams the court board, the tablet and the desk flag (a walkover is the organiser's
    step, never automatic)."""
    now = now or timezone.now()
    received = received_team_ids(event)
    withdrawn = set(Team.objects.filter(division__event=event, withdrawn=True).values_list("pk", flat=True))
    return {t for t, start in first_games(event).items() if start <= now and t not in received | withdrawn}


def reception_rows(event, *, division=None, query="", now=None) -> list[ReceptionTeam]:
    """The teams of ``event`` (withdrawn ones left out) with their reception state and players,
    optionally of one ``division`` (id) and matching ``query`` (team, affiliation, player or
    furigana, after trimming; case-insensitive)."""
    now = now or timezone.now()
    teams = Team.objects.filter(division__event=event, withdrawn=False).select_related("division")
    if division:
        teams = teams.filter(division_id=division)
    query = " ".join((query or "").split())
    if query:
        teams = teams.filter(
            Q(name__icontains=query)
            | Q(affiliation__icontains=query)
            | Q(players__name__icontains=query)
            | Q(players__furigana__icontains=query)
        ).distinct()
    teams = list(teams.order_by("division__order", "division__pk", "entry_number", "pk").prefetch_related("players"))
    checkins = {c.team_id: c for c in TeamCheckin.objects.filter(team__in=teams)}
    presence = dict(PlayerPresence.objects.filter(player__team__in=teams).values_list("player_id", "present"))
    firsts = first_games(event)
    rows = []
    for team in teams:
        checkin = checkins.get(team.pk)
        received = bool(checkin and checkin.received)
        first = firsts.get(team.pk)
        rows.append(
            ReceptionTeam(
                pk=team.pk,
                name=team.name,
                affiliation=team.affiliation,
                division=team.division.name,
                division_pk=team.division_id,
                received=received,
                received_at=checkin.received_at if received else None,
                first_game=first,
                late=not received and first is not None and first <= now,
                players=[
                    ReceptionPlayer(p.pk, p.name, p.furigana, p.is_leader, p.is_substitute, presence.get(p.pk))
                    for p in team.players.all()
                ],
            )
        )
    return rows


def division_counts(event) -> list[DivisionCount]:
    """Per division: teams received and teams expected (withdrawn ones left out), 「14/16受付」."""
    received = received_team_ids(event)
    counts = []
    for division in event.divisions.all():
        ids = list(division.teams.filter(withdrawn=False).values_list("pk", flat=True))
        counts.append(DivisionCount(division.name, sum(1 for t in ids if t in received), len(ids)))
    return counts


def not_received_teams(event) -> list[Team]:
    """The teams of ``event`` not received (withdrawn ones left out), by division: the draw
    page's warning."""
    received = received_team_ids(event)
    teams = Team.objects.filter(division__event=event, withdrawn=False).select_related("division")
    return [t for t in teams.order_by("division__order", "entry_number", "pk") if t.pk not in received]


def reception_started(event) -> bool:
    """Whether any team of ``event`` has been received: before that the day has not begun and
    nothing is flagged."""
    return TeamCheckin.objects.filter(team__division__event=event, received=True).exists()


def calls_of(matches) -> dict[int, list[MatchCall]]:
    """The calls of each game (id) among ``matches``, first call first."""
    found: dict[int, list[MatchCall]] = {}
    for call in MatchCall.objects.filter(match__in=matches).order_by("number"):
        found.setdefault(call.match_id, []).append(call)
    return found


def call_state(match, calls, now=None) -> str:
    """``"called"``, ``"late"`` (due and not called, or called and not started after its time)
    or ``"not_called"`` for an open game; ``""`` for a started or finished one."""
    now = now or timezone.now()
    if match.actual_start or not match.awaits_result:
        return ""
    due = match.start_at is not None and match.start_at <= now
    if calls:
        return "called"
    return "late" if due else "not_called"


def referee_names(matches) -> dict[int, str]:
    """The referee's name of each game (id) among ``matches`` that has one."""
    return dict(RefereeAssignment.objects.filter(match__in=matches).values_list("match_id", "referee__name"))


@dataclass
class AnnouncerRow:
    court: object
    match: Match | None
    due: object
    team_a: str
    team_b: str
    players_a: list[tuple[str, str]]  # (name, furigana)
    players_b: list[tuple[str, str]]
    not_received: list[str]
    calls: list[MatchCall]
    state: str


def announcer_rows(event, now=None) -> list[AnnouncerRow]:
    """Each court of ``event`` with its next open game (teams known, not started): team names,
    players' names with furigana where the event publishes names, the time due, the teams not
    received, the calls so far and the call state."""
    now = now or timezone.now()
    matches = list(
        event.matches.filter(actual_start__isnull=True, status=Match.Status.SCHEDULED, court__isnull=False)
        .exclude(team_a__isnull=True)
        .exclude(team_b__isnull=True)
        .select_related("team_a", "team_b", "court")
        .prefetch_related("team_a__players", "team_b__players")
        .order_by("slot", "match_number")
    )
    nexts = {}
    for m in matches:
        nexts.setdefault(m.court_id, m)
    calls = calls_of(list(nexts.values()))
    received = received_team_ids(event)
    names = event.publish_names

    def players(team):
        return [(p.name, p.furigana) for p in team.players.all()] if names else []

    rows = []
    for court in event.courts.filter(closed=False):
        m = nexts.get(court.pk)
        if m is None:
            rows.append(AnnouncerRow(court, None, None, "", "", [], [], [], [], ""))
            continue
        mine = calls.get(m.pk, [])
        rows.append(
            AnnouncerRow(
                court=court,
                match=m,
                due=m.start_at,
                team_a=m.team_a.name,
                team_b=m.team_b.name,
                players_a=players(m.team_a),
                players_b=players(m.team_b),
                not_received=[t.name for t in (m.team_a, m.team_b) if t.pk not in received],
                calls=mine,
                state=call_state(m, mine, now),
            )
        )
    return rows


@dataclass
class RollCallView:
    at: object
    absent: list[str]
    substitutes: list[str]


def roll_call_of(match) -> RollCallView | None:
    """The roll call of ``match`` with the players' names (None before one): for the tablet and
    the desk (never a public page)."""
    roll = RollCall.objects.filter(match=match).first()
    if roll is None:
        return None
    names = dict(Player.objects.filter(pk__in=roll.absent + roll.substitutes).values_list("pk", "name"))
    return RollCallView(
        roll.at, [names[p] for p in roll.absent if p in names], [names[p] for p in roll.substitutes if p in names]
    )


def referee_sheets(event):
    """What the referees' PDF prints: ``(courts, by_referee)``: per court (in order) its games
    with a time (No., JST time, teams, referee's name), and per referee (by furigana) their games
    (No., time, court)."""
    games = list(
        event.matches.filter(court__isnull=False, start_at__isnull=False)
        .select_related("court", "team_a", "team_b")
        .order_by("court__order", "court__pk", "start_at", "match_number")
    )
    names = referee_names(games)
    courts, by_court = [], {}
    for m in games:
        if m.court_id not in by_court:
            by_court[m.court_id] = []
            courts.append((str(m.court), by_court[m.court_id]))
        teams = f"{m.team_a.name if m.team_a else '—'} – {m.team_b.name if m.team_b else '—'}"
        by_court[m.court_id].append((m.match_number, format_time(m.start_at), teams, names.get(m.pk, "")))
    by_referee: dict[str, list] = {}
    order = RefereeAssignment.objects.filter(match__in=games).order_by(
        "referee__furigana", "referee__name", "match__start_at", "match__match_number"
    )
    for a in order.select_related("referee", "match__court"):
        by_referee.setdefault(a.referee.name, []).append(
            (a.match.match_number, format_time(a.match.start_at), str(a.match.court))
        )
    return courts, list(by_referee.items())


@dataclass(frozen=True)
class StaffReferee:
    name: str
    club: str


@dataclass(frozen=True)
class StaffDuty:
    role: str  # 「受付」
    time: str  # 「開始前・午前 8:30〜12:00」
    names: list[str]


@dataclass(frozen=True)
class ProgrammeStaff:
    """The 大会プログラム's staff section (issue 34 item 1): the referees (name, club, by
    furigana); the referees' table (``courts``: the courts' names as columns; ``rows``: (time,
    a cell per court: the referee, 「未定」 for a game without one, "" for no game there)),
    empty until a referee is given a game; and the roster's lines."""

    referees: list[StaffReferee]
    courts: list[str]
    rows: list[tuple[str, list[str]]]
    duties: list[StaffDuty]

    def __bool__(self) -> bool:
        return bool(self.referees or self.duties)


def programme_staff(event) -> ProgrammeStaff:
    """What the 大会プログラム prints of ``event``'s referees and duty roster (docs/programme.md
    "staff"; docs/people.md: these names are printed only when the organiser chooses the
    section). The referees' table: the scheduled games' start times as rows
    (``people.engine.staff.referee_grid``), the courts with games as columns, only once some
    game has a referee; the roster: ``people.engine.staff.duty_lines`` over the roster's blocks
    (``people.roster.day_blocks``), each line's time its blocks' words and span."""
    referees = [StaffReferee(r.name, r.club) for r in Referee.objects.filter(event=event)]
    games = list(
        event.matches.filter(court__isnull=False, start_at__isnull=False)
        .select_related("court")
        .order_by("court__order", "court__pk", "start_at", "match_number")
    )
    names = referee_names(games)
    courts, rows = [], []
    if names:
        order: dict[int, int] = {}
        for m in games:
            if m.court_id not in order:
                order[m.court_id] = len(order)
                courts.append(str(m.court))
        judged = []
        for m in games:
            local = to_tokyo(m.start_at)
            judged.append(staff_engine.Judged(order[m.court_id], local.hour * 60 + local.minute, names.get(m.pk, "")))
        none_yet = _("nobody yet")
        rows = [
            (_clock(start), ["" if c is None else (c or none_yet) for c in cells])
            for start, cells in staff_engine.referee_grid(judged, len(courts))
        ]
    blocks = day_blocks(event)
    duties = [
        (d.role, d.block, d.name) for d in Duty.objects.filter(event=event).order_by("pk") if d.block < len(blocks)
    ]
    labels = dict(Duty.Role.choices)
    lines = []
    for line in staff_engine.duty_lines(duties, list(Duty.Role.values)):
        span = blocks[line.first : line.last + 1]
        kinds = "・".join(str(KIND_LABELS[b.kind]()) for b in span)
        time = f"{kinds} {_clock(span[0].start)}〜{_clock(span[-1].end)}"
        lines.append(StaffDuty(capfirst(str(labels.get(line.role, line.role))), time, list(line.names)))
    return ProgrammeStaff(referees, courts, rows, lines)


def _clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"
