"""The group draw: sharing the free courts among divisions, and dealing teams into groups.

Responsibility
--------------
* ``share_courts`` gives each division without courts of its own a share of the free
  courts, in proportion to its teams (largest remainder), at least one each.
* ``spread_into_groups`` deals a division's teams into its groups: seeded teams first in
  seed order, the others in a random order, in snake order (A B C, C B A, …), then swaps
  teams of one seeding tier to keep teams of one club apart (docs/rules/draw.md, "Groups").

What it must not do
-------------------
Pure: standard library only, no Django, no database, no translated text. It works on
plain ids and small records; the service (``tournament.services.draw``) reads the teams,
calls these functions and writes the groups.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["DrawEntry", "NotEnoughCourts", "share_courts", "spread_into_groups"]


class NotEnoughCourts(ValueError):
    """Fewer free courts than divisions that need one; ``divisions`` and ``courts`` count them."""

    def __init__(self, divisions: int, courts: int):
        super().__init__(f"{divisions} divisions need a court each, {courts} are free")
        self.divisions = divisions
        self.courts = courts


@dataclass(frozen=True)
class DrawEntry:
    """A team in the draw: ``seed`` (1 best, None unseeded), its ``entry_number`` (the order of
    entry, breaks ties between equal seeds) and ``club`` (the normalised affiliation, None when
    the team gave none)."""

    team: int
    seed: int | None = None
    entry_number: int = 0
    club: str | None = None


def share_courts(free_courts: Sequence[int], team_counts: Mapping[int, int]) -> dict[int, list[int]]:
    """Share ``free_courts`` (court ids, in court order) among divisions.

    ``team_counts`` maps each division id that needs courts, in division order, to its number of
    teams. Every division gets at least one court; the rest go in proportion to the teams, by
    the largest remainder. Returns division id -> its courts (consecutive runs of
    ``free_courts``). Raises ``NotEnoughCourts`` when there are fewer free courts than divisions.
    """
    divisions = list(team_counts)
    if not divisions:
        return {}
    if len(free_courts) < len(divisions):
        raise NotEnoughCourts(len(divisions), len(free_courts))
    total = sum(team_counts.values()) or 1
    share = dict.fromkeys(divisions, 1)
    spare = len(free_courts) - len(divisions)
    quotas = {d: team_counts[d] / total * len(free_courts) - 1 for d in divisions}
    for d in divisions:
        extra = min(spare, max(0, math.floor(quotas[d])))
        share[d] += extra
        spare -= extra
    for d in sorted(divisions, key=lambda d: -(quotas[d] - math.floor(quotas[d]))):
        if spare == 0:
            break
        share[d] += 1
        spare -= 1
    result, start = {}, 0
    for d in divisions:
        result[d] = list(free_courts[start : start + share[d]])
        start += share[d]
    return result


def spread_into_groups(entries: Sequence[DrawEntry], group_count: int, rng: random.Random) -> list[list[int]]:
    """Deal ``entries`` into ``group_count`` groups; returns the team ids of each group in seat order.

    Seeded teams first (1 best, then by entry number), then the rest in the order ``rng``
    shuffles them, dealt in snake order so group sizes differ by at most one. Then, while a
    group holds two teams of one club, one of them swaps places with a team of another group
    of the same seeding tier (or unseeded, like it) when the swap makes no new clash. Swaps
    keep the group sizes; where no swap helps, the clash stays.
    """
    seeded = sorted((e for e in entries if e.seed), key=lambda e: (e.seed, e.entry_number, e.team))
    rest = [e for e in entries if not e.seed]
    rng.shuffle(rest)
    groups: list[list[DrawEntry]] = [[] for _ in range(group_count)]
    tier = {}
    for i, entry in enumerate(seeded + rest):
        round_index, pos = divmod(i, group_count)
        groups[pos if round_index % 2 == 0 else group_count - 1 - pos].append(entry)
        tier[entry.team] = round_index if entry.seed else None
    _keep_clubs_apart(groups, tier)
    return [[e.team for e in group] for group in groups]


def _clashes(group: list[DrawEntry], entry: DrawEntry, leaving: DrawEntry | None = None) -> bool:
    """Whether ``entry`` would share a club with a team of ``group`` (not counting ``leaving``)."""
    return entry.club is not None and any(
        other.club == entry.club for other in group if other is not entry and other is not leaving
    )


def _keep_clubs_apart(groups: list[list[DrawEntry]], tier: dict[int, int | None]) -> None:
    """Swap teams of one tier between groups until no swap removes a club clash (in place).

    Passes run until one changes nothing: a swap can unblock a clash that no swap could mend
    before. Each swap removes at least one clash, so this ends.
    """
    changed = True
    while changed:
        changed = False
        for g, group in enumerate(groups):
            for entry in list(group):
                if entry not in groups[g] or not _clashes(groups[g], entry):
                    continue
                swap = next(
                    (
                        (h, other)
                        for h, other_group in enumerate(groups)
                        if h != g
                        for other in other_group
                        if tier[other.team] == tier[entry.team]
                        and not _clashes(other_group, entry, leaving=other)
                        and not _clashes(groups[g], other, leaving=entry)
                    ),
                    None,
                )
                if swap is not None:
                    h, other = swap
                    groups[g][groups[g].index(entry)] = other
                    groups[h][groups[h].index(other)] = entry
                    changed = True
