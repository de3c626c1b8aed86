"""The planned games: one game on a court in a slot, a whole plan, and the
writer that puts a slot's games on courts.

Pure: standard library only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tournament.engine.scheduling.round_robin import Match


@dataclass(frozen=True)
class PlannedMatch:
    """One game of the plan.  ``slot`` and ``round`` are 0-based.

    ``slot`` is the time slot of the game; all courts start slot 0 together
    and a slot is one game plus one changeover long, so two games with the
    same ``slot`` are played at the same time.  ``court`` is a court id.
    ``group`` is the index into the ``groups`` list given to ``plan``;
    ``round`` is the Berger round within that group (the game's round in
    ``berger_rounds``, whatever slot it ends up in); ``team_a`` is side A,
    ``team_b`` side B (team ids).
    """

    slot: int
    court: int
    group: int
    round: int
    team_a: int
    team_b: int


@dataclass(frozen=True)
class Plan:
    """A schedule made by ``plan``.

    ``games`` in start order (slot, then the position of the court in the
    ``courts`` list); ``slots`` = slots used (last slot + 1, 0 without
    games); ``lower_bound`` = ``lower_bound`` for the group sizes, the
    number of courts and ``rest`` (layout-free, so pinning shows up in
    ``gap``); ``layout`` and ``rest`` as requested; ``groups`` and ``courts``
    are copies of the input, kept for ``report``; ``games_per_team`` is
    ``None`` for a full round robin, else the games each team plays
    (``docs/rules/scheduling-standings-seeding.md``, section 1.5).
    """

    matches: list[PlannedMatch]
    slots: int
    lower_bound: int
    layout: str
    rest: bool
    groups: tuple[tuple[int, ...], ...] = ()
    courts: tuple[int, ...] = ()
    games_per_team: int | None = None

    @property
    def gap(self) -> int:
        """Slots above the lower bound (``slots - lower_bound``, >= 0)."""
        return self.slots - self.lower_bound


class SlotWriter:
    """Turns per-slot game lists into PlannedMatchs, choosing the courts.

    Court choice: a group keeps the courts it used last time when they are
    free (a group stays on its courts as much as possible, soft aim 7 of
    ``docs/rules/scheduling-standings-seeding.md``, section 2.1), the other
    games take the free courts in list order.  ``out`` collects the games.
    """

    def __init__(self, courts: list[int]):
        self.courts = courts
        self.last_courts: dict[int, list[int]] = {}
        self.out: list[PlannedMatch] = []

    def write(self, slot: int, items: list[tuple[int, Match]]) -> None:
        """Add the games ``items`` (``(group index, game)`` pairs, at most one
        per court) to ``out`` in ``slot``."""
        items = sorted(items, key=lambda it: (it[0], it[1][0], it[1][1]))
        taken: set[int] = set()
        chosen: list[int | None] = [None] * len(items)
        wanted: dict[int, list[int]] = {gi: list(self.last_courts.get(gi, ())) for gi, _ in items}
        for idx, (gi, _) in enumerate(items):
            while wanted[gi]:
                ci = wanted[gi].pop(0)
                if ci not in taken:
                    chosen[idx] = ci
                    taken.add(ci)
                    break
        free = (ci for ci in range(len(self.courts)) if ci not in taken)
        used: dict[int, list[int]] = defaultdict(list)
        for idx, (gi, g) in enumerate(items):
            if chosen[idx] is None:
                chosen[idx] = next(free)
            used[gi].append(chosen[idx])
            ri, _, a, b = g
            self.out.append(
                PlannedMatch(slot=slot, court=self.courts[chosen[idx]], group=gi, round=ri, team_a=a, team_b=b)
            )
        self.last_courts.update(used)
