"""How good a plan is on the secondary aims: games in a row, waits, A/B sides.

Pure: standard library only.  The aims are the soft objectives of
``docs/rules/scheduling-standings-seeding.md``, section 2.1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from tournament.engine.scheduling.checks import check_schedule
from tournament.engine.scheduling.matches import Plan, PlannedMatch


class Measures(NamedTuple):
    """The measures of a list of games (see :class:`ScheduleReport` for each)."""

    max_streak: int
    back_to_back: int
    wait_spread: int
    side_imbalance: int
    waits: dict[int, tuple[int, int]]
    max_wait: int


def measure(matches: list[PlannedMatch]) -> Measures:
    """Measure ``games`` (counts in slots or games); the planners compare
    plans on the first three fields, in that order."""
    slots_of: dict[int, list[int]] = defaultdict(list)
    side: Counter[int] = Counter()
    for g in matches:
        slots_of[g.team_a].append(g.slot)
        slots_of[g.team_b].append(g.slot)
        side[g.team_a] += 1
        side[g.team_b] -= 1
    max_streak = 0
    b2b = 0
    waits: dict[int, tuple[int, int]] = {}
    spread = 0
    max_wait = 0
    for team, slots in slots_of.items():
        slots.sort()
        run = 1
        best = 1
        gaps = []
        for s0, s1 in zip(slots, slots[1:], strict=False):
            if s1 == s0 + 1:
                run += 1
                b2b += 1
                best = max(best, run)
            else:
                run = 1
            gaps.append(s1 - s0 - 1)
        max_streak = max(max_streak, best)
        lo, hi = (min(gaps), max(gaps)) if gaps else (0, 0)
        waits[team] = (lo, hi)
        spread = max(spread, hi - lo)
        max_wait = max(max_wait, hi)
    imbalance = max((abs(v) for v in side.values()), default=0)
    return Measures(max_streak, b2b, spread, imbalance, waits, max_wait)


@dataclass(frozen=True)
class ScheduleReport:
    """Measures of a plan (all counts in slots or games).

    ``max_streak``: most games a team plays in consecutive slots (1 = never
    back-to-back); ``back_to_back``: number of times a team plays in two
    consecutive slots; ``waits``: per team ``(min, max)`` idle slots between
    two of its consecutive games (``(0, 0)`` for a team with one game);
    ``max_wait``: the longest idle run of any team; ``wait_spread``: the
    largest ``max - min`` of any team (0 = every team waits evenly);
    ``side_imbalance``: the largest ``|A count - B count|`` of any team;
    ``problems``: ``check_schedule`` on the plan (with the rest check
    when the plan was made with ``rest``) — must be empty.
    """

    slots: int
    lower_bound: int
    gap: int
    max_streak: int
    back_to_back: int
    waits: dict[int, tuple[int, int]] = field(default_factory=dict)
    max_wait: int = 0
    wait_spread: int = 0
    side_imbalance: int = 0
    problems: list[str] = field(default_factory=list)


def report(p: Plan) -> ScheduleReport:
    """Measure ``p`` (a :class:`Plan`) against the secondary aims.

    Returns a :class:`ScheduleReport`; ``problems`` re-runs
    ``check_schedule`` with ``p.groups`` (and ``rest=p.rest``), so an empty
    list means every hard constraint of
    ``docs/rules/scheduling-standings-seeding.md``, section 2.1, holds.
    Raises nothing.
    """
    m = measure(p.matches)
    return ScheduleReport(
        slots=p.slots,
        lower_bound=p.lower_bound,
        gap=p.gap,
        max_streak=m.max_streak,
        back_to_back=m.back_to_back,
        waits=m.waits,
        max_wait=m.max_wait,
        wait_spread=m.wait_spread,
        side_imbalance=m.side_imbalance,
        problems=check_schedule(p.matches, [list(g) for g in p.groups], rest=p.rest, games_per_team=p.games_per_team),
    )
