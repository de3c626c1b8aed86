"""Changes on the day: a court delayed or closed, a team arriving after the draw.

No game that is under way or has a result ever moves."""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from ops import backups
from tournament.clock import event_clock
from tournament.engine.scheduling.day import CourtGame, TooEarly, shift_court
from tournament.models import (
    Division,
    Match,
)
from tournament.reports.stages import is_frozen  # a started game: it never moves
from tournament.services.timeline import Timeline, check_rest, division_courts


def _end_minute(timeline, match):
    """When a game on the court ends, as far as the schedule knows (minutes): its planned
    start, or its actual start on the day when later, plus the game's length."""
    start = timeline.minute(match.start_at)
    if match.actual_start is not None:
        actual = timeline.minute(match.actual_start)
        if 0 <= actual < 24 * 60:  # a start recorded on the event's day
            start = max(start, actual)
    return start + timeline.clock.game_minutes


def delay_court(court, minutes, *, allow_back_to_back=False):
    """Shift the start of a court's games that have not started by ``minutes`` (a delay;
    negative: earlier). Returns ``Shifted``: the number of games whose start changed, with
    ``held`` for a negative delay: the games that moved by less (or stayed) and why, so that
    no gap on the court goes unexplained.

    Rules (docs/rules/scheduling-standings-seeding.md, §5): started and played games never
    move; a moved game never starts before the game before it on the court ends plus the
    changeover (the order is kept), and never in the lunch break (it starts when lunch
    ends; the games after it follow). Raises ``UserError`` for a delay that is not a whole
    number of minutes from -600 to 600 (0 excluded), or a negative delay that would start a
    game before the end of the started game before it or before the court opens (naming
    the game); ``BackToBack`` (a ``UserError``) when the delay makes teams of a rest-rule
    division play twice in a row, or any team play twice at once, unless
    ``allow_back_to_back`` (the organiser confirmed). Nothing is written when refused.
    The delay is also the court's availability (``_record_delay``): no game is placed on it
    before its new start.
    """
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 or abs(minutes) > 600:
        raise UserError(_("Give a delay in minutes (for example 15, or -10 to move back)."))
    with transaction.atomic():
        matches = list(
            Match.objects.select_for_update()
            .filter(court=court, start_at__isnull=False)
            .not_void()
            .select_related("court")
        )
        timeline = Timeline(court.event)
        before = timeline.too_close()
        games = [CourtGame(m.pk, timeline.minute(m.start_at), _end_minute(timeline, m), is_frozen(m)) for m in matches]
        planned = event_clock(court.event, delays=False)  # the court's own opening, without its delay
        try:
            starts = shift_court(games, minutes, planned, court.pk)
        except TooEarly as early:
            raise _too_early(court, minutes, early, {m.pk: m for m in matches}, timeline) from None
        _record_delay(court, minutes, starts, planned)
        timeline = Timeline(court.event)  # the court now opens at the end of its delay
        for key, start in starts.items():
            timeline.set(key, start=start)
        restaged = timeline.restage(_courts_of(court.event, timeline))
        check_rest(timeline, before, allow_back_to_back)
        held = _held(matches, starts, minutes, timeline) if minutes < 0 else ()
        now = timezone.now()
        changed = [
            m
            for m in matches
            if m.pk in starts and m.pk not in restaged and timeline.minute(m.start_at) != starts[m.pk]
        ]
        for match in changed:
            match.start_at = timeline.at(starts[match.pk])
            match.changed_at = now
        Match.objects.bulk_update(changed, ["start_at", "changed_at"])
        moved = write_restaged(timeline, restaged, now)
    return Shifted(len(changed) + len(moved), held, moved)


def _record_delay(court, minutes, starts, planned):
    """Remember a delay as the court's availability (``Court.delayed_until``): the court
    takes no game before the new start of its first game not started (``starts``: key ->
    new start, minutes), so closed-court moves, late entries, the games after the groups and
    clock changes never place one inside the delay. A negative delay shortens it (gone once
    the court is back at its planned opening). No game to move: a positive delay pushes the
    court's availability by ``minutes``. Call inside the delay's transaction."""
    opening = planned.opening(court.pk)
    current = court.delayed_until.hour * 60 + court.delayed_until.minute if court.delayed_until else None
    if starts:
        until = min(starts.values())
    elif minutes > 0:
        until = max(current or opening, opening) + minutes
    else:
        until = (current or opening) + minutes
    if minutes < 0 and current is None:
        return
    court.delayed_until = datetime.time(until // 60, until % 60) if opening < until < 24 * 60 else None
    court.save(update_fields=["delayed_until"])


class Shifted(int):
    """The number of games a delay moved, with ``held``: a sentence (active language) for
    each game that a negative delay moved by less than asked (or not at all), saying where
    it starts and why: the lunch break, or the game before it on the court; and
    ``restaged``: the games after the groups moved to keep after their sources
    (``write_restaged``)."""

    def __new__(cls, count, held=(), restaged=()):
        shifted = super().__new__(cls, count)
        shifted.held = list(held)
        shifted.restaged = list(restaged)
        return shifted


def _courts_of(event, timeline):
    """``courts_of(division id)`` for ``Timeline.restage``: the division's open courts for its
    games after the groups (``division_courts``), without the courts closed on the timeline;
    the event's open courts when none is left."""
    divisions = {d.pk: d for d in Division.objects.filter(event=event).prefetch_related("courts")}
    found = {}

    def courts_of(division_id):
        if division_id not in found:
            courts = [c for c in division_courts(divisions[division_id]) if c.pk not in timeline.closed]
            courts = courts or [
                c for c in event.courts.filter(closed=False).order_by("order", "pk") if c.pk not in timeline.closed
            ]
            if not courts:
                raise UserError(_("No court is open."))
            found[division_id] = courts
        return found[division_id]

    return courts_of


def write_restaged(timeline, keys, now, moved_from=None):
    """Write the games ``keys`` moved on ``timeline`` (``Timeline.restage``): court, slot and
    start, ``changed_at`` ``now`` (their recording sheets are then listed as moved since
    printed), and ``moved_from`` (a court being closed) for those that were on it. Returns
    them (``Match``), in game order. Call inside the change's transaction."""
    if not keys:
        return []
    moved = list(
        Match.objects.select_for_update(of=("self",))
        .filter(pk__in=keys)
        .select_related("court")
        .order_by("match_number")
    )
    for match in moved:
        game = timeline.games[match.pk]
        if moved_from is not None and match.court_id == moved_from.pk:
            match.moved_from = moved_from  # off the closed court: its tablet says where it went
        match.court_id, match.slot, match.start_at = game.court, game.slot, timeline.at(game.start)
        match.changed_at = now
    # Free the old (court, slot) pairs first: the unique index allows one game per pair.
    Match.objects.filter(pk__in=keys).update(slot=None)
    Match.objects.bulk_update(moved, ["court", "slot", "start_at", "changed_at", "moved_from"])
    for match in moved:
        match.refresh_from_db(fields=["court"])
    return moved


def moved_lines(matches):
    """Where each moved game went (active language): 「第18試合 → 第2コート 13:45」."""
    return [
        _("Game %(game)s → %(court)s %(at)s")
        % {"game": m.match_number, "court": m.court, "at": timezone.localtime(m.start_at).strftime("%H:%M")}
        for m in matches
    ]


def _held(matches, starts, minutes, timeline):
    """The sentences of ``Shifted.held``: per game of ``starts`` (new start minutes) that
    did not move by ``minutes``, in the order of the court; ``matches`` still at their old
    starts."""
    clock = timeline.clock
    old = {m.pk: timeline.minute(m.start_at) for m in matches}
    new = {m.pk: starts.get(m.pk, old[m.pk]) for m in matches}
    number = {m.pk: m.match_number for m in matches}
    lines = []
    for key in sorted(starts, key=lambda k: (new[k], number[k])):
        asked = old[key] + minutes
        if new[key] == asked:
            continue
        values = {"game": number[key], "at": _hhmm(new[key]), "asked": _hhmm(asked)}
        if clock.lunch is not None and clock.fit(max(asked, 0)) != asked:
            values["from"], values["to"] = _hhmm(clock.lunch[0]), _hhmm(clock.lunch[1])
            lines.append(
                _("Game %(game)s starts at %(at)s, not %(asked)s: it would be in the lunch break (%(from)s–%(to)s).")
                % values
            )
            continue
        before = [k for k in new if new[k] < new[key]]
        values["before"] = number[max(before, key=lambda k: (new[k], number[k]))] if before else "—"
        lines.append(_("Game %(game)s starts at %(at)s, not %(asked)s: it starts after game %(before)s ends.") % values)
    return lines


def _too_early(court, minutes, early, matches, timeline):
    """The refusal of a negative delay, naming the game and what it would start before."""
    game = matches[early.key]
    values = {
        "minutes": minutes,
        "court": court,
        "game": game.match_number,
        "at": _hhmm(timeline.minute(game.start_at) + minutes),
        "limit": _hhmm(early.limit),
    }
    if early.before is None:
        return UserError(
            _("A delay of %(minutes)s minutes would start game %(game)s at %(at)s, before %(court)s opens (%(limit)s).")
            % values
        )
    values["before"] = matches[early.before].match_number
    return UserError(
        _(
            "A delay of %(minutes)s minutes would start game %(game)s at %(at)s, before game %(before)s "
            "on %(court)s ends (%(limit)s)."
        )
        % values
    )


def _hhmm(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"


def add_late_team(team, group, *, allow_back_to_back=False):
    """A late entry: put ``team`` (registered after the draw) into ``group`` and, when the
    group's games are already scheduled, add its games against every team of the group.

    Each new game goes to the earliest time where an open court is free and neither team
    plays, exact in minutes, on a court after its own games under way (started or with a
    result) and never before the latest start the tablets recorded today (``_under_way``),
    so the games spread over free courts: on a tie the group's court first, then the
    division's courts, then any open court (``Timeline.place``: never in the lunch break,
    each team keeping its division's rest rule when it can). Match numbers continue
    after the highest; no existing game moves. Refused (``UserError``) for a team of
    another division, a team already in a group, a withdrawn team, once the division's
    knockout is seeded, or when the division sets its games per team and the group's games
    exist (``docs/rules/scheduling-standings-seeding.md``, section 1.5); ``BackToBack`` when
    a team would play twice in a row under the rest rule, unless ``allow_back_to_back``. A
    refusal writes nothing (no backup either). Returns the new games (to print their
    recording sheets). Rule: docs/rules/scheduling-standings-seeding.md, §5.
    """
    if group.division_id != team.division_id:
        raise UserError(_("A team can only join a group of its own division."))
    if team.group_id is not None:
        raise UserError(_("%(team)s is already in %(group)s.") % {"team": team, "group": team.group})
    if team.withdrawn:
        raise UserError(_("%(team)s has withdrawn.") % {"team": team})
    if Match.objects.filter(division_id=team.division_id).after_groups().exists():
        raise _knockout_seeded(group.division)
    if group.division.games_per_team and Match.objects.filter(group=group).exists():
        raise UserError(
            _(
                "%(division)s: each team plays %(games)s games, so a late entry cannot join %(group)s once its "
                "games are scheduled (the others would play one game more). Clear the schedule and make it again."
            )
            % {"division": group.division, "games": group.division.games_per_team, "group": group}
        )
    if Match.objects.filter(group=group).exists():
        _late_games(team, group, allow_back_to_back)  # refuse before the backup
    backups.auto_backup("late-entry")
    with transaction.atomic():
        division_matches = Match.objects.select_for_update().filter(division_id=team.division_id)
        if division_matches.after_groups().exists():  # seeded meanwhile
            raise _knockout_seeded(group.division)
        has_schedule = division_matches.filter(group=group).exists()
        seat = (group.teams.aggregate(m=Max("group_seat"))["m"] or 0) + 1
        team.group, team.group_seat = group, seat
        team.save(update_fields=["group", "group_seat"])
        if not has_schedule:
            return []
        created = _late_games(team, group, allow_back_to_back)
        Match.objects.bulk_create(created)
    return created


def _late_games(team, group, allow_back_to_back):
    """The late team's games against its group (unsaved), placed on the event's timeline;
    ``BackToBack`` as ``add_late_team`` says."""
    event = group.division.event
    matches = list(Match.objects.filter(event=event))
    timeline = Timeline(event)
    floors, not_before = _under_way(matches, timeline)
    open_courts = list(event.courts.filter(closed=False).order_by("order", "pk"))
    ids = set(group.division.courts.values_list("pk", flat=True))
    division_courts = [c for c in open_courts if c.pk in ids]
    preferred = ([group.court] if group.court and not group.court.closed else []) + division_courts + open_courts
    preferred = list(dict.fromkeys(preferred))
    if not preferred:
        raise UserError(_("No court is open."))
    opponents = [t for t in group.teams.exclude(pk=team.pk).order_by("group_seat") if not t.withdrawn]
    before = timeline.too_close()
    number = max((g.match_number for g in matches), default=0)
    last_round = max((g.round for g in matches if g.group_id == group.pk), default=0)
    now = timezone.now()
    created = []
    for i, opponent in enumerate(opponents, start=1):
        court, slot, start = timeline.place((team.pk, opponent.pk), preferred, not_before, floors)
        timeline.add(number + i, (opponent.pk, team.pk), court.pk, slot, start)
        created.append(
            Match(
                event=event,
                division=group.division,
                group=group,
                stage=Match.Stage.GROUP,
                round=last_round + i,
                match_number=number + i,
                court=court,
                slot=slot,
                start_at=timeline.at(start),
                team_a=opponent,
                team_b=team,
                changed_at=now,
            )  # fmt: skip
        )
    check_rest(timeline, before, allow_back_to_back)
    return created


def _under_way(matches, timeline):
    """``(floors, now)`` for a late entry's games: per court id the end of its last game under
    way (started or with a result: a new game never goes before it on that court), and the
    latest start recorded on the tablets today (minutes; 0 when none): no new game is timed
    before it, whatever the court."""
    floors, now = {}, 0
    for g in matches:
        if g.start_at is None or g.court_id is None or (g.actual_start is None and g.status in Match.Status.OPEN):
            continue
        end = _end_minute(timeline, g) + timeline.clock.changeover_minutes
        floors[g.court_id] = max(floors.get(g.court_id, 0), end)
        if g.actual_start is not None and 0 <= timeline.minute(g.actual_start) < 24 * 60:
            now = max(now, timeline.minute(g.actual_start))
    return floors, now


def _knockout_seeded(division):
    return UserError(
        _("The knockout of %(division)s is already seeded: a late entry can no longer join a group.")
        % {"division": division}
    )


class Moved(list):
    """The games a court's closing moved (a list, to reprint their sheets), with ``stayed``:
    its games that had started and stay on it (the message names them)."""

    def __init__(self, moved, stayed=()):
        super().__init__(moved)
        self.stayed = list(stayed)


def close_court(court, *, allow_back_to_back=False):
    """Close a court mid-day: its games that have not started move to other courts.

    A game moves to the open court where it can start earliest, not before its planned
    time, with that court free and neither team playing (``Timeline.place``: exact in
    minutes, never in the lunch break, keeping the rest rule when it can): a court of its
    division, or another open court of the event when that one is free earlier; started and played games never move; match numbers stay; each moved game
    remembers the closed court (``moved_from``) so the court's tablet and an old sheet's
    QR code say where it went. Returns ``Moved``: the moved games, and in ``stayed`` the
    games that had started and stay on the closed court. Raises ``UserError`` when no other
    court is open, ``BackToBack`` as ``delay_court`` does; nothing is written then.
    Rule: docs/rules/scheduling-standings-seeding.md, §5.
    """
    event = court.event
    now = timezone.now()
    with transaction.atomic():
        on_court = list(
            Match.objects.select_for_update()
            .filter(court=court)
            .select_related("division")
            .order_by("slot", "match_number")
        )
        to_move = [m for m in on_court if not is_frozen(m) and m.stage == Match.Stage.GROUP]
        stayed = [m for m in on_court if is_frozen(m) and m.awaits_result]
        open_courts = list(event.courts.filter(closed=False).exclude(pk=court.pk).order_by("order", "pk"))
        if not open_courts:
            raise UserError(_("No other court is open."))
        division_courts = defaultdict(set)
        for division_id, court_id in Division.courts.through.objects.filter(division__event=event).values_list(
            "division_id", "court_id"
        ):
            division_courts[division_id].add(court_id)
        timeline = Timeline(event)
        before = timeline.too_close()
        for match in to_move:
            timeline.remove(match.pk)
        for match in to_move:
            mine = [c for c in open_courts if c.pk in division_courts[match.division_id]]
            preferred = mine + [c for c in open_courts if c not in mine]  # another court when free earlier
            earliest = timeline.minute(match.start_at) if match.start_at else 0
            teams = (match.team_a_id, match.team_b_id)
            new_court, slot, start = timeline.place(teams, preferred, max(earliest, 0))
            timeline.add(match.match_number, teams, new_court.pk, slot, start, key=match.pk)
            match.court, match.slot, match.start_at = new_court, slot, timeline.at(start)
            match.changed_at, match.moved_from = now, court
        timeline.closed.add(court.pk)
        restaged = timeline.restage(_courts_of(event, timeline))  # its games after the groups, and theirs
        check_rest(timeline, before, allow_back_to_back)
        court.closed = True
        court.save(update_fields=["closed"])
        # Free the old (court, slot) pairs first: the unique index allows one game per pair.
        Match.objects.filter(pk__in=[m.pk for m in to_move]).update(slot=None)
        Match.objects.bulk_update(to_move, ["court", "slot", "start_at", "changed_at", "moved_from"])
        to_move += write_restaged(timeline, restaged, now, moved_from=court)
    return Moved(sorted(to_move, key=lambda m: m.match_number), stayed)
