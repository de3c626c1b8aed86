"""What the entry reader hands back: parsed teams and players, and the problems found.

See ``docs/entries.md`` for the sheets these records are read from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournament.imports.messages import _


@dataclass
class PlayerEntry:
    """One player of a parsed team; all strings normalised (NFKC, single spaces)."""

    name: str
    furigana: str
    grade: str  # canonical grade ("小2", "中1", "一般") or "" when not given
    is_leader: bool
    is_substitute: bool


@dataclass
class TeamEntry:
    """One parsed team.  ``row`` is the 1-based sheet row where the team starts.

    ``players`` lists the leader first, then the other regular players in sheet
    order, then the substitutes.
    """

    row: int
    division: str
    name: str
    affiliation: str
    players: list[PlayerEntry] = field(default_factory=list)

    @property
    def leader(self) -> PlayerEntry | None:
        return next((p for p in self.players if p.is_leader), None)

    @property
    def regulars(self) -> list[PlayerEntry]:
        return [p for p in self.players if not p.is_substitute]

    @property
    def substitutes(self) -> list[PlayerEntry]:
        return [p for p in self.players if p.is_substitute]


@dataclass
class ImportProblem:
    """A fault in the uploaded file.

    ``row`` is the 1-based sheet row (None for faults of the whole file) and
    ``column`` the column letter plus its header label, e.g. ``"C (チーム名)"``
    (None when no single column is at fault).  ``message`` is translated.
    """

    row: int | None
    column: str | None
    message: str

    def __str__(self) -> str:
        if self.row is not None and self.column:
            return _("Row %(row)d, column %(column)s: %(message)s") % {
                "row": self.row,
                "column": self.column,
                "message": self.message,
            }
        if self.row is not None:
            return _("Row %(row)d: %(message)s") % {"row": self.row, "message": self.message}
        if self.column:
            return _("Column %(column)s: %(message)s") % {"column": self.column, "message": self.message}
        return self.message


@dataclass
class ParsedEntries:
    """Result of :func:`tournament.imports.parse_entry_workbook`.

    ``sheet`` is the title of the sheet read ("" if none), ``header_row`` its
    1-based header row (0 if none), ``layout`` ``"team"`` (one row per team) or
    ``"player"`` (one row per player), "" if no header was found.
    """

    teams: list[TeamEntry]
    problems: list[ImportProblem]
    sheet: str = ""
    header_row: int = 0
    layout: str = ""

    @property
    def ok(self) -> bool:
        """True when there is no problem at all (the teams may be registered)."""
        return not self.problems

    @property
    def divisions(self) -> list[str]:
        """Division names in order of first appearance, without repeats."""
        seen: dict[str, None] = {}
        for team in self.teams:
            seen.setdefault(team.division, None)
        return list(seen)
