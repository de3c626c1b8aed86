"""What the entry reader hands back: parsed teams and players, and the problems found.

See ``docs/entries.md`` for the sheets these records are read from.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from tournament.imports.messages import _


@dataclass
class PlayerEntry:
    """One player of a parsed team: the name as typed (trimmed, single spaces), the furigana
    normalised (NFKC, so half-width kana become full-width)."""

    name: str
    furigana: str
    grade: str  # canonical grade ("小2", "中1", "一般") or "" when not given
    is_leader: bool
    is_substitute: bool


@dataclass
class TeamEntry:
    """One parsed team.  ``row`` is the 1-based sheet row where the team starts.

    ``players`` lists the leader first, then the other regular players in sheet
    order, then the substitutes. ``filled`` names the cells taken from a merged cell above
    (e.g. ``"所属 C5:C7"``), shown in the preview.
    """

    row: int
    division: str
    name: str
    affiliation: str
    players: list[PlayerEntry] = field(default_factory=list)
    chaperone: str = ""
    filled: list[str] = field(default_factory=list)

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
    ``"player"`` (one row per player), "" if no header was found. ``warnings`` are
    findings the organiser may accept (hidden rows skipped, a player in two teams);
    ``other_sheets`` the other sheets that look like entry sheets (not read; hidden ones marked).
    """

    teams: list[TeamEntry]
    problems: list[ImportProblem]
    sheet: str = ""
    header_row: int = 0
    layout: str = ""
    warnings: list[ImportProblem] = field(default_factory=list)
    other_sheets: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when there is no problem at all (the teams may be registered)."""
        return not self.problems

    def to_dict(self) -> dict:
        """The parsed result as plain data (JSON-ready), kept with the upload so that the
        import and the problems download do not parse the file again (issue 18, item 2)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> ParsedEntries:
        """The inverse of :meth:`to_dict`. Raises ``KeyError``/``TypeError`` on other data."""
        teams = [TeamEntry(**{**t, "players": [PlayerEntry(**p) for p in t["players"]]}) for t in data["teams"]]
        return cls(
            teams=teams,
            problems=[ImportProblem(**p) for p in data["problems"]],
            sheet=data["sheet"],
            header_row=data["header_row"],
            layout=data["layout"],
            warnings=[ImportProblem(**p) for p in data["warnings"]],
            other_sheets=list(data["other_sheets"]),
        )

    @property
    def divisions(self) -> list[str]:
        """Division names in order of first appearance, without repeats."""
        seen: dict[str, None] = {}
        for team in self.teams:
            seen.setdefault(team.division, None)
        return list(seen)
