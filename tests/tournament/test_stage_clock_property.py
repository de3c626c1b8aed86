"""Random days (issue 29): 2–5 groups, 1–3 courts per division, rest rule on or off, random
delays and closed courts during the groups (and a late team), then seeding and a delay after
it. Whatever the day did, no team is in two places at once, no game after the groups starts
before every game it depends on has ended, and every rest of a rest-rule division is kept.

A seeded random loop (``DAYS`` days, seeds 0…): a failure names its seed, so it is replayed
with ``STAGE_CLOCK_SEED=<seed>``."""

import contextlib
import datetime
import os
import random
from collections import Counter, defaultdict

import pytest

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament.engine import slots
from tournament.models import Group, Match
from tournament.reports.stages import _references
from tournament.services.day_changes import add_late_team, close_court, delay_court
from tournament.services.knockout import seed_divisions
from tournament.services.schedule import make_schedule
from tournament.services.timeline import BackToBack

pytestmark = pytest.mark.django_db

DAYS = int(os.environ.get("STAGE_CLOCK_DAYS", "16"))  # about 25 s on an idle laptop
WIN_A = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
WIN_B = rules.SheetValues(26, 30, 0, rules.JokerHolder.B)


def play(match):
    """The team registered first wins: every place of a group is clear (no tie)."""
    record_confirmed_result(match, WIN_A if match.team_a_id < match.team_b_id else WIN_B)


def random_event(rng):
    """An event of one or two divisions, each with 2–5 groups of 3–5 teams on 1–3 courts."""
    division_count = rng.choice((1, 1, 2))
    plans = [(rng.randint(2, 5), rng.randint(1, 3)) for _ in range(division_count)]
    total_courts = sum(courts for _groups, courts in plans) + rng.randint(0, 1)
    event = factories.make_event(courts=total_courts, game_minutes=rng.choice((10, 15, 20)))
    courts = list(event.courts.order_by("order"))
    first = 0
    for d, (group_count, court_count) in enumerate(plans):
        after = rng.choice(("knockout", "placement", "both"))
        division = factories.make_division(
            event,
            name=f"部{d}",
            courts=[c.name for c in courts[first : first + court_count]],
            layout=rng.choice(("shared", "several_groups_per_court")),
            rest_rule=rng.random() < 0.5,
            after_groups=after,
            qualifiers_per_group=1 if after == "both" or group_count > 2 else rng.choice((1, 2)),
            third_place_game=rng.random() < 0.5,
        )
        mine = courts[first : first + court_count]
        first += court_count
        for g in range(group_count):
            group = Group.objects.create(division=division, name=f"{'ABCDE'[g]}", order=g, court=mine[g % len(mine)])
            for seat, team in enumerate(factories.make_teams(division, rng.randint(3, 5), prefix=f"{d}{g}組"), 1):
                team.group, team.group_seat = group, seat
                team.save(update_fields=["group", "group_seat"])
    make_schedule(event)
    return event


def disturb(rng, event):
    """Play the groups in time order with delays, a closed court and a late team between."""
    games = list(event.matches.filter(stage=Match.Stage.GROUP).order_by("start_at", "match_number"))
    stops = sorted(rng.sample(range(len(games)), min(3, len(games))))
    late_done = False
    played = 0
    for stop in stops:
        for match in Match.objects.filter(stage=Match.Stage.GROUP, event=event, status=Match.Status.SCHEDULED).order_by(
            "start_at", "match_number"
        )[: max(0, stop - played)]:
            play(match)
        played = stop
        open_courts = list(event.courts.filter(closed=False))
        court = rng.choice(open_courts)
        try:
            if rng.random() < 0.25 and len(open_courts) > 1:
                close_court(court)
            else:
                delay_court(court, rng.choice((5, 10, 15, 20, 25, 30, 40, 60)))
            if not late_done and rng.random() < 0.3:
                division = rng.choice(list(event.divisions.filter(games_per_team__isnull=True)))
                group = rng.choice(list(division.groups.all()))
                late_done = True
                add_late_team(factories.make_team(division, f"遅刻{rng.randint(0, 999)}"), group)
        except BackToBack:
            pass  # the organiser cancels a change that breaks the rest rule
    for match in event.matches.filter(stage=Match.Stage.GROUP, status=Match.Status.SCHEDULED):
        play(match)


def minute(event, at):
    midnight = datetime.datetime.combine(event.date, datetime.time(0, 0), tzinfo=at.tzinfo)
    return int((at.astimezone(midnight.tzinfo) - midnight).total_seconds() // 60)


def problems(event):
    """What no day may show: a team in two places, a court holding two games, a game after
    the groups before a game it depends on, a rest broken, a game waiting on a closed court."""
    length = event.game_minutes
    found = []
    games = list(event.matches.exclude(status=Match.Status.VOID).select_related("division", "court"))
    start = {m.pk: minute(event, m.start_at) for m in games}
    by_team, by_court = defaultdict(list), defaultdict(list)
    for m in games:
        by_court[m.court_id].append(m)
        for team in (m.team_a_id, m.team_b_id):
            if team:
                by_team[team].append(m)
    for team, mine in by_team.items():
        mine.sort(key=lambda m: start[m.pk])
        for a, b in zip(mine, mine[1:]):
            need = length if a.division.rest_rule else 0
            if start[b.pk] < start[a.pk] + length + need:
                found.append(f"team {team}: game {a.match_number} then {b.match_number}")
    for court, mine in by_court.items():
        mine.sort(key=lambda m: start[m.pk])
        for a, b in zip(mine, mine[1:]):
            if start[b.pk] < start[a.pk] + length:
                found.append(f"court {court}: game {a.match_number} and {b.match_number} at once")
    found += _before_sources(event, games, start)
    found += [f"game {m.match_number} on closed {m.court}" for m in games if m.court.closed and not m.has_result]
    return found


def _before_sources(event, games, start):
    """A game after the groups that starts before a game deciding one of its sides has ended
    (plus the rest of a team the side may hold, in a rest-rule division)."""
    length = event.game_minutes
    found = []
    for division in event.divisions.all():
        mine = [m for m in games if m.division_id == division.pk]
        groups = defaultdict(list)
        for m in mine:
            if m.stage == Match.Stage.GROUP:
                groups[m.group_id].append(m)
        by_pk = {m.pk: m for m in mine}
        for pk, references in _references(mine).items():
            game = by_pk[pk]
            if game.stage == Match.Stage.GROUP:
                continue
            for reference, held in zip(references, (game.team_a_id, game.team_b_id)):
                if not reference:
                    continue
                ref = slots.parse(reference)
                if ref.kind == "group":
                    sources = groups[ref.target]
                elif ref.kind == "best":
                    sources = [m for ms in groups.values() for m in ms]
                else:
                    sources = [by_pk[ref.target]]
                for source in sources:
                    # A side whose team is known rests after its own games; one still open may
                    # be any team of the source's game.
                    plays = held is None or held in (source.team_a_id, source.team_b_id)
                    rest = length if division.rest_rule and plays else 0
                    if start[game.pk] < start[source.pk] + length + rest:
                        found.append(f"game {game.match_number} before its source {source.match_number} ends")
    return found


def one_day(seed):
    rng = random.Random(seed)
    event = random_event(rng)
    disturb(rng, event)
    seed_divisions(event)
    found = [f"after seeding: {p}" for p in problems(event)]
    stage = list(event.matches.exclude(stage=Match.Stage.GROUP).select_related("court"))
    if stage:
        court = rng.choice([m.court for m in stage])
        with contextlib.suppress(BackToBack):  # the organiser cancels a change that breaks the rest rule
            delay_court(court, rng.choice((10, 20, 45)))
        found += [f"after a delay of {court}: {p}" for p in problems(event)]
    return found


def _kind(problem):
    for kind in ("before its source", "on closed", "at once", " then "):
        if kind in problem:
            return ("after a delay: " if "delay" in problem else "") + kind.strip()
    return problem


def test_random_days_keep_every_game_after_what_it_depends_on():
    seeds = [int(os.environ["STAGE_CLOCK_SEED"])] if "STAGE_CLOCK_SEED" in os.environ else range(DAYS)
    failures, kinds = {}, Counter()
    for seed in seeds:
        found = one_day(seed)
        if found:
            failures[seed] = found[:3]
            kinds.update({_kind(p) for p in found})
    print(f"{len(seeds)} random days, {len(failures)} with a problem: {dict(kinds)}")
    assert not failures, failures
