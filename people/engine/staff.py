"""The referees and the duty roster shaped for the 大会プログラム (pure; issue 34 item 1,
docs/programme.md "staff", docs/people.md "Referees" and "Duty roster"). Times are minutes
after midnight.

- The referees' table: the games' distinct start times are the time blocks (as
  :func:`people.engine.referees.plan` takes them), one row per block, one column per court;
  a cell is the referee of the game at that court then.
- The roster's lines: each role's names per block, a role holding the same people in
  consecutive blocks printed once over those blocks (受付 8:30–12:00 rather than twice).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DutyLine", "Judged", "duty_lines", "referee_grid"]

NO_GAME = None  # a cell where the court has no game at that time


@dataclass(frozen=True)
class Judged:
    """A scheduled game: its ``court`` (index among the courts printed), its ``start`` and its
    ``referee``'s name ("" = none given yet)."""

    court: int
    start: int
    referee: str


def referee_grid(games: list[Judged], courts: int) -> list[tuple[int, list[str | None]]]:
    """The rows (start, cells) of the referees' table, by start: ``cells[c]`` is the referee
    of court ``c``'s game then, "" for a game without a referee, ``None`` for no game there.
    Two games of one court at one start (a schedule being changed) show both referees,
    separated by 「・」. Raises ``ValueError`` for a court outside ``range(courts)``."""
    rows: dict[int, list[str | None]] = {}
    for game in sorted(games, key=lambda g: (g.start, g.court)):
        if not 0 <= game.court < courts:
            raise ValueError(f"court {game.court} outside 0..{courts - 1}")
        cells = rows.setdefault(game.start, [NO_GAME] * courts)
        held = cells[game.court]
        if held is NO_GAME:
            cells[game.court] = game.referee
        elif game.referee and game.referee not in held.split("・"):
            cells[game.court] = f"{held}・{game.referee}" if held else game.referee
    return sorted(rows.items())


@dataclass(frozen=True)
class DutyLine:
    """One printed line of the roster: ``role`` (its code), the blocks it spans (``first`` to
    ``last``, indexes of the roster's blocks) and the ``names`` holding it."""

    role: str
    first: int
    last: int
    names: tuple[str, ...]


def duty_lines(duties: list[tuple[str, int, str]], roles: list[str]) -> list[DutyLine]:
    """The roster's lines from its ``duties`` (role, block, name), in the order of ``roles``
    (a role not among them after those, by code), each role's blocks in time order; the same
    names (same order, spaces trimmed, each once) in consecutive blocks make one line.
    An empty cell makes no line."""
    cells: dict[tuple[str, int], list[str]] = {}
    for role, block, name in duties:
        name = " ".join(name.split())
        names = cells.setdefault((role, block), [])
        if name and name not in names:
            names.append(name)
    rank = {role: i for i, role in enumerate(roles)}
    order = sorted({role for role, _block in cells}, key=lambda r: (rank.get(r, len(rank)), r))
    lines: list[DutyLine] = []
    for role in order:
        for block in sorted(b for r, b in cells if r == role):
            names = tuple(cells[(role, block)])
            if not names:
                continue
            last = lines[-1] if lines else None
            if last and last.role == role and last.last == block - 1 and last.names == names:
                lines[-1] = DutyLine(role, last.first, block, names)
            else:
                lines.append(DutyLine(role, block, block, names))
    return lines
