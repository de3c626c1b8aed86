"""Turning the rows below the header into teams: what both layouts share.

:class:`RowReader` skips comment, example and repeated-header rows, reads the division and the
players' cells of a row, and at the end checks for a team entered twice. The two layouts
(``tournament.imports.layouts``) build the teams from it. The rules checked are listed in
``docs/entries.md``, "Problems reported".
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from tournament.engine import names
from tournament.engine.names import differ_only_invisibly, name_key, normalize_grade, normalize_text
from tournament.imports.header import Column, Group, Header, label_key
from tournament.imports.messages import _
from tournament.imports.records import ImportProblem, PlayerEntry, TeamEntry

#: Regular players per team (substitutes not counted).
TEAM_SIZE = 3
#: Substitutes allowed per team.
MAX_SUBSTITUTES = 2

_FURIGANA_RE = names.FURIGANA_RE
_FALSE_MARKS = {"", "0", "×", "✕", "✖", "no", "n", "false", "いいえ", "なし", "無", "-", "ー", "−"}
_COMMENT_PREFIXES = ("※", "#")
_EXAMPLE_MARKS = {"例", "記入例", "見本", "example", "sample"}


def is_marked(text: str) -> bool:
    """True when a leader / substitute cell marks the player (○, 1, はい …; not ×, 0, いいえ, blank)."""
    return normalize_text(text).casefold() not in _FALSE_MARKS


def typed_as(value) -> tuple[str, str] | None:
    """For a date or time Excel made of typed text: (what was probably typed, what Excel
    shows), e.g. ``("6-1", "6月1日")`` for 2027-06-01; None for any other value."""
    if isinstance(value, datetime.datetime) and value.time() != datetime.time(0, 0):
        return f"{value.hour}:{value.minute:02d}", f"{value.month}月{value.day}日 {value.hour}:{value.minute:02d}"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"{value.month}-{value.day}", f"{value.month}月{value.day}日"
    if isinstance(value, datetime.time):
        return f"{value.hour}:{value.minute:02d}", f"{value.hour}:{value.minute:02d}"
    return None


def _bad_kana(text: str) -> str:
    """The characters of *text* that are not furigana, each once; "" when all are."""
    if _FURIGANA_RE.match(text):
        return ""
    return "".join(dict.fromkeys(ch for ch in text if not _FURIGANA_RE.match(ch)))


def _lookalike(first, second) -> str:
    """The sentence added when two rows' names are one by ``name_key`` though they differ only
    by an invisible mark (issue 28, item 8; the services' ``registration.lookalike_note``)."""
    if not differ_only_invisibly(first, second):
        return ""
    return " " + _(
        "The two spellings differ only by an invisible mark (a variation selector or a zero-width "
        "character), so they count as one name."
    )


def _same_person(a: PlayerEntry, b: PlayerEntry) -> bool:
    """Two entries of one name are one person unless both give a furigana and they differ."""
    return not (a.furigana and b.furigana) or name_key(a.furigana) == name_key(b.furigana)


@dataclass
class PlayerDraft:
    """A player read from sheet ``row``, from the columns of ``group``."""

    entry: PlayerEntry
    row: int
    group: Group


@dataclass
class TeamDraft:
    """A team being read; ``row`` is where it starts, ``affiliation_row`` where its 所属 was read,
    ``filled`` the cells copied from a merged cell above (for the preview)."""

    row: int
    division: str
    name: str
    affiliation: str
    players: list[PlayerDraft] = field(default_factory=list)
    affiliation_row: int = 0
    chaperone: str = ""
    filled: list[str] = field(default_factory=list)


class RowReader:
    """Reads the rows under *header*, appending every fault to *problems*.

    *default_division* (normalised) stands for an empty 部門 cell. A layout subclass fills
    :attr:`teams` in ``read(rows)``; :meth:`finish` returns them as :class:`TeamEntry` objects.
    Findings the organiser may accept go to *warnings*; *fills* names, per row, the cells
    filled from a merged cell (``tournament.imports.merged``).
    """

    def __init__(
        self,
        header: Header,
        default_division: str,
        problems: list[ImportProblem],
        warnings: list[ImportProblem] | None = None,
        fills: dict[int, list[str]] | None = None,
    ):
        self.header = header
        self.default_division = default_division
        self.problems = problems
        self.warnings = warnings if warnings is not None else []
        self.fills = fills or {}
        self.teams: list[TeamDraft] = []
        self.divisions: dict[str, str] = {}  # name_key -> first spelling

    def read(self, rows) -> None:
        """Read *rows* ((row number, cell texts, raw values) tuples) into :attr:`teams`."""
        raise NotImplementedError

    # -- cells -----------------------------------------------------------------

    def problem(self, row: int, column: Column | None, message: str) -> None:
        self.problems.append(ImportProblem(row, column.ref if column else None, message))

    @staticmethod
    def get(texts: list[str], column: Column | None) -> str:
        if column is None or column.index >= len(texts):
            return ""
        return texts[column.index]

    def skip_row(self, texts: list[str]) -> bool:
        """True for blank rows, ※/# comments, a number or 例 alone in an unlabelled first
        column, and repeated header rows."""
        filled = [i for i, t in enumerate(texts) if t]
        if not filled:
            return True
        if texts[filled[0]].startswith(_COMMENT_PREFIXES):
            return True
        if not self.header.known(0) and texts[0] and (filled == [0] or texts[0].casefold() in _EXAMPLE_MARKS):
            return True
        team_text = self.get(texts, self.header.team)
        return bool(team_text) and label_key(team_text) == label_key(self.header.team.label)

    def text_columns(self) -> list[tuple[Column, int]]:
        """The columns that hold text, with the length limit of each (forms and database:
        ``tournament.engine.names``)."""
        header = self.header
        columns = [
            (header.division, names.DIVISION_NAME_MAX),
            (header.team, names.TEAM_NAME_MAX),
            (header.affiliation, names.AFFILIATION_MAX),
            (header.chaperone, names.CHAPERONE_MAX),
        ]
        for group in header.groups:
            columns += [(group.name, names.PLAYER_NAME_MAX), (group.furigana, names.FURIGANA_MAX)]
        return [(column, limit) for column, limit in columns if column is not None]

    def check_cells(self, row: int, texts: list[str], values) -> None:
        """A date where text was expected (Excel turned "6-1" into 6月1日) and a text longer
        than its field are problems on their cell (issue 18, items 5 and 6)."""
        for column, limit in self.text_columns():
            value = values[column.index] if column.index < len(values) else None
            typed = typed_as(value)
            if typed:
                self.problem(
                    row,
                    column,
                    _(
                        "Excel may have turned this into a date (%(typed)s → %(shown)s). Format the column "
                        "as text and type it again."
                    )
                    % {"typed": typed[0], "shown": typed[1]},
                )
            elif len(self.get(texts, column)) > limit:
                self.problem(
                    row,
                    column,
                    _("This is %(count)d characters long; at most %(limit)d are allowed.")
                    % {"count": len(self.get(texts, column)), "limit": limit},
                )

    def division_of(self, row: int, texts: list[str]) -> str:
        """The division of the row (its first spelling in the file), or "" with a problem."""
        text = self.get(texts, self.header.division) or self.default_division
        if not text:
            if self.header.division is not None:
                self.problem(
                    row,
                    self.header.division,
                    _("The division (「部門」) is missing. Fill it in on every row; merged cells count as empty."),
                )
            return ""
        return self.divisions.setdefault(name_key(text), text)

    def read_player(self, row: int, texts: list[str], values, group: Group, division: str) -> PlayerEntry | None:
        """The player in the *group* columns of the row, None when they are empty or the name is missing."""
        name = self.get(texts, group.name)
        furigana = normalize_text(self.get(texts, group.furigana))  # a reading: ｵｶﾞﾜ is オガワ
        grade_text = self.get(texts, group.grade)
        if not (name or furigana or grade_text):
            return None
        if not name:
            self.problem(row, group.name, _("The player's name is missing, but furigana or grade is filled in."))
        if furigana:
            bad = _bad_kana(furigana)
            if bad:
                self.problem(
                    row,
                    group.furigana,
                    _('Furigana must be written in hiragana or katakana only; found "%(chars)s".') % {"chars": bad},
                )
        grade = self._grade(row, values, group, grade_text, division) if grade_text else ""
        if not name:
            return None
        return PlayerEntry(
            name=name, furigana=furigana, grade=grade, is_leader=group.leader, is_substitute=group.substitute
        )

    def _grade(self, row: int, values, group: Group, grade_text: str, division: str) -> str:
        # The grade is parsed from the raw cell: NFKC would turn "①" into a valid "1"
        # (docs/rules/entries.md, section 15).
        grade_value = values[group.grade.index] if group.grade.index < len(values) else None
        grade_shown = " ".join(grade_value.split()) if isinstance(grade_value, str) else grade_text
        try:
            return normalize_grade(grade_value, division)
        except ValueError:
            self.problem(
                row,
                group.grade,
                _(
                    'Grade "%(value)s" is not recognised or out of range for this division. '
                    "Write e.g. 「小2」, 「2年」, 「中1」 or 「一般」."
                )
                % {"value": grade_shown},
            )
            return ""

    def players_problem(self, row: int, column: Column | None, count: int) -> None:
        """Report a team with *count* regular players instead of :data:`TEAM_SIZE`."""
        self.problem(
            row,
            column,
            _("The team has %(count)d players; exactly %(required)d are required (substitutes not counted).")
            % {"count": count, "required": TEAM_SIZE},
        )

    def substitutes_problem(self, row: int, column: Column | None, count: int) -> None:
        """Report a team with *count* substitutes, over :data:`MAX_SUBSTITUTES`."""
        self.problem(
            row,
            column,
            _("The team has %(count)d substitutes; at most %(limit)d are allowed.")
            % {"count": count, "limit": MAX_SUBSTITUTES},
        )

    # -- final checks ----------------------------------------------------------

    def finish(self) -> list[TeamEntry]:
        """The teams read, players ordered leader first and substitutes last; a team entered
        twice in one division (same ``name_key``) is reported on its second row, a player
        entered in two teams is a warning (issue 18, item 6)."""
        self.check_players_once()
        seen: dict[tuple[str, str], TeamDraft] = {}
        result = []
        for team in self.teams:
            key = (name_key(team.division), name_key(team.name))
            first = seen.setdefault(key, team)
            if first is not team:
                self.problem(
                    team.row,
                    self.header.team,
                    _('Team "%(team)s" is entered twice in %(division)s (rows %(first)d and %(second)d).')
                    % {"team": team.name, "division": team.division or "-", "first": first.row, "second": team.row}
                    + _lookalike(first.name, team.name),
                )
            players = [p.entry for p in team.players]
            players.sort(key=lambda p: (p.is_substitute, not p.is_leader))
            result.append(
                TeamEntry(
                    team.row,
                    team.division,
                    team.name,
                    team.affiliation,
                    players,
                    chaperone=team.chaperone,
                    filled=list(dict.fromkeys(team.filled)),
                )
            )
        return result

    def check_players_once(self) -> None:
        """Warn about a player (same :func:`name_key` of the name, and of the furigana when
        both rows give one) entered in two teams; the warning is on the later row."""
        seen: dict[str, list[tuple[PlayerDraft, TeamDraft]]] = {}
        for team in self.teams:
            for player in team.players:
                earlier = seen.setdefault(name_key(player.entry.name), [])
                other = next(
                    ((p, t) for p, t in earlier if t is not team and _same_person(p.entry, player.entry)), None
                )
                if other:
                    self.warnings.append(
                        ImportProblem(
                            player.row,
                            player.group.name.ref,
                            _('%(player)s is also entered in team "%(team)s" (row %(row)d).')
                            % {"player": player.entry.name, "team": other[1].name, "row": other[0].row}
                            + _lookalike(other[0].entry.name, player.entry.name),
                        )
                    )
                earlier.append((player, team))
