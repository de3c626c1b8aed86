"""Changes on the day in minutes: a court's delay, and the games a team plays too close
together (docs/rules/scheduling-standings-seeding.md, §5).

Pure: standard library only.  Times are whole minutes from midnight; games are named by
the caller's keys (match ids), teams by ids.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from tournament.engine.scheduling.clock import Clock


@dataclass(frozen=True)
class CourtGame:
    """One game of a court: ``key`` (the caller's id), ``start`` and ``end`` (minutes) and
    ``fixed`` (started or played: it never moves)."""

    key: int
    start: int
    end: int
    fixed: bool


class TooEarly(ValueError):
    """A delay would move game ``key`` before ``limit`` (minutes): the end of the game
    ``before`` (a key) on its court, or the court's opening when ``before`` is None."""

    def __init__(self, key: int, limit: int, before: int | None) -> None:
        super().__init__(f"game {key} would start before {limit} ({'opening' if before is None else before})")
        self.key, self.limit, self.before = key, limit, before


def shift_court(games: list[CourtGame], minutes: int, clock: Clock, court: int) -> dict[int, int]:
    """New starts of a court's games after a delay of ``minutes`` (negative: earlier).

    In: the court's ``games`` (any order; sorted here by start, then key), the delay, the
    event's ``clock`` and the ``court`` id (for its opening).  Out: ``{key: new start}``
    for every game that is not fixed.  Rules: fixed games never move; each moving game
    starts ``minutes`` later, but never before the previous game on the court ends plus the
    changeover (the order and changeover are kept), and a game that would fall into the
    lunch break starts when lunch ends (``Clock.fit``), so the games after it move too.
    Raises ``TooEarly`` when a negative delay would start a game before the end of a
    fixed game before it on the court, or before the court opens.
    """
    moved: dict[int, int] = {}
    previous_end: int | None = None  # the end of the game before, moved or fixed
    fixed_before: CourtGame | None = None  # the fixed game before that ends last
    opening = clock.opening(court)
    for game in sorted(games, key=lambda g: (g.start, g.key)):
        if game.fixed:
            previous_end = game.end if previous_end is None else max(previous_end, game.end)
            if fixed_before is None or game.end > fixed_before.end:
                fixed_before = game
            continue
        start = game.start + minutes
        if minutes < 0 and start < opening:
            raise TooEarly(game.key, opening, None)
        if minutes < 0 and fixed_before is not None and start < fixed_before.end:
            raise TooEarly(game.key, fixed_before.end, fixed_before.key)
        if previous_end is not None:
            start = max(start, previous_end + clock.changeover_minutes)
        start = clock.fit(start)
        moved[game.key] = start
        previous_end = start + clock.game_minutes
    return moved


@dataclass(frozen=True)
class TeamGame:
    """A team's game: ``team`` id, game ``key``, ``start`` and ``end`` (minutes)."""

    team: int
    key: int
    start: int
    end: int


def too_close(games: list[TeamGame], rest: dict[int, int]) -> set[tuple[int, int, int]]:
    """The pairs of games a team plays too close together: ``{(team, earlier key, later key)}``.

    ``rest`` gives per team id the least wait (minutes) between the end of one of its games
    and the start of its next: the game length for a team of a division with the rest rule
    (no team plays two games in a row), 0 otherwise (never two games at once); a team not
    in ``rest`` needs 0.  Only consecutive games of a team are compared.
    """
    by_team: dict[int, list[TeamGame]] = {}
    for game in games:
        by_team.setdefault(game.team, []).append(game)
    found = set()
    for team, mine in by_team.items():
        mine.sort(key=lambda g: (g.start, g.key))
        need = rest.get(team, 0)
        for before, after in itertools.pairwise(mine):
            if after.start - before.end < need:
                found.add((team, before.key, after.key))
    return found


def free_at(start: int, length: int, busy: list[tuple[int, int]], gap: int) -> bool:
    """Whether a game ``[start, start + length)`` leaves at least ``gap`` minutes before and
    after each ``(start, end)`` of ``busy`` (a court's or a team's other games)."""
    end = start + length
    return all(end + gap <= s or start >= e + gap for s, e in busy)


def earliest_free(
    earliest: int,
    length: int,
    court_busy: list[tuple[int, int]],
    change: int,
    team_busy: list[tuple[list[tuple[int, int]], int]],
    fit: Callable[[int], int],
) -> int:
    """The earliest start (minutes) at or after ``earliest`` of a game of ``length`` minutes
    on a court whose games are ``court_busy`` (``(start, end)``), leaving ``change`` minutes
    before and after each, while each team keeps ``gap`` minutes from its games
    (``team_busy``: ``(its games' (start, end), gap)``). ``fit`` moves a start out of the
    lunch break (``Clock.fit``). The candidates are ``earliest`` and the end of every busy
    game plus its gap, so the result is exact in minutes, and there always is one (after
    every busy game). Rule: docs/rules/scheduling-standings-seeding.md, §5."""
    candidates = {earliest}
    candidates.update(end + change for _start, end in court_busy)
    candidates.update(end + gap for busy, gap in team_busy for _start, end in busy)
    for candidate in sorted(c for c in candidates if c >= earliest):
        start = fit(candidate)
        if free_at(start, length, court_busy, change) and all(free_at(start, length, b, g) for b, g in team_busy):
            return start
    raise AssertionError("unreachable: the last candidate is after every busy game")  # pragma: no cover


@dataclass(frozen=True)
class DayGame:
    """A game of the day for ``reflow``: ``key``, its ``court`` id, its ``start`` (minutes),
    its ``teams`` (ids) and ``fixed`` (started or played: it never moves)."""

    key: int
    court: int
    start: int
    teams: tuple[int, ...]
    fixed: bool


def reflow(games: list[DayGame], clock: Clock, gap: Callable[[int], int], old_length: int) -> dict[int, int]:
    """New starts of the day's games on a changed ``clock`` (start time, game or changeover
    minutes, lunch break), as a delay moves them: ``{key: start}`` for every game that is not
    fixed.

    The games are taken in the order of their old starts (then key); each starts no earlier
    than it did, than its court opens, than the game before it on its court ends plus the
    changeover, and than each of its teams' previous games ends plus ``gap(team)`` (minutes:
    the rest rule's game length, else the changeover) — or the shorter wait the two games
    had before with games of ``old_length`` minutes, so a wait the organiser accepted stays
    accepted; then out of the lunch
    break (``Clock.fit``). Fixed games stay, and count as their court's and teams' games.
    Rule: docs/rules/scheduling-standings-seeding.md, §5, "A change of the clock"."""
    length, change = clock.game_minutes, clock.changeover_minutes
    court_end: dict[int, int] = {}
    team_last: dict[int, tuple[int, int]] = {}  # team -> (its last game's new end, old end)
    moved: dict[int, int] = {}
    for game in sorted(games, key=lambda g: (g.start, g.key)):
        if game.fixed:
            start = game.start
        else:
            start = max(game.start, clock.opening(game.court))
            if game.court in court_end:
                start = max(start, court_end[game.court] + change)
            for team in game.teams:
                if team in team_last:
                    new_end, old_end = team_last[team]
                    start = max(start, new_end + min(gap(team), max(0, game.start - old_end)))
            start = clock.fit(start)
            moved[game.key] = start
        court_end[game.court] = max(court_end.get(game.court, start + length), start + length)
        for team in game.teams:
            team_last[team] = (start + length, game.start + old_length)
    return moved
