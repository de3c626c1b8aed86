"""The clock after the groups: the earliest start of a knockout or placement game, derived
from the games that decide its slots (docs/rules/scheduling-standings-seeding.md, §5, "The
stage after the groups"; docs/rules/stages.md, "Slots").

A side of a game after the groups is a slot reference (``tournament.engine.slots``):
``group:<group>:<place>`` is decided by every game of that group, ``best:<place>:<rank>`` by
every game of every group it compares (the division's), ``winner:<game>`` and
``loser:<game>`` by that game. A game starts no earlier than the end of each of those games,
plus, where a game it waits for is played by a team it may hold, that team's rest (its
division's rest rule: one game's length; else the changeover). Where it may then start on a
court (free, open, out of the lunch break) is ``earliest_court``.

Pure: standard library only. Times are whole minutes from midnight; games are the caller's
keys (match ids), teams and groups ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tournament.engine import slots
from tournament.engine.scheduling.day import earliest_free


@dataclass(frozen=True)
class Timed:
    """A game as the clock knows it: ``start`` and ``end`` (minutes) and ``teams`` (ids): the
    teams it holds, and for a game whose sides are not known yet every team it may hold."""

    start: int
    end: int
    teams: frozenset[int]


@dataclass(frozen=True)
class Groups:
    """What the references of one division point at: per group id the keys of its games
    (void games left out) and the ids of its teams."""

    games: Mapping[int, Sequence[int]]
    teams: Mapping[int, frozenset[int]]


@dataclass(frozen=True)
class Earliest:
    """The earliest start of a game (``minute``) and why: ``source`` the key of the game it
    waits for (None: nothing to wait for), ``team`` the team whose rest counts (None: none)."""

    minute: int
    source: int | None = None
    team: int | None = None


def sources(reference: str, groups: Groups) -> tuple[int, ...]:
    """The keys of the games that decide ``reference``: a group's games for a group place,
    every group's for a place compared across groups, the game itself for a winner or
    loser. An unknown group gives none; ``slots.ReferenceError`` for a malformed reference."""
    ref = slots.parse(reference)
    if ref.kind == "group":
        return tuple(groups.games.get(ref.target, ()))
    if ref.kind == "best":
        return tuple(key for group in sorted(groups.games) for key in groups.games[group])
    return (ref.target,)


def may_hold(reference: str, groups: Groups, holds: Mapping[int, frozenset[int]]) -> frozenset[int]:
    """The teams that may fill ``reference``: a group's teams, every group's for a place
    compared across groups, and for a winner or loser the teams that game holds or may hold
    (``holds``, by game key; a game not in it: none)."""
    ref = slots.parse(reference)
    if ref.kind == "group":
        return frozenset(groups.teams.get(ref.target, ()))
    if ref.kind == "best":
        return frozenset().union(*groups.teams.values())
    return holds.get(ref.target, frozenset())


def dependency_order(references: Mapping[int, Sequence[str]]) -> list[int]:
    """The keys of ``references`` (game key -> its sides' references) so that a game comes
    after every game of these whose winner or loser it takes; otherwise in key order. A
    reference to a game not in ``references`` (a group game, or none) adds no order.
    Raises ``ValueError`` for a circle."""
    order: list[int] = []
    state: dict[int, int] = {}  # 1: being visited, 2: done

    def visit(key: int) -> None:
        if state.get(key) == 2:
            return
        if state.get(key) == 1:
            raise ValueError(f"game {key} waits for itself")
        state[key] = 1
        for reference in references[key]:
            if reference:
                ref = slots.parse(reference)
                if ref.kind in ("winner", "loser") and ref.target in references:
                    visit(ref.target)
        state[key] = 2
        order.append(key)

    for key in sorted(references):
        visit(key)
    return order


def earliest_start(
    references: Sequence[str],
    teams: frozenset[int],
    groups: Groups,
    games: Mapping[int, Timed],
    rest: Callable[[int], int],
    floor: int = 0,
    change: int = 0,
) -> Earliest:
    """The earliest start of a game whose sides are ``references`` ("" for a side fixed by
    hand) and that holds or may hold ``teams``: the latest, over every game that decides one
    of its slots (``sources``; ``games`` by key, a key missing there is left out), of that
    game's end plus ``change`` (minutes: the result is in and the teams called), or plus
    ``rest(team)`` for the teams of ``teams`` that play it when that is longer. Never before
    ``floor``. Rule: docs/rules/scheduling-standings-seeding.md, §5."""
    best = Earliest(floor)
    seen: set[int] = set()
    for reference in references:
        if not reference:
            continue
        for key in sources(reference, groups):
            if key in seen or key not in games:
                continue
            seen.add(key)
            game = games[key]
            shared = sorted(teams & game.teams)
            wait, team = change, None
            for t in shared:
                if rest(t) > wait or (team is None and rest(t) == wait):
                    wait, team = rest(t), t
            if game.end + wait > best.minute:
                best = Earliest(game.end + wait, key, team)
    return best


@dataclass(frozen=True)
class Court:
    """A court a game may go to: its ``key`` (id), the minute it ``opens`` and its games'
    ``busy`` ``(start, end)`` (minutes)."""

    key: int
    opens: int
    busy: Sequence[tuple[int, int]]


def earliest_court(
    courts: Sequence[Court],
    earliest: int,
    length: int,
    change: int,
    team_busy: Sequence[tuple[Sequence[tuple[int, int]], int]],
    fit: Callable[[int], int],
) -> tuple[int, int] | None:
    """``(court key, start)``: the earliest start at or after ``earliest`` of a game of
    ``length`` minutes over ``courts`` (open courts only: a closed court is not given), each
    from its opening, a changeover ``change`` before and after its games, each team keeping
    its gap (``team_busy``: ``(its games, gap)``), out of the lunch break (``fit``,
    ``Clock.fit``). A tie goes to the court first in ``courts``. None when no court is given.
    Rule: docs/rules/scheduling-standings-seeding.md, §5."""
    found: tuple[int, int] | None = None
    for court in courts:
        start = earliest_free(
            max(earliest, court.opens), length, list(court.busy), change, [(list(b), g) for b, g in team_busy], fit
        )
        if found is None or start < found[1]:
            found = (court.key, start)
    return found
