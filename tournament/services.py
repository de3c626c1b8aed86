"""Verb-named operations of a tournament day, each one transaction.

Views and management commands call these; they read the database, call the pure modules
(``scheduling``, ``standings``, ``seeding``) and write the rows. Each raises
``ServiceError`` with a message fit for the organiser when the operation cannot be done,
and then has changed nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import random
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ops import backups
from tournament.engine import names, scheduling, seeding, standings
from tournament.imports import ImportProblem, ParsedEntries
from tournament.models import (
    Court,
    Division,
    Event,
    Group,
    LotRecord,
    Match,
    Player,
    RunnerUpLot,
    Team,
    TieBreak,
    group_letter,
)


class ServiceError(Exception):
    """An operation the organiser asked for cannot be done; the message says why."""


class RunnerUpTie(ServiceError):
    """The best runners-up places end inside a block of runners-up of different groups who
    are equal on every criterion; ``teams`` (ids) are that block, to be settled by a lot."""

    def __init__(self, message, teams):
        super().__init__(message)
        self.teams = list(teams)


# --- Teams -----------------------------------------------------------------------------


@dataclass
class PlayerData:
    name: str
    furigana: str = ""
    grade: str = ""
    is_leader: bool = False
    is_substitute: bool = False


def save_team(division, name, affiliation, players, *, team=None, seed=None):
    """Create or update a team with its players (a list of ``PlayerData``).

    Names are normalised (NFKC, trimmed); the team name must be unique in the division
    after normalisation. Raises ``ServiceError`` on a duplicate name; nothing is saved.
    """
    key = names.name_key(name)
    clash = Team.objects.filter(division=division, name_key=key)
    if team is not None:
        clash = clash.exclude(pk=team.pk)
    if clash.exists():
        raise ServiceError(
            _("A team named “%(name)s” is already registered in %(division)s.")
            % {"name": names.normalize_team_name(name), "division": division.name}
        )
    with transaction.atomic():
        if team is None:
            number = (
                Team.objects.filter(division__event=division.event).aggregate(m=Max("entry_number"))["m"] or 0
            ) + 1
            team = Team(division=division, entry_number=number)
        team.name = name
        team.affiliation = affiliation
        team.seed = seed
        team.division = division
        try:
            team.save()
        except IntegrityError:
            raise ServiceError(_("A team with this name is already registered in this division.")) from None
        team.players.all().delete()
        Player.objects.bulk_create(
            Player(
                team=team,
                name=names.normalize_text(p.name),
                furigana=names.normalize_text(p.furigana),
                grade=p.grade,
                is_leader=p.is_leader,
                is_substitute=p.is_substitute,
                order=i,
            )
            for i, p in enumerate(players)
        )
    return team


@dataclass
class ImportReport:
    teams: list = field(default_factory=list)  # TeamEntry
    new_divisions: list = field(default_factory=list)
    problems: list = field(default_factory=list)  # ImportProblem
    imported: bool = False

    @property
    def ok(self):
        return not self.problems


def import_entries(event, parsed: ParsedEntries, *, dry_run=True):
    """Check parsed entry rows against the event and, unless ``dry_run``, save them all.

    All or nothing: when any row has a problem (from the parser, or a team name already
    registered in its division) nothing is saved. Divisions named in the file that the
    event lacks are created and listed in ``new_divisions``. Returns an ``ImportReport``.
    """
    backups.auto_backup("import-entries", skip=dry_run)
    report = ImportReport(teams=list(parsed.teams), problems=list(parsed.problems))
    existing = {d.name: d for d in event.divisions.all()}
    report.new_divisions = [name for name in parsed.divisions if name not in existing]
    registered = set(Team.objects.filter(division__event=event).values_list("division__name", "name_key"))
    for entry in parsed.teams:
        if (entry.division, names.name_key(entry.name)) in registered:
            report.problems.append(
                ImportProblem(
                    entry.row,
                    None,
                    _("Team “%(name)s” is already registered in %(division)s.")
                    % {"name": entry.name, "division": entry.division},
                )
            )
    if dry_run or not report.ok:
        return report
    with transaction.atomic():
        order = (event.divisions.aggregate(m=Max("order"))["m"] or 0) + 1
        for i, division_name in enumerate(report.new_divisions):
            existing[division_name] = Division.objects.create(event=event, name=division_name, order=order + i)
        for entry in parsed.teams:
            save_team(
                existing[entry.division],
                entry.name,
                entry.affiliation,
                [PlayerData(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in entry.players],
            )
    report.imported = True
    return report


# --- Group draw ------------------------------------------------------------------------


def _share_courts(free_courts, divisions, team_counts):
    """Share free courts among divisions in proportion to their teams (largest remainder)."""
    if not divisions:
        return {}
    if len(free_courts) < len(divisions):
        raise ServiceError(
            _("Not enough courts: %(divisions)s divisions need a court each, %(courts)s are free.")
            % {"divisions": len(divisions), "courts": len(free_courts)}
        )
    total = sum(team_counts[d.pk] for d in divisions) or 1
    share = {d.pk: 1 for d in divisions}
    spare = len(free_courts) - len(divisions)
    quotas = {d.pk: team_counts[d.pk] / total * len(free_courts) - 1 for d in divisions}
    for d in divisions:
        extra = min(spare, max(0, math.floor(quotas[d.pk])))
        share[d.pk] += extra
        spare -= extra
    for d in sorted(divisions, key=lambda d: -(quotas[d.pk] - math.floor(quotas[d.pk]))):
        if spare == 0:
            break
        share[d.pk] += 1
        spare -= 1
    result, start = {}, 0
    for d in divisions:
        result[d.pk] = free_courts[start : start + share[d.pk]]
        start += share[d.pk]
    return result


def _spread_into_groups(teams, group_count, rng):
    """Deal teams into groups: by seed, snake order, keeping an affiliation apart.

    Seeded teams first (1 best), then the rest in random order, dealt in snake order
    (A B C, C B A, …) so group sizes differ by at most one. Then, while a group holds
    two teams of one affiliation, one of them swaps places with a team of another group
    that is of the same seeding tier (or unseeded, like it) when the swap makes no new
    clash. Swaps keep the group sizes; where no swap helps, the clash stays.
    """
    seeded = sorted((t for t in teams if t.seed), key=lambda t: (t.seed, t.entry_number, t.pk))
    rest = [t for t in teams if not t.seed]
    rng.shuffle(rest)
    groups = [[] for _ in range(group_count)]
    tier = {}
    for i, team in enumerate(seeded + rest):
        round_index, pos = divmod(i, group_count)
        groups[pos if round_index % 2 == 0 else group_count - 1 - pos].append(team)
        tier[team.pk] = round_index if team.seed else None

    def club(team):
        return names.name_key(team.affiliation) if team.affiliation else None

    def clashes(group, team, leaving=None):
        key = club(team)
        return key is not None and any(club(t) == key for t in group if t is not team and t is not leaving)

    # Passes of swaps until a pass changes nothing: a swap can unblock a clash that no
    # swap could mend before. Each swap removes at least one clash, so this ends.
    changed = True
    while changed:
        changed = False
        for g, group in enumerate(groups):
            for team in list(group):
                if team not in groups[g] or not clashes(groups[g], team):
                    continue
                swap = next(
                    (
                        (h, other)
                        for h, other_group in enumerate(groups)
                        if h != g
                        for other in other_group
                        if tier[other.pk] == tier[team.pk]
                        and not clashes(other_group, team, leaving=other)
                        and not clashes(groups[g], other, leaving=team)
                    ),
                    None,
                )
                if swap is not None:
                    h, other = swap
                    groups[g][groups[g].index(team)] = other
                    groups[h][groups[h].index(other)] = team
                    changed = True
    return groups


def division_courts(event):
    """Courts for each division: its assigned courts, or a proportional share of the rest."""
    divisions = list(event.divisions.prefetch_related("courts"))
    team_counts = {d.pk: d.teams.filter(withdrawn=False).count() for d in divisions}
    assigned = {d.pk: list(d.courts.all()) for d in divisions}
    used = {c.pk for courts in assigned.values() for c in courts}
    free = [c for c in event.courts.all() if c.pk not in used]
    without = [d for d in divisions if not assigned[d.pk] and team_counts[d.pk]]
    assigned.update(_share_courts(free, without, team_counts))
    return divisions, assigned


def draw_groups(event, *, seed=None, division=None):
    """Draw the groups of every division (or one), one group per court of the division.

    Uses the courts assigned to each division; where none are, shares the event's free
    courts among divisions in proportion to their teams. Groups have at least three
    teams where the entry allows. Refused once a division has a schedule.
    Returns a dict division -> list of groups.
    """
    rng = random.Random(seed)
    divisions, courts = division_courts(event)
    if division is not None:
        divisions = [d for d in divisions if d.pk == division.pk]
    result = {}
    with transaction.atomic():
        for d in divisions:
            teams = list(d.teams.filter(withdrawn=False))
            if not teams:
                continue
            if Match.objects.filter(division=d).exists():
                raise ServiceError(
                    _("%(division)s already has a schedule; clear it before drawing again.") % {"division": d.name}
                )
            if len(teams) < 2:
                raise ServiceError(_("%(division)s needs at least two teams.") % {"division": d.name})
            d_courts = courts.get(d.pk) or []
            if not d_courts:
                raise ServiceError(_("%(division)s has no court.") % {"division": d.name})
            group_count = max(1, min(len(d_courts), len(teams) // 3))
            d.teams.update(group=None, group_seat=None)
            d.groups.all().delete()
            groups = []
            for i, members in enumerate(_spread_into_groups(teams, group_count, rng)):
                group = Group.objects.create(division=d, name=group_letter(i), order=i, court=d_courts[i])
                for seat, team in enumerate(members, start=1):
                    team.group, team.group_seat = group, seat
                Team.objects.bulk_update(members, ["group", "group_seat"])
                groups.append(group)
            result[d] = groups
    if not result:
        raise ServiceError(_("No teams to draw."))
    return result


def move_team(team, group):
    """Move a team into another group of its division (before the schedule exists)."""
    if group.division_id != team.division_id:
        raise ServiceError(_("A team can only move to a group of its own division."))
    if Match.objects.filter(division_id=team.division_id).exists():
        raise ServiceError(_("The schedule exists; clear it before moving teams."))
    with transaction.atomic():
        seat = (group.teams.aggregate(m=Max("group_seat"))["m"] or 0) + 1
        team.group, team.group_seat = group, seat
        team.save(update_fields=["group", "group_seat"])


# --- Schedule --------------------------------------------------------------------------


def event_midnight(event):
    """Midnight (Asia/Tokyo) of the event's day: the clock counts minutes from it."""
    return timezone.make_aware(datetime.datetime.combine(event.date, datetime.time(0, 0)))


def _minutes(time_of_day):
    return time_of_day.hour * 60 + time_of_day.minute


def event_clock(event):
    """The day's clock: start, game and changeover lengths, lunch break, courts starting late."""
    lunch = None
    if event.lunch_start and event.lunch_end:
        lunch = (_minutes(event.lunch_start), _minutes(event.lunch_end))
    court_start = {c.pk: _minutes(c.start_time) for c in event.courts.all() if c.start_time}
    return scheduling.Clock(
        _minutes(event.start_time), event.game_minutes, event.changeover_minutes, lunch=lunch, court_start=court_start
    )


def make_schedule(event):
    """Create the round-robin games of every drawn group, in each division's layout.

    Each pair of a group meets once (Berger order, a bye per round for an odd group);
    the division's layout places them: one group per court (the official format),
    groups sharing the division's courts (fewest slots), or several groups per court;
    with the rest rule no team plays twice in a row. Start times come from the clock
    (start, game length, changeover, lunch break, courts starting late); match numbers
    follow time, then court. Refused when games already exist. Returns the number of
    games created.
    """
    backups.auto_backup("make-schedule")
    if event.matches.exists():
        raise ServiceError(_("The schedule already exists."))
    groups = list(Group.objects.filter(division__event=event).select_related("court", "division"))
    if not groups:
        raise ServiceError(_("Draw the groups first."))
    seats = defaultdict(list)
    for team in Team.objects.filter(group__in=groups, withdrawn=False).order_by("group_seat", "pk"):
        seats[team.group_id].append(team.pk)
    planned = []
    for group in groups:
        if group.court is None:
            raise ServiceError(
                _("%(group)s of %(division)s has no court.") % {"group": group, "division": group.division}
            )
        if len(seats[group.pk]) < 2:
            raise ServiceError(
                _("%(group)s of %(division)s has fewer than two teams.") % {"group": group, "division": group.division}
            )
    by_division = defaultdict(list)
    for group in groups:
        by_division[group.division].append(group)
    report = {}
    next_free = defaultdict(int)  # court id -> first slot not taken by an earlier division
    for division, division_groups in by_division.items():
        # The groups' own courts, in group order (one group per court pins group i to court i).
        courts_in_order = list(dict.fromkeys(g.court_id for g in division_groups))
        if division.layout == "one_group_per_court":
            pinned = [g.court_id for g in division_groups]
            if len(set(pinned)) == len(pinned):
                courts_in_order = pinned
        elif division.layout == "shared":
            extra = [c.pk for c in division.courts.all() if c.pk not in courts_in_order]
            courts_in_order += extra
        plan = scheduling.plan(
            [seats[g.pk] for g in division_groups], courts_in_order, division.layout, rest=division.rest_rule
        )
        report[division] = plan
        # Divisions sharing a court play one after the other: shift this division's whole
        # plan (one offset, so its teams never meet themselves across courts).
        offset = max((next_free[c] for c in courts_in_order), default=0)
        shifted = [dataclasses.replace(p, slot=p.slot + offset) for p in plan.games]
        for p in shifted:
            next_free[p.court] = max(next_free[p.court], p.slot + 1)
        planned += [(division_groups[p.group], p) for p in shifted]
    courts = {c.pk: c for c in event.courts.all()}
    planned.sort(key=lambda gp: (gp[1].slot, courts[gp[1].court].order, gp[1].court))
    clock = event_clock(event)
    day = event_midnight(event)
    matches = [
        Match(
            event=event,
            division=group.division,
            group=group,
            stage=Match.Stage.GROUP,
            round=p.round,
            match_number=i,
            court_id=p.court,
            slot=p.slot,
            start_at=day + datetime.timedelta(minutes=clock.start_of(p.slot, p.court)),
            team_a_id=p.team_a,
            team_b_id=p.team_b,
        )
        for i, (group, p) in enumerate(planned, start=1)
    ]
    with transaction.atomic():
        Match.objects.bulk_create(matches)
    return len(matches)


def clear_schedule(event):
    """Delete every game of the event, refused once any result exists."""
    if event.matches.exclude(status=Match.Status.SCHEDULED).exists():
        raise ServiceError(_("Results have been entered; the schedule can no longer be cleared."))
    event.matches.all().delete()


# --- Standings -------------------------------------------------------------------------


@dataclass
class StandingsTable:
    group: Group
    rows: list  # standings.StandingRow with .team_obj attached
    teams: dict  # id -> Team
    cells: dict  # (row team id, column team id) -> (won: bool, cards_for, cards_against, mark)
    complete: bool


def _group_results(matches, sheets_by_match, excluded):
    results = []
    for m in matches:
        sheet = sheets_by_match.get(m.pk)
        if sheet is None or m.team_a_id in excluded or m.team_b_id in excluded:
            continue
        winner = m.team_a_id if sheet.winner_side == "A" else m.team_b_id
        results.append(
            standings.GameResult(
                team_a=m.team_a_id,
                team_b=m.team_b_id,
                cards_a=sheet.cards_a,
                cards_b=sheet.cards_b,
                winner=winner,
                walkover=sheet.is_walkover,
                decided_by=sheet.decided_by,
            )
        )
    return results


def division_standings(division):
    """The standings of every group of a division, from confirmed group-stage sheets only.

    Knockout games never count. A withdrawn team's games follow the division's
    setting: annulled (the team leaves the table), or kept with its unplayed games
    scored as walkovers (it stays in the table but never qualifies). Lots and play-offs
    recorded by the organiser settle ties through the LOT criterion. Returns a list of
    ``StandingsTable`` in group order, in a fixed number of queries whatever the size of
    the division.
    """
    from judging.models import RecordingSheet

    groups = list(division.groups.select_related("court"))
    teams = list(Team.objects.filter(division=division, group__isnull=False))
    matches = list(Match.objects.filter(division=division, stage=Match.Stage.GROUP).exclude(status=Match.Status.VOID))
    sheets = {
        s.match_id: s
        for s in RecordingSheet.objects.filter(
            match__division=division, match__stage=Match.Stage.GROUP, is_confirmed=True
        ).exclude(match__status=Match.Status.VOID)
    }
    lots = defaultdict(dict)
    methods = {}
    for tie_break in TieBreak.objects.filter(group__division=division):
        lots[tie_break.group_id][tie_break.team_id] = tie_break.position
        methods[tie_break.team_id] = tie_break.method
    annul = division.withdrawal == "annul"
    excluded = {t.pk for t in teams if t.withdrawn and annul}
    tables = []
    for group in groups:
        members = {t.pk: t for t in teams if t.group_id == group.pk and t.pk not in excluded}
        group_matches = [m for m in matches if m.group_id == group.pk]
        results = _group_results(group_matches, sheets, excluded)
        rows = standings.rank_group(
            list(members),
            results,
            criteria=division.criteria,
            lots=lots[group.pk] or None,
            walkover_cards=division.walkover_cards,
        )
        for row in rows:
            row.lot_method = methods.get(row.team, "") if row.settled_by_lot else ""
        cells = {}
        for r in results:
            mark = (
                "" if r.decided_by == "cards" else {"joker": "り", "rps": "じ", "walkover": "不"}.get(r.decided_by, "")
            )
            cells[(r.team_a, r.team_b)] = (r.winner == r.team_a, r.cards_a, r.cards_b, mark)
            cells[(r.team_b, r.team_a)] = (r.winner == r.team_b, r.cards_b, r.cards_a, mark)
        playable = [m for m in group_matches if m.team_a_id not in excluded and m.team_b_id not in excluded]
        complete = bool(playable) and all(m.pk in sheets for m in playable)
        tables.append(StandingsTable(group, rows, members, cells, complete))
    return tables


def _record_lot(model, scope, ordered_teams, method, user):
    """Replace the lot records (``model``: a ``LotRecord``) of ``ordered_teams`` within
    ``scope`` (its field → value) by their new positions, best first."""
    if len(ordered_teams) < 2 or len({t.pk for t in ordered_teams}) != len(ordered_teams):
        raise ServiceError(_("Order at least two different tied teams."))
    if method not in dict(LotRecord.METHOD_CHOICES):
        raise ServiceError(_("Say how the order was decided: lot or play-off."))
    with transaction.atomic():
        model.objects.filter(team__in=ordered_teams, **scope).delete()
        model.objects.bulk_create(
            model(team=t, position=i, method=method, recorded_by=user, **scope)
            for i, t in enumerate(ordered_teams, start=1)
        )


def record_tie_break(group, ordered_teams, method, user=None):
    """Record a lot or play-off: ``ordered_teams`` (Team list) best first, among tied teams.

    Replaces any earlier lot of these teams. Raises ``ServiceError`` when a team is not
    in the group or fewer than two teams are given.
    """
    members = set(group.teams.values_list("pk", flat=True))
    if any(t.pk not in members for t in ordered_teams):
        raise ServiceError(_("Every team must belong to %(group)s.") % {"group": group})
    _record_lot(TieBreak, {"group": group}, ordered_teams, method, user)


def runner_up_tie(division):
    """The runners-up (Team list, in table order) tied where the division's best runners-up
    places end, who need a lot before seeding; ``[]`` when there is no such tie or the
    groups are not finished yet (seeding then says what is missing)."""
    if not division.best_runners_up:
        return []
    try:
        _qualifiers(division, division_standings(division))
    except RunnerUpTie as tie:
        teams = Team.objects.in_bulk(tie.teams)
        return [teams[pk] for pk in tie.teams]
    except ServiceError:
        return []
    return []


def record_runner_up_lot(division, ordered_teams, method, user=None):
    """Record a lot or play-off between best runners-up of different groups tied on every
    criterion: ``ordered_teams`` (Team list) best first. Replaces any earlier lot of these
    teams. Raises ``ServiceError`` when fewer than two different teams are given or a team
    is not of ``division``."""
    if any(t.division_id != division.pk for t in ordered_teams):
        raise ServiceError(_("Every team must belong to %(division)s.") % {"division": division})
    _record_lot(RunnerUpLot, {"division": division}, ordered_teams, method, user)


def withdraw_team(team, user=None):
    """Withdraw a team (棄権) following its division's setting; a withdrawn team never qualifies.

    "annul": its unplayed games are voided and all its games leave the standings.
    "walkover": its played games stand and each unplayed game becomes a confirmed
    walkover (28–0) for the opponent. Played games never change. Returns the number of
    unplayed games changed.
    """
    from judging.engine import rules
    from judging.services import record_confirmed_result, void_match

    if team.withdrawn:
        raise ServiceError(_("%(team)s has already withdrawn.") % {"team": team})
    changed = 0
    with transaction.atomic():
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        unplayed = Match.objects.filter(
            Q(team_a=team) | Q(team_b=team),
            stage=Match.Stage.GROUP,
            status__in=[Match.Status.SCHEDULED, Match.Status.SUBMITTED, Match.Status.DISPUTED],
        ).select_related("event")
        for match in unplayed:
            if team.division.withdrawal == "walkover":
                winner = rules.Side.B if match.team_a_id == team.pk else rules.Side.A
                cards = rules.walkover_cards(winner, match.event.card_total // 2)
                record_confirmed_result(match, rules.SheetValues(*cards), is_walkover=True, user=user)
            else:
                void_match(match, user, reason=str(_("team withdrew")))
            changed += 1
    return changed


# --- Knockout --------------------------------------------------------------------------

KNOCKOUT_STAGES = {
    1: Match.Stage.FINAL,
    2: Match.Stage.SEMIFINAL,
    4: Match.Stage.QUARTERFINAL,
    8: Match.Stage.ROUND_OF_16,
}


def _qualifiers(division, tables):
    """The teams going through, in seed order: each group's top places, then the best runners-up.

    A withdrawn team never qualifies: the next team of its group takes its place. A tie
    at a qualifying place must be settled by a lot or play-off first.
    """
    quota = division.qualifiers_per_group
    by_place = defaultdict(list)
    runners_up = []
    for index, table in enumerate(tables):
        if not table.complete:
            raise ServiceError(
                _("%(group)s of %(division)s has games without a result.")
                % {"group": table.group, "division": division}
            )
        eligible = [row for row in table.rows if not table.teams[row.team].withdrawn]
        wanted = quota + (1 if division.best_runners_up else 0)
        for place, row in enumerate(eligible[:wanted], start=1):
            if row.tied:
                raise ServiceError(
                    _("Place %(rank)s of %(group)s is tied; record a lot or play-off before seeding.")
                    % {"rank": row.rank, "group": table.group}
                )
            if place <= quota:
                by_place[place].append((index, row))
            else:
                runners_up.append((index, row))
    qualifiers = []
    for place in sorted(by_place):
        ordered = standings.compare_across_groups([row for _, row in by_place[place]])
        group_of = {row.team: index for index, row in by_place[place]}
        qualifiers += [seeding.Qualifier(team=row.team, group=group_of[row.team], place=place) for row in ordered]
    if division.best_runners_up:
        lots = dict(RunnerUpLot.objects.filter(division=division).values_list("team_id", "position"))
        ordered = standings.apply_lots_across_groups(
            standings.compare_across_groups([row for _, row in runners_up]), lots
        )
        cut = ordered[: division.best_runners_up]
        if (
            len(ordered) > len(cut)
            and cut
            and ordered[len(cut)].tied
            and cut[-1].tied
            and ordered[len(cut)].rank == cut[-1].rank
        ):
            raise RunnerUpTie(
                _(
                    "The best runners-up are tied across groups on every criterion where the qualifying places end: "
                    "record a lot or play-off between them on the knockout page."
                ),
                teams=[row.team for row in ordered if row.rank == cut[-1].rank],
            )
        group_of = {row.team: index for index, row in runners_up}
        qualifiers += [seeding.Qualifier(team=row.team, group=group_of[row.team], place=quota + 1) for row in cut]
    return qualifiers


def seed_knockout(event, *, division=None, reset=False):
    """Seed each division's qualifiers into a bracket and create the knockout games.

    Needs every group game of the division to have a result and no unresolved tie at
    a qualifying place. Byes go to the top seeds (no game is created for a bye; the team
    goes straight to the next round). A third-place game is added when the division asks
    for it. With ``reset``, knockout games without results are deleted first; games with
    results are never deleted. Returns the number of games created.
    """
    backups.auto_backup("seed-knockout")
    divisions = [division] if division else list(event.divisions.all())
    created = 0
    with transaction.atomic():
        for d in divisions:
            if not d.groups.exists():
                continue
            existing = Match.objects.filter(division=d).exclude(stage=Match.Stage.GROUP)
            if existing.exists():
                if not reset:
                    raise ServiceError(_("%(division)s already has a bracket.") % {"division": d.name})
                if existing.exclude(status=Match.Status.SCHEDULED).exists():
                    raise ServiceError(
                        _("%(division)s has knockout results; the bracket cannot be reset.") % {"division": d.name}
                    )
                existing.delete()
            qualifiers = _qualifiers(d, division_standings(d))
            if len(qualifiers) < 2:
                raise ServiceError(
                    _("%(division)s has a single qualifier: its group winner is the champion.") % {"division": d.name}
                )
            created += _create_bracket(event, d, seeding.seed_bracket(qualifiers))
    return created


def _create_bracket(event, division, lineup):
    size = len(lineup)
    rounds = int(math.log2(size))
    courts = list(division.courts.all()) or [g.court for g in division.groups.select_related("court") if g.court]
    if not courts:
        raise ServiceError(_("%(division)s has no court.") % {"division": division.name})
    last_slot = Match.objects.filter(court__in=courts).aggregate(m=Max("slot"))["m"]
    slot = 0 if last_slot is None else last_slot + 1
    number = (event.matches.aggregate(m=Max("match_number"))["m"] or 0) + 1
    clock = event_clock(event)
    day = event_midnight(event)
    taken = set(Match.objects.filter(court__in=courts).values_list("court_id", "slot"))

    def place(match):
        nonlocal slot
        while True:
            for court in courts:
                if (court.pk, slot) not in taken:
                    taken.add((court.pk, slot))
                    match.court, match.slot = court, slot
                    match.start_at = day + datetime.timedelta(minutes=clock.start_of(slot, court.pk))
                    return
            slot += 1

    # entrants[i] of a round: a team id, a Match whose winner comes, or None (bye).
    entrants = list(lineup)
    created = []
    for r in range(rounds):
        games_in_round = len(entrants) // 2
        stage = KNOCKOUT_STAGES.get(games_in_round, Match.Stage.KNOCKOUT)
        next_entrants = []
        round_games = []
        for i in range(games_in_round):
            a, b = entrants[2 * i], entrants[2 * i + 1]
            if a is None or b is None:
                next_entrants.append(b if a is None else a)  # a bye: straight through
                continue
            match = Match(event=event, division=division, stage=stage, round=r, bracket_position=i, match_number=number)
            number += 1
            for side, entrant in (("a", a), ("b", b)):
                if isinstance(entrant, int):
                    setattr(match, f"team_{side}_id", entrant)
            round_games.append((match, a, b))
            next_entrants.append(match)
        third = None
        # A third-place game needs two semifinal losers: none when a semifinal was a bye.
        if stage == Match.Stage.FINAL and division.third_place_game and all(isinstance(e, Match) for e in entrants):
            third = Match(event=event, division=division, stage=Match.Stage.THIRD_PLACE, round=r, match_number=0)
        for match, _a, _b in round_games:
            place(match)
        if third is not None:
            place(third)
            # The third-place game is numbered before the final, as announced on the day.
            third.match_number, round_games[0][0].match_number = round_games[0][0].match_number, number
            number += 1
        for match, _a, _b in round_games:
            match.save()
            created.append(match)
        if third is not None:
            third.save()
            created.append(third)
        # Link feeders now that this round's games have primary keys.
        for match, a, b in round_games:
            for side, entrant in (("A", a), ("B", b)):
                if isinstance(entrant, Match):
                    entrant.feeds, entrant.feeds_side = match, side
                    entrant.save(update_fields=["feeds", "feeds_side"])
                    if third is not None:
                        entrant.loser_feeds, entrant.loser_feeds_side = third, side
                        entrant.save(update_fields=["loser_feeds", "loser_feeds_side"])
        entrants = next_entrants
        slot += 1
    return len(created)


def advance_knockout(match):
    """Put a knockout game's winner (and loser, for the third-place game) into the next game.

    Called in the same transaction as the result. Refused when the next game already
    has a result, since changing its teams would silently rewrite history.
    """
    for target, side, team_id in (
        (match.feeds, match.feeds_side, match.winner_id),
        (match.loser_feeds, match.loser_feeds_side, _loser_id(match)),
    ):
        if target is None:
            continue
        target.refresh_from_db()
        current = target.team_a_id if side == "A" else target.team_b_id
        if current == team_id:
            continue
        if target.has_result:
            raise ServiceError(
                _("Game %(number)s already has a result; correct it first.") % {"number": target.match_number}
            )
        setattr(target, "team_a_id" if side == "A" else "team_b_id", team_id)
        target.save(update_fields=["team_a", "team_b"])


def _loser_id(match):
    if match.winner_id is None:
        return None
    return match.team_b_id if match.winner_id == match.team_a_id else match.team_a_id


def create_event(slug, name, date, *, courts=0, **fields):
    """Create an event with courts named 1..N. Raises ``ServiceError`` on a used slug."""
    if Event.objects.filter(slug=slug).exists():
        raise ServiceError(_("A tournament with the short name “%(slug)s” already exists.") % {"slug": slug})
    with transaction.atomic():
        event = Event.objects.create(slug=slug, name=name, date=date, **fields)
        Court.objects.bulk_create(Court(event=event, name=str(i), order=i) for i in range(1, courts + 1))
    return event


# --- Changes on the day ----------------------------------------------------------------

OPEN_STATUSES = (Match.Status.SCHEDULED, Match.Status.SUBMITTED, Match.Status.DISPUTED)


def delay_court(court, minutes):
    """Shift the start of a court's games that have not started by ``minutes`` (a delay).

    Played and started games never move. Returns the number of games moved.
    """
    if not isinstance(minutes, int) or minutes == 0 or abs(minutes) > 600:
        raise ServiceError(_("Give a delay in minutes (for example 15, or -10 to move back)."))
    now = timezone.now()
    with transaction.atomic():
        games = list(
            Match.objects.select_for_update().filter(
                court=court, status=Match.Status.SCHEDULED, actual_start__isnull=True, start_at__isnull=False
            )
        )
        for game in games:
            game.start_at += datetime.timedelta(minutes=minutes)
            game.changed_at = now
        Match.objects.bulk_update(games, ["start_at", "changed_at"])
    return len(games)


def _busy(games):
    """The (court id, slot) and (team id, slot) pairs that ``games`` (Match list) take."""
    busy_court = {(g.court_id, g.slot) for g in games if g.court_id is not None and g.slot is not None}
    busy_team = {(t, g.slot) for g in games if g.slot is not None for t in (g.team_a_id, g.team_b_id) if t}
    return busy_court, busy_team


def _earliest_free(courts, first, teams, busy_court, busy_team):
    """The earliest ``(court, slot)`` from slot ``first`` on where one of ``courts`` (in order
    of preference) is free and none of ``teams`` (ids; None ignored) plays; the pair is
    then marked busy in ``busy_court`` ({(court id, slot)}) and ``busy_team`` ({(team id, slot)})."""
    teams = [t for t in teams if t]
    slot = first
    while True:
        court = next((c for c in courts if (c.pk, slot) not in busy_court), None)
        if court is not None and all((t, slot) not in busy_team for t in teams):
            busy_court.add((court.pk, slot))
            busy_team.update((t, slot) for t in teams)
            return court, slot
        slot += 1


def add_late_team(team, group):
    """A late entry: put ``team`` (registered after the draw) into ``group`` and, when the
    group's games are already scheduled, add its games against every team of the group.

    Each new game goes to the earliest slot after the games already under way (started or
    with a result) where neither team plays and a court is free: the group's court first,
    then the division's courts, then any open court. Match numbers continue after the
    highest; no existing game moves. Refused (``ServiceError``) for a team of another
    division, a team already in a group, a withdrawn team, or once the division's knockout
    is seeded. Returns the new games (to print their recording sheets).
    """
    if group.division_id != team.division_id:
        raise ServiceError(_("A team can only join a group of its own division."))
    if team.group_id is not None:
        raise ServiceError(_("%(team)s is already in %(group)s.") % {"team": team, "group": team.group})
    if team.withdrawn:
        raise ServiceError(_("%(team)s has withdrawn.") % {"team": team})
    event = group.division.event
    backups.auto_backup("late-entry")
    with transaction.atomic():
        division_games = Match.objects.select_for_update().filter(division_id=team.division_id)
        if division_games.exclude(stage=Match.Stage.GROUP).exists():
            raise ServiceError(
                _("The knockout of %(division)s is already seeded: a late entry can no longer join a group.")
                % {"division": group.division}
            )
        has_schedule = division_games.filter(group=group).exists()
        seat = (group.teams.aggregate(m=Max("group_seat"))["m"] or 0) + 1
        team.group, team.group_seat = group, seat
        team.save(update_fields=["group", "group_seat"])
        if not has_schedule:
            return []
        games = list(Match.objects.filter(event=event))
        busy_court, busy_team = _busy(games)
        under_way = [
            g.slot
            for g in games
            if g.slot is not None and (g.actual_start is not None or g.status not in OPEN_STATUSES)
        ]
        first = max(under_way) + 1 if under_way else 0
        open_courts = list(event.courts.filter(closed=False).order_by("order", "pk"))
        ids = set(group.division.courts.values_list("pk", flat=True))
        division_courts = [c for c in open_courts if c.pk in ids]
        preferred = ([group.court] if group.court and not group.court.closed else []) + division_courts + open_courts
        preferred = list(dict.fromkeys(preferred))
        if not preferred:
            raise ServiceError(_("No court is open."))
        opponents = [t for t in group.teams.exclude(pk=team.pk).order_by("group_seat") if not t.withdrawn]
        clock = event_clock(event)
        day = event_midnight(event)
        number = max((g.match_number for g in games), default=0)
        last_round = max((g.round for g in games if g.group_id == group.pk), default=0)
        now = timezone.now()
        created = []
        for i, opponent in enumerate(opponents, start=1):
            court, slot = _earliest_free(preferred, first, (team.pk, opponent.pk), busy_court, busy_team)
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
                    start_at=day + datetime.timedelta(minutes=clock.start_of(slot, court.pk)),
                    team_a=opponent,
                    team_b=team,
                    changed_at=now,
                )
            )
        Match.objects.bulk_create(created)
    return created


def close_court(court):
    """Close a court mid-day: its unplayed games move to the earliest free slots of other courts.

    A game moves to a court of its division (or any open court of the event) at the
    earliest slot where that court is free and neither team plays; played games never
    move; match numbers stay. Returns the list of moved games (to reprint their sheets).
    """
    event = court.event
    clock = event_clock(event)
    day = event_midnight(event)
    now = timezone.now()
    with transaction.atomic():
        court.closed = True
        court.save(update_fields=["closed"])
        to_move = list(
            Match.objects.select_for_update()
            .filter(court=court, status__in=OPEN_STATUSES, actual_start__isnull=True)
            .select_related("division")
            .order_by("slot", "match_number")
        )
        games = list(Match.objects.filter(event=event).exclude(pk__in=[m.pk for m in to_move]))
        busy_court, busy_team = _busy(games)
        open_courts = list(event.courts.filter(closed=False).order_by("order", "pk"))
        if not open_courts:
            raise ServiceError(_("No other court is open."))
        moved = []
        division_courts = defaultdict(set)
        for division_id, court_id in Division.courts.through.objects.filter(division__event=event).values_list(
            "division_id", "court_id"
        ):
            division_courts[division_id].add(court_id)
        for game in to_move:
            preferred = [c for c in open_courts if c.pk in division_courts[game.division_id]] or open_courts
            court_free, slot = _earliest_free(
                preferred, max(game.slot or 0, 0), (game.team_a_id, game.team_b_id), busy_court, busy_team
            )
            game.court, game.slot = court_free, slot
            game.start_at = day + datetime.timedelta(minutes=clock.start_of(slot, court_free.pk))
            game.changed_at = now
            moved.append(game)
        # Free the old (court, slot) pairs first: the unique index allows one game per pair.
        Match.objects.filter(pk__in=[m.pk for m in moved]).update(slot=None)
        Match.objects.bulk_update(moved, ["court", "slot", "start_at", "changed_at"])
    return moved


def mark_started(match):
    """Record when the referee opened the game (its actual start), once."""
    if match.actual_start is None and match.awaits_result:
        Match.objects.filter(pk=match.pk, actual_start__isnull=True).update(actual_start=timezone.now())


def _clock(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _timed_problem_text(problem, context):
    """One ``scheduling.TimedProblem`` as a sentence for the organiser (active language)."""
    matches = [context["matches"][i] for i in problem.games]
    game = [m.match_number for m in matches]
    team = context["teams"].get(problem.team, problem.team)
    if problem.kind in ("team_overlap", "court_overlap"):
        (s1, e1), (s2, e2) = problem.minutes
        values = {
            "who": team if problem.kind == "team_overlap" else context["courts"].get(problem.court, problem.court),
            "a": game[0],
            "a_from": _clock(s1),
            "a_to": _clock(e1),
            "b": game[1],
            "b_from": _clock(s2),
            "b_to": _clock(e2),
        }
        if problem.kind == "team_overlap":
            return (
                _("%(who)s plays game %(a)s (%(a_from)s–%(a_to)s) and game %(b)s (%(b_from)s–%(b_to)s) at once")
                % values
            )
        return _("%(who)s holds game %(a)s (%(a_from)s–%(a_to)s) and game %(b)s (%(b_from)s–%(b_to)s) at once") % values
    if problem.kind == "bad_time":
        start, end = problem.minutes[0]
        return _("Game %(game)s ends at %(end)s, not after its start %(start)s") % {
            "game": game[0],
            "end": _clock(end),
            "start": _clock(start),
        }
    if problem.kind == "plays_itself":
        return _("%(team)s plays itself in game %(game)s") % {"team": team, "game": game[0]}
    if problem.kind == "no_group":
        return _("%(team)s plays game %(game)s but is in no group") % {"team": team, "game": game[0]}
    a, b = (context["teams"].get(t, t) for t in problem.teams)
    if problem.kind == "wrong_group":
        return _(
            "Game %(game)s (%(a)s v %(b)s) is a game of %(group)s, but the teams are in %(group_a)s and %(group_b)s"
        ) % {
            "game": game[0],
            "a": a,
            "b": b,
            "group": context["groups"].get(problem.group, problem.group),
            "group_a": context["groups"].get(problem.groups[0]),
            "group_b": context["groups"].get(problem.groups[1]),
        }
    return ngettext(
        "%(a)s and %(b)s of %(group)s meet %(count)d time instead of once",
        "%(a)s and %(b)s of %(group)s meet %(count)d times instead of once",
        problem.count,
    ) % {"a": a, "b": b, "group": context["groups"].get(problem.group, problem.group), "count": problem.count}


def schedule_checks(event):
    """The organiser's checks: overlaps of teams and courts in time, pairs meeting once, streaks.

    Returns ``(problems, rows)``: problems as sentences in the active language, naming
    games by their match number and times as HH:MM, and per team its games in a row at
    most and its longest wait in minutes.
    """
    games = list(
        event.matches.filter(stage=Match.Stage.GROUP)
        .exclude(status=Match.Status.VOID)
        .select_related("team_a", "team_b")
    )
    length = event.game_minutes
    timed = []
    day = event_midnight(event)
    groups = defaultdict(list)
    for team in Team.objects.filter(division__event=event, group__isnull=False, withdrawn=False):
        groups[team.group_id].append(team.pk)
    group_index = {group_id: i for i, group_id in enumerate(groups)}
    withdrawn = set(Team.objects.filter(division__event=event, withdrawn=True).values_list("pk", flat=True))
    timed_matches = []
    for g in games:
        if g.start_at is None or g.team_a_id is None or g.team_b_id is None or {g.team_a_id, g.team_b_id} & withdrawn:
            continue
        start = int((g.start_at - day).total_seconds() // 60)
        timed.append(
            scheduling.TimedGame(
                g.court_id or 0, g.team_a_id, g.team_b_id, start, start + length, group_index.get(g.group_id, -1)
            )
        )
        timed_matches.append(g)
    names_by_id = dict(Team.objects.filter(division__event=event).values_list("pk", "name"))
    context = {
        "teams": names_by_id,
        "courts": {c.pk: str(c) for c in event.courts.all()},
        "groups": dict(enumerate(map(Group.objects.in_bulk(list(groups)).get, groups))),
        "matches": timed_matches,
    }
    problems = [_timed_problem_text(p, context) for p in scheduling.timed_problems(timed, list(groups.values()))]
    per_team = defaultdict(list)
    for g in timed:
        per_team[g.team_a].append(g)
        per_team[g.team_b].append(g)
    rows = []
    gap_limit = event.changeover_minutes + 1
    for team_id, team_games in per_team.items():
        team_games.sort(key=lambda g: g.start_minute)
        streak = best = 1
        longest_wait = 0
        for before, after in zip(team_games, team_games[1:]):
            wait = after.start_minute - before.end_minute
            streak = streak + 1 if wait < gap_limit else 1
            best = max(best, streak)
            longest_wait = max(longest_wait, wait)
        rows.append(
            {
                "team": names_by_id.get(team_id, team_id),
                "games": len(team_games),
                "in_a_row": best,
                "longest_wait": longest_wait,
            }
        )
    rows.sort(key=lambda r: (-r["in_a_row"], -r["longest_wait"], str(r["team"])))
    return problems, rows
