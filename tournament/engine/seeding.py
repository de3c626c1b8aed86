"""Seeding group qualifiers into the first round of a knockout bracket.

Responsibility
--------------
* ``standard_seed_order`` / ``bracket_size``: the standard seed positions of
  a bracket of a power-of-two size
  (``docs/rules/scheduling-standings-seeding.md``, section 4.1).
* ``seed_bracket`` places the qualifiers, given in seed order, on the first
  round line-up: byes to the top seeds, group-mates in opposite halves and
  meeting as late as the format allows (``docs/rules/hitachi-karuta.md``,
  "Standings, walkovers, knockout"; ``docs/rules/scheduling-standings-seeding.md``,
  sections 4.2 and 4.3).
* ``first_round_pairs`` reads a line-up as first-round games.

What it must not do
-------------------
This module is pure: standard library only, no Django import, no database
access, no I/O.  It works on plain team ids; a bye is ``None`` and is never
used for a "to be decided" slot (``docs/rules/scheduling-standings-seeding.md``,
section 4.4): seeding starts only once every qualifier is known.  Every
function is deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Qualifier",
    "bracket_size",
    "first_round_pairs",
    "meeting_round",
    "seed_bracket",
    "standard_seed_order",
]

MAX_SEARCH = 16  # largest number of qualifiers placed by search


@dataclass(frozen=True)
class Qualifier:
    """A team that qualified: ``group`` is the 0-based group index, ``place``
    its final place in the group (1 = group winner)."""

    team: int
    group: int
    place: int


def standard_seed_order(size: int) -> list[int]:
    """Seed numbers by line-up position for a bracket of ``size`` lines.

    4 -> [1, 4, 2, 3]; 8 -> [1, 8, 4, 5, 2, 7, 3, 6].  Built by doubling: in
    a bracket of ``2k`` lines seed ``s`` meets seed ``2k + 1 - s``
    (``docs/rules/scheduling-standings-seeding.md``, section 4.1).  Raises
    ``ValueError`` unless ``size`` is a power of two >= 2.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two >= 2, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def bracket_size(n: int) -> int:
    """Smallest power of two >= ``n`` qualifiers.

    Raises ``ValueError`` for ``n < 2``: a single qualifier means there is no
    knockout to play.
    """
    if n < 2:
        raise ValueError(f"a knockout needs at least 2 qualifiers, not {n}")
    return 1 << (n - 1).bit_length()


def meeting_round(i: int, j: int) -> int:
    """Round (1 = first round) in which line-up positions ``i`` and ``j``
    meet if both keep winning."""
    return (i ^ j).bit_length()


def first_round_pairs(lineup: Sequence[int | None]) -> list[tuple[int | None, int | None]]:
    """First-round games of a line-up: positions (0, 1), (2, 3), ...

    ``None`` is a bye: its opponent goes through without playing.  Raises
    ``ValueError`` for a line-up of odd length.
    """
    if len(lineup) % 2:
        raise ValueError("a line-up has an even number of positions")
    return [(lineup[i], lineup[i + 1]) for i in range(0, len(lineup), 2)]


def seed_bracket(qualifiers: Sequence[Qualifier]) -> list[int | None]:
    """Place the qualifiers on the first-round line-up; ``None`` is a bye.

    ``qualifiers`` must be in seed order: all group winners first (best
    first), then all runners-up, and so on (``place`` never decreases).
    The result has ``bracket_size(n)`` positions; positions 0 and 1 play
    each other, then 2 and 3, ...  Seeds ``n + 1 .. P`` are byes, so the
    byes go to the top seeds (``docs/rules/scheduling-standings-seeding.md``,
    section 4.1).

    Group-mates are kept apart (``docs/rules/hitachi-karuta.md``, "Standings,
    walkovers, knockout"; ``docs/rules/scheduling-standings-seeding.md``, sections 4.2
    and 4.3):

    * Exactly the top 2 of 2, 4 or 8 groups: the verified cross-over tables
      (2 groups A1-B2 | B1-A2; 4 groups, UEFA EURO 2012: A1-B2, C1-D2 |
      B1-A2, D1-C2; 8 groups, FIFA World Cup 2018: 1A-2B, 1C-2D, 1E-2F,
      1G-2H | 1B-2A, 1D-2C, 1F-2E, 1H-2G).  The group letters follow the
      order in which the winners are passed: A is the first winner's group,
      B the second's, ...  Pass the winners in group order to get the
      published tables literally; pass them best first and the best winner
      takes A's line.  Note that in the 4- and 8-group tables the winners
      passed 1st and 3rd share a half (not 1st and 4th as in standard
      seeding): the table wins.
    * Exactly the top 2 of 3 groups (section 4.2, "3 groups"): W1-bye, R2-R3 |
      W2-bye, W3-R1, with Wi the i-th winner passed and Ri the runner-up of Wi's
      group.
    * Any other combination (at most 16 qualifiers when groups send more
      than one team): a small exhaustive search.  Each place keeps its block
      of seeds (winners get seeds 1..g, so the better seeds and the byes;
      runners-up the next ones; ...); teams only swap seeds inside their
      place, in two steps:

      1. the first place (normally the winners) keeps the order given,
         unless that forces group-mates to meet in round 1 and another
         order avoids it; then the first such order (seed 1 keeps the first
         team if it can, then seed 2, ...) is used.  E.g. 3 winners and the
         runner-up of the best winner's group give W2-R | W1-W3, the
         pairings of section 4.2 ("3 groups");
      2. with the first place fixed, the other places are arranged so that
         group-mates meet as late as possible: fewest group-mate pairs
         meeting in round 1, then in round 2, and so on; ties go to the
         layout closest to the order given.

      So with no group-mates the result is plain standard seeding, and a
      first-round rematch happens only when it cannot be avoided (e.g. the
      two qualifiers of a single group).

    Raises ``ValueError`` for fewer than 2 qualifiers, a team listed twice,
    two qualifiers with the same group and place, places out of order, or
    more than 16 qualifiers with group-mates and no table.
    """
    qualifiers = list(qualifiers)
    size = bracket_size(len(qualifiers))
    _check(qualifiers)
    table = _cross_over_table(qualifiers)
    if table is not None:
        return table
    order = _search(qualifiers, size)
    lineup: list[int | None] = [None] * size
    for position, seed in enumerate(standard_seed_order(size)):
        if seed <= len(order):
            lineup[position] = order[seed - 1].team
    return lineup


def _check(qualifiers: list[Qualifier]) -> None:
    if len({q.team for q in qualifiers}) != len(qualifiers):
        raise ValueError("a team is listed twice")
    if len({(q.group, q.place) for q in qualifiers}) != len(qualifiers):
        raise ValueError("two qualifiers share a group and a place")
    if any(a.place > b.place for a, b in zip(qualifiers, qualifiers[1:], strict=False)):
        raise ValueError("qualifiers must be in seed order: places never decrease")


def _cross_over_table(qualifiers: list[Qualifier]) -> list[int | None] | None:
    """The verified line-up for the top 2 of 2, 3, 4 or 8 groups, else None."""
    g, odd = divmod(len(qualifiers), 2)
    winners, runners_up = qualifiers[:g], qualifiers[g:]
    if odd or g not in (2, 3, 4, 8):
        return None
    if any(q.place != 1 for q in winners) or any(q.place != 2 for q in runners_up):
        return None
    runner_up_of = {q.group: q.team for q in runners_up}
    if set(runner_up_of) != {w.group for w in winners}:
        return None
    w = [q.team for q in winners]
    r = [runner_up_of[q.group] for q in winners]
    if g == 3:
        return [w[0], None, r[1], r[2], w[1], None, w[2], r[0]]
    top = [team for k in range(0, g, 2) for team in (w[k], r[k + 1])]
    bottom = [team for k in range(0, g, 2) for team in (w[k + 1], r[k])]
    return top + bottom


def _ideal_counts(members: int, level: int, counts: list[int]) -> None:
    """Add the fewest possible meetings per round for ``members`` group-mates
    in a sub-bracket whose final is round ``level`` (an even split at every
    level minimises the meetings up to every round at once)."""
    if members < 2:
        return
    high, low = (members + 1) // 2, members // 2
    counts[level] += high * low
    _ideal_counts(high, level - 1, counts)
    _ideal_counts(low, level - 1, counts)


def _search(qualifiers: list[Qualifier], size: int) -> list[Qualifier]:
    """Qualifiers by seed (index 0 = seed 1), see ``seed_bracket``."""
    n = len(qualifiers)
    if len({q.group for q in qualifiers}) == n:
        return qualifiers  # no group-mates: plain standard seeding
    if n > MAX_SEARCH:
        raise ValueError(f"seeding more than {MAX_SEARCH} qualifiers with group-mates needs a fixed table")
    # candidates for seed k + 1: the qualifiers of the same place, in given order
    candidates = [[i for i, other in enumerate(qualifiers) if other.place == q.place] for q in qualifiers]
    # seed s meets seed size + 1 - s in round 1 (index size - 1 - k; a bye if >= n)
    partner = [size - 1 - k if size - 1 - k < n else None for k in range(n)]
    top_order = _avoid_first_round(qualifiers, candidates, partner)
    for k in candidates[0]:
        candidates[k] = [top_order[k] if top_order else k]
    return [qualifiers[i] for i in _latest_meetings(qualifiers, candidates, size)]


def _avoid_first_round(
    qualifiers: list[Qualifier], candidates: list[list[int]], partner: list[int | None]
) -> list[int] | None:
    """First layout, in given order, with no group-mates meeting in round 1.

    Depth-first over the seeds, with forward checking on each seed's round-1
    opponent; ``None`` when round-1 meetings cannot be avoided.
    """
    n = len(qualifiers)
    chosen: list[int] = []
    used = [False] * n

    def mates(i: int, j: int) -> bool:
        return qualifiers[i].group == qualifiers[j].group

    def dfs(k: int) -> bool:
        if k == n:
            return True
        p = partner[k]
        for i in candidates[k]:
            if used[i]:
                continue
            if p is not None and p < k and mates(i, chosen[p]):
                continue
            if p is not None and p > k and all(used[j] or j == i or mates(i, j) for j in candidates[p]):
                continue
            used[i] = True
            chosen.append(i)
            if dfs(k + 1):
                return True
            chosen.pop()
            used[i] = False
        return False

    return chosen if dfs(0) else None


def _latest_meetings(qualifiers: list[Qualifier], candidates: list[list[int]], size: int) -> list[int]:
    """Layout (qualifier index by seed) whose group-mates meet latest.

    Depth-first over the seeds in order, candidates in given order, so the
    first best layout found is the one closest to the given order.  The
    objective is the number of group-mate pairs meeting in round 1, 2, ...,
    compared lexicographically; counts only grow as seeds are filled, so a
    partial layout not better than the best so far is dropped, and the search
    stops at the ideal spread.
    """
    n = len(qualifiers)
    rounds = size.bit_length() - 1
    position = {seed: pos for pos, seed in enumerate(standard_seed_order(size))}
    group_sizes = Counter(q.group for q in qualifiers)
    ideal = [0] * (rounds + 1)
    for members in group_sizes.values():
        _ideal_counts(members, rounds, ideal)

    counts = [0] * (rounds + 1)  # group-mate pairs meeting in each round
    placed: dict[int, list[int]] = {group: [] for group in group_sizes}
    chosen: list[int] = []
    used = [False] * n
    best: list[list[int]] = []  # [counts, layout] of the best full layout

    def dfs(k: int) -> bool:
        """Fill seed k + 1 onwards; True once the ideal is reached."""
        if k == n:
            best[:] = [counts[:], chosen[:]]
            return counts == ideal
        pos = position[k + 1]
        for i in candidates[k]:
            if used[i]:
                continue
            group_positions = placed[qualifiers[i].group]
            met = [meeting_round(pos, other) for other in group_positions]
            for r in met:
                counts[r] += 1
            if not best or counts < best[0]:
                used[i] = True
                chosen.append(i)
                group_positions.append(pos)
                if dfs(k + 1):
                    return True
                group_positions.pop()
                chosen.pop()
                used[i] = False
            for r in met:
                counts[r] -= 1
        return False

    dfs(0)
    return best[1]
