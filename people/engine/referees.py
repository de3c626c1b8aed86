"""Referees on games (pure; issue 32 item 4, docs/people.md "Referees").

The games of a day fall into time blocks (the distinct start times, in order: index 0, 1 …).
A referee judges at most one game per block, never a game of a team of their own club, and
after ``rest`` games in consecutive blocks sits the next block out (``rest`` 0: never rests).
Games are filled block by block, court by court; among the referees free to take a game the one
with the fewest games so far is chosen, then the one who judged this court in the block before
(the referee stays at the court), then the lowest id. Games given by hand are kept as they are.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    id: int
    block: int  # time block index, 0 first
    court: int  # court order (the tie-break between games of one block)
    clubs: frozenset[str]  # the club keys of both teams ("" left out)


@dataclass(frozen=True)
class Referee:
    id: int
    club: str  # club key, "" for none


@dataclass(frozen=True)
class Plan:
    assigned: dict[int, int]  # game id -> referee id
    unassigned: tuple[int, ...]  # games no referee could take, in order


def blocks_of(starts: list[int]) -> dict[int, int]:
    """Each start (minutes) -> its block index: the distinct starts in order."""
    return {start: i for i, start in enumerate(sorted(set(starts)))}


def resting(blocks: set[int], block: int, rest: int) -> bool:
    """Whether a referee who judged in ``blocks`` must sit out ``block``: they judged the
    ``rest`` blocks just before it (``rest`` 0: never)."""
    return rest > 0 and all(block - k in blocks for k in range(1, rest + 1))


def may_judge(referee: Referee, game: Game) -> bool:
    """A referee never judges a game of a team of their own club."""
    return not referee.club or referee.club not in game.clubs


def plan(games: list[Game], referees: list[Referee], rest: int, fixed: dict[int, int] | None = None) -> Plan:
    """Referees for ``games``: ``fixed`` (game id -> referee id, by hand) kept, the others filled
    by the rule of this module. Returns the ``Plan``; a game no one may take is unassigned."""
    fixed = dict(fixed or {})
    by_id = {r.id: r for r in referees}
    busy: dict[int, set[int]] = {r.id: set() for r in referees}
    last_court: dict[int, tuple[int, int]] = {}
    count = {r.id: 0 for r in referees}
    for game in games:
        ref = fixed.get(game.id)
        if ref in busy:
            busy[ref].add(game.block)
            count[ref] += 1
            last_court[ref] = (game.block, game.court)
    assigned = {g: r for g, r in fixed.items() if r in by_id}
    unassigned = []
    for game in sorted(games, key=lambda g: (g.block, g.court, g.id)):
        if game.id in assigned:
            continue
        free = [
            r
            for r in referees
            if game.block not in busy[r.id] and may_judge(r, game) and not resting(busy[r.id], game.block, rest)
        ]
        if not free:
            unassigned.append(game.id)
            continue

        def key(r, game=game):
            stays = last_court.get(r.id) == (game.block - 1, game.court)
            return (count[r.id], 0 if stays else 1, r.id)

        chosen = min(free, key=key)
        assigned[game.id] = chosen.id
        busy[chosen.id].add(game.block)
        count[chosen.id] += 1
        last_court[chosen.id] = (game.block, game.court)
    return Plan(assigned, tuple(unassigned))
