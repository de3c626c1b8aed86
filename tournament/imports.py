"""Reading team entries (参加申込書) from Excel workbooks, and the blank entry template.

The parser is database-free: :func:`parse_entry_workbook` turns an uploaded
``.xlsx`` into :class:`TeamEntry` objects plus a list of :class:`ImportProblem`
objects, each naming the sheet row and column at fault.  Checking the parsed
teams against teams already registered (same division, same
:func:`tournament.engine.names.name_key`) is the caller's job.

:func:`entry_template_workbook` builds the app's own downloadable entry form,
which the parser reads back without problems.

Only ``django.utils.translation.gettext`` is used from Django, and only when
Django settings are configured; without them messages stay in English.
"""

from __future__ import annotations

import datetime
import io
import re
import unicodedata
from dataclasses import dataclass, field

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from tournament.engine import names
from tournament.engine.names import name_key, normalize_grade, normalize_team_name, normalize_text

__all__ = [
    "ImportProblem",
    "MAX_DATA_ROWS",
    "MAX_FILE_BYTES",
    "MAX_SUBSTITUTES",
    "ParsedEntries",
    "PlayerEntry",
    "TEAM_SIZE",
    "TEMPLATE_GRADES",
    "TEMPLATE_HEADER_ROW",
    "TEMPLATE_LABELS",
    "TEMPLATE_ROWS",
    "TEMPLATE_SHEET",
    "TeamEntry",
    "entry_template_workbook",
    "parse_entry_workbook",
]


def _(message: str) -> str:
    """Translate *message* with Django's gettext when Django is set up, else return it unchanged."""
    try:
        from django.utils.translation import gettext
    except ImportError:  # pragma: no cover - Django is a project dependency
        return message
    try:
        return gettext(message)
    except Exception:  # settings not configured / app registry not ready
        return message


# --------------------------------------------------------------------------
# Limits and constants
# --------------------------------------------------------------------------

#: Uploads larger than this are refused (a 300-team entry file is far below 1 MB).
MAX_FILE_BYTES = 5 * 1024 * 1024
#: Non-blank rows read below the header before giving up with a problem.
MAX_DATA_ROWS = 5000
#: Reading stops after this many consecutive blank rows (the sheet's recorded
#: dimension is never trusted).
MAX_BLANK_RUN = 50
#: The header row must be within this many rows from the top of the sheet.
HEADER_SEARCH_ROWS = 20
#: Columns beyond this are ignored.
MAX_COLUMNS = 100
#: Regular players per team (substitutes not counted).
TEAM_SIZE = 3
#: Substitutes allowed per team.
MAX_SUBSTITUTES = 2

TEMPLATE_SHEET = "申込書"
TEMPLATE_HEADER_ROW = 4
TEMPLATE_ROWS = 300
TEMPLATE_LABELS = (
    "部門",
    "チーム名",
    "所属",
    "選手1（リーダー）氏名",
    "ふりがな",
    "学年",
    "選手2 氏名",
    "ふりがな",
    "学年",
    "選手3 氏名",
    "ふりがな",
    "学年",
    "補欠 氏名",
    "ふりがな",
    "学年",
)
TEMPLATE_GRADES = ("小1", "小2", "小3", "小4", "小5", "小6", "中1", "中2", "中3", "一般")
_TEMPLATE_LIST_SHEET = "選択肢"

_OLE_MAGIC = b"\xd0\xcf\x11\xe0"
_ZIP_MAGIC = b"PK\x03\x04"


# --------------------------------------------------------------------------
# Public data types
# --------------------------------------------------------------------------


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
    """Result of :func:`parse_entry_workbook`.

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


# --------------------------------------------------------------------------
# Header recognition
# --------------------------------------------------------------------------

_IGNORED_EXACT = {"no", "no.", "#", "番号", "受付番号", "受付no."}
_IGNORED_PARTS = (
    "引率",
    "監督",
    "保護者",
    "代表",
    "責任者",
    "連絡",
    "電話",
    "備考",
    "メール",
    "住所",
    "coach",
    "chaperone",
    "guardian",
    "contact",
    "phone",
    "mail",
    "remark",
    "note",
    "comment",
)
_DIVISION_EXACT = {"部門", "部", "部門名", "クラス", "種別", "division", "category", "class"}
_TEAM_EXACT = {"チーム名", "チーム", "チーム名称", "team", "teamname"}
_AFFILIATION_EXACT = {
    "所属",
    "所属団体",
    "所属名",
    "学校名",
    "学校",
    "子ども会",
    "子供会",
    "子ども会名",
    "団体名",
    "affiliation",
    "club",
    "school",
}
_FURIGANA_PARTS = (
    "ふりがな",
    "フリガナ",
    "よみがな",
    "ヨミガナ",
    "furigana",
    "reading",
    "kana",
    "よみ",
    "ヨミ",
    "カナ",
)
_GRADE_PARTS = ("学年", "grade")
_LEADER_PARTS = ("リーダー", "主将", "キャプテン", "leader", "captain")
_SUBSTITUTE_PARTS = ("補欠", "控え", "控", "リザーブ", "substitute", "reserve")
_NAME_PARTS = ("氏名", "名前", "選手名", "name")
_NAME_RE = re.compile(r"^(選手|player|メンバー|member)\d*")


def _label_key(value) -> str:
    return normalize_text(value).casefold().replace(" ", "")


def _display_label(value) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _classify(key: str) -> tuple[str, bool, bool] | None:
    """Return (kind, leader, substitute) for a normalised header label, or None to ignore it."""
    if not key or key in _IGNORED_EXACT or any(p in key for p in _IGNORED_PARTS):
        return None
    if key in _DIVISION_EXACT or key.startswith("部門"):
        return ("division", False, False)
    if key in _TEAM_EXACT or key.startswith("チーム名"):
        return ("team", False, False)
    if key in _AFFILIATION_EXACT or key.startswith("所属"):
        return ("affiliation", False, False)
    if any(p in key for p in _FURIGANA_PARTS):
        return ("furigana", False, False)
    if any(p in key for p in _GRADE_PARTS):
        return ("grade", False, False)
    leader = any(p in key for p in _LEADER_PARTS)
    substitute = any(p in key for p in _SUBSTITUTE_PARTS) or key.startswith("sub")
    if any(p in key for p in _NAME_PARTS) or _NAME_RE.match(key):
        return ("name", leader and not substitute, substitute)
    if leader:
        return ("leader", False, False)
    if substitute:
        return ("substitute", False, False)
    return None


@dataclass
class _Column:
    index: int  # 0-based
    label: str
    kind: str
    leader: bool = False
    substitute: bool = False

    @property
    def ref(self) -> str:
        letter = get_column_letter(self.index + 1)
        return f"{letter} ({self.label})" if self.label else letter


@dataclass
class _Group:
    name: _Column
    furigana: _Column | None = None
    grade: _Column | None = None

    @property
    def leader(self) -> bool:
        return self.name.leader

    @property
    def substitute(self) -> bool:
        return self.name.substitute


@dataclass
class _Header:
    row: int
    layout: str
    columns: list[_Column]
    division: _Column | None
    team: _Column
    affiliation: _Column | None
    groups: list[_Group]
    leader_marker: _Column | None
    substitute_marker: _Column | None
    problems: list[ImportProblem]

    def known(self, index: int) -> bool:
        return any(c.index == index for c in self.columns)


def _detect_header(values, rownum: int) -> _Header | None:
    columns = []
    for index, value in enumerate(values):
        kind = _classify(_label_key(value))
        if kind:
            columns.append(_Column(index, _display_label(value), *kind))
    first = {}
    for col in columns:
        first.setdefault(col.kind, col)
    names = [c for c in columns if c.kind == "name"]
    if "team" not in first or not names:
        return None

    problems: list[ImportProblem] = []
    layout = "team" if len(names) > 1 else "player"
    groups: list[_Group] = []
    if layout == "team":
        # Lone marker columns ("補欠", "リーダー") are player-name columns here.
        for col in columns:
            if col.kind == "substitute":
                col.kind, col.substitute = "name", True
            elif col.kind == "leader":
                col.kind, col.leader = "name", True
        current = None
        for col in columns:
            if col.kind == "name":
                current = _Group(col)
                groups.append(current)
            elif col.kind == "furigana" and current and current.furigana is None:
                current.furigana = col
            elif col.kind == "grade" and current and current.grade is None:
                current.grade = col
        leaders = [g for g in groups if g.leader]
        for extra in leaders[1:]:
            extra.name.leader = False
            problems.append(
                ImportProblem(
                    rownum,
                    extra.name.ref,
                    _("Only one player column can be marked as the leader; this mark is ignored."),
                )
            )
        if not leaders:
            regular = next((g for g in groups if not g.substitute), None)
            if regular:
                regular.name.leader = True
    else:
        group = _Group(names[0], first.get("furigana"), first.get("grade"))
        group.name.leader = group.name.substitute = False
        groups.append(group)

    return _Header(
        row=rownum,
        layout=layout,
        columns=columns,
        division=first.get("division"),
        team=first["team"],
        affiliation=first.get("affiliation"),
        groups=groups,
        leader_marker=first.get("leader") if layout == "player" else None,
        substitute_marker=first.get("substitute") if layout == "player" else None,
        problems=problems,
    )


# --------------------------------------------------------------------------
# Cell values
# --------------------------------------------------------------------------

_FURIGANA_RE = names.FURIGANA_RE
_FALSE_MARKS = {"", "0", "×", "✕", "✖", "no", "n", "false", "いいえ", "なし", "無", "-", "ー", "−"}
_COMMENT_PREFIXES = ("※", "#")
_EXAMPLE_MARKS = {"例", "記入例", "見本", "example", "sample"}


def _cell_text(value) -> str:
    """Text of a cell: numbers without ".0", dates in ISO form, strings normalised."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return normalize_text(value)


def _is_marked(text: str) -> bool:
    return text.casefold() not in _FALSE_MARKS


def _bad_kana(text: str) -> str:
    if _FURIGANA_RE.match(text):
        return ""
    return "".join(dict.fromkeys(ch for ch in text if not _FURIGANA_RE.match(ch)))


# --------------------------------------------------------------------------
# Reading the workbook
# --------------------------------------------------------------------------


def _read_bytes(source) -> bytes | None:
    """Return at most MAX_FILE_BYTES + 1 bytes of *source* (bytes or a file-like object)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source[: MAX_FILE_BYTES + 1])
    if hasattr(source, "seek"):
        try:
            source.seek(0)
        except Exception:
            pass
    if hasattr(source, "chunks"):  # Django UploadedFile
        buf = bytearray()
        for chunk in source.chunks():
            buf += chunk
            if len(buf) > MAX_FILE_BYTES:
                break
        return bytes(buf)
    data = source.read(MAX_FILE_BYTES + 1)
    if isinstance(data, str):
        return None
    return bytes(data)


def _is_blank(values) -> bool:
    return all(v is None or (isinstance(v, str) and not normalize_text(v)) for v in values)


def _read_sheet(ws, problems: list[ImportProblem]):
    """Find the header row of *ws* and return (header, [(rownum, texts, raw values), ...]) or None."""
    ws.reset_dimensions()  # never trust the recorded dimension
    rows = ws.iter_rows(min_row=1, max_col=MAX_COLUMNS, values_only=True)
    header = None
    for rownum, values in enumerate(rows, start=1):
        header = _detect_header(values, rownum)
        if header or rownum >= HEADER_SEARCH_ROWS:
            break
    if header is None:
        return None
    data = []
    blank_run = 0
    for rownum, values in enumerate(rows, start=header.row + 1):
        if _is_blank(values):
            blank_run += 1
            if blank_run >= MAX_BLANK_RUN:
                break
            continue
        blank_run = 0
        if len(data) >= MAX_DATA_ROWS:
            problems.append(
                ImportProblem(
                    rownum,
                    None,
                    _(
                        "The sheet has more than %(limit)d rows of entries; only the first %(limit)d were read. "
                        "Split the entries into several files."
                    )
                    % {"limit": MAX_DATA_ROWS},
                )
            )
            break
        data.append((rownum, [_cell_text(v) for v in values], values))
    return header, data


def parse_entry_workbook(fileobj_or_bytes, default_division: str = "") -> ParsedEntries:
    """Parse an entry workbook (``.xlsx``) into teams and problems.

    *fileobj_or_bytes* is the file content as bytes, or a binary file-like
    object (an open file, ``io.BytesIO`` or a Django ``UploadedFile``).
    *default_division* is used for rows whose 部門 cell is empty, or when the
    sheet has no 部門 column at all.

    Never raises for bad input: every fault becomes an :class:`ImportProblem`
    and the result is not :attr:`~ParsedEntries.ok`.

    **Finding the data.**  The first sheet having a header row within its first
    20 rows is read.  A header row has a team-name column (チーム名 / チーム /
    team) and at least one player-name column (氏名, 名前, 選手名, 選手1（リーダー）氏名,
    補欠 氏名, name, player ...).  Other recognised labels: 部門 / 部 / クラス /
    division; 所属 / 所属団体 / 学校名 / 子ども会 / affiliation / club / school;
    ふりがな / フリガナ / よみがな / furigana / reading; 学年 / grade; and, in the
    per-player layout, a leader column (リーダー / 主将 / leader / captain) and a
    substitute column (補欠 / 控え / substitute / reserve).  Labels are compared
    after NFKC, case folding and removal of spaces.  Other columns (No., 引率者,
    備考 ...) are ignored, as are titles, notes and merged cells above the
    header.  Reading stops after 50 consecutive blank rows; more than 5,000
    non-blank rows is a problem.  Rows whose first non-empty cell starts with
    ``※`` or ``#``, rows with text only in an unrecognised first column (such
    as ``No.``), example rows marked 例 / 記入例 in that column, and repeated
    header rows are skipped.

    **Layouts.**  With several player-name columns the layout is ``"team"``:
    one row per team, each name column followed by its ふりがな and 学年
    columns.  A name column whose label mentions リーダー / 主将 / leader /
    captain holds the leader; one mentioning 補欠 / 控え / substitute / reserve
    holds a substitute.  **If no label marks a leader, the first
    non-substitute player column is the leader.**  With a single player-name
    column the layout is ``"player"``: one row per player, rows grouped into
    teams by division and :func:`~tournament.engine.names.name_key` of the team name.
    A non-empty mark (○, 1, はい, yes, true ...; but not ×, 0, いいえ, no, false)
    in the leader / substitute column marks the player.  Without a leader
    column the team's first regular player is the leader.  A row with an empty
    team name continues the team of the row directly above it (merged cells).

    **Problems reported** (each with its row and column): unreadable file
    (``.xls`` / password-protected, not an ``.xlsx``, damaged, over 5 MB); no
    header row; too many rows; team name missing; division missing (no
    default); player name missing while ふりがな or 学年 is filled in; ふりがな
    not in hiragana/katakana; unrecognised or out-of-range grade (the division
    name is the hint for bare years); not exactly 3 regular players; more than
    2 substitutes; no leader or more than one; a substitute marked as leader;
    differing affiliations within one team (per-player layout); the same team
    twice in one division (same division and ``name_key``; the message names
    both rows).  The same team name in two different divisions is fine.

    Strings are NFKC-normalised with control characters removed, numbers lose
    Excel's ``.0`` and grades become canonical (``"小2"``).  The database is not
    touched: duplicates against already registered teams are the caller's check.
    """
    problems: list[ImportProblem] = []
    result = ParsedEntries(teams=[], problems=problems)

    try:
        data = _read_bytes(fileobj_or_bytes)
    except Exception:
        data = None
    if data is None:
        problems.append(ImportProblem(None, None, _("The upload could not be read as a file.")))
        return result
    if len(data) > MAX_FILE_BYTES:
        problems.append(
            ImportProblem(
                None,
                None,
                _(
                    "The file is larger than %(limit)d MB. Entry files are normally much smaller; "
                    "remove pictures or extra sheets and try again."
                )
                % {"limit": MAX_FILE_BYTES // (1024 * 1024)},
            )
        )
        return result
    if not data:
        problems.append(ImportProblem(None, None, _("The file is empty.")))
        return result
    if data.startswith(_OLE_MAGIC):
        problems.append(
            ImportProblem(
                None,
                None,
                _(
                    "This file is in the old Excel 97-2003 format (.xls) or is password-protected. "
                    "Save it as an Excel Workbook (.xlsx) without a password and upload it again."
                ),
            )
        )
        return result
    if not data.startswith(_ZIP_MAGIC):
        problems.append(
            ImportProblem(
                None,
                None,
                _("This file is not an Excel workbook (.xlsx). Save it from Excel as an Excel Workbook (.xlsx)."),
            )
        )
        return result

    found = None
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            for ws in workbook.worksheets:
                sheet_problems: list[ImportProblem] = []
                read = _read_sheet(ws, sheet_problems)
                if read:
                    found = (ws.title, read, sheet_problems)
                    break
        finally:
            workbook.close()
    except Exception as exc:  # BadZipFile, KeyError, XML parse errors, ... from openpyxl
        problems.append(
            ImportProblem(
                None,
                None,
                _("The Excel file could not be read; it may be damaged or not a real .xlsx file (%(error)s).")
                % {"error": exc.__class__.__name__},
            )
        )
        return result

    if found is None:
        problems.append(
            ImportProblem(
                None,
                None,
                _(
                    "No header row was found. One of the first %(rows)d rows of the sheet must hold the "
                    "column titles, including チーム名 and 氏名 (as in the entry template)."
                )
                % {"rows": HEADER_SEARCH_ROWS},
            )
        )
        return result

    title, (header, rows), sheet_problems = found
    result.sheet, result.header_row, result.layout = title, header.row, header.layout
    problems.extend(header.problems)
    default_division = normalize_text(default_division)
    if header.division is None and not default_division:
        problems.append(
            ImportProblem(header.row, None, _("There is no 部門 (division) column and no default division was chosen."))
        )

    parser = _EntryParser(header, default_division, problems)
    if header.layout == "team":
        parser.parse_team_rows(rows)
    else:
        parser.parse_player_rows(rows)
    problems.extend(sheet_problems)
    result.teams = parser.finish()
    problems.sort(key=lambda p: -1 if p.row is None else p.row)
    return result


# --------------------------------------------------------------------------
# Turning rows into teams
# --------------------------------------------------------------------------


@dataclass
class _PlayerDraft:
    entry: PlayerEntry
    row: int
    group: _Group


@dataclass
class _TeamDraft:
    row: int
    division: str
    name: str
    affiliation: str
    players: list[_PlayerDraft] = field(default_factory=list)
    affiliation_row: int = 0


class _EntryParser:
    def __init__(self, header: _Header, default_division: str, problems: list[ImportProblem]):
        self.header = header
        self.default_division = default_division
        self.problems = problems
        self.teams: list[_TeamDraft] = []
        self.divisions: dict[str, str] = {}  # name_key -> first spelling

    # -- helpers -----------------------------------------------------------

    def problem(self, row: int, column: _Column | None, message: str) -> None:
        self.problems.append(ImportProblem(row, column.ref if column else None, message))

    @staticmethod
    def get(texts: list[str], column: _Column | None) -> str:
        if column is None or column.index >= len(texts):
            return ""
        return texts[column.index]

    def skip_row(self, texts: list[str]) -> bool:
        filled = [i for i, t in enumerate(texts) if t]
        if not filled:
            return True
        if texts[filled[0]].startswith(_COMMENT_PREFIXES):
            return True
        if not self.header.known(0) and texts[0]:
            if filled == [0] or texts[0].casefold() in _EXAMPLE_MARKS:
                return True
        team_text = self.get(texts, self.header.team)
        return bool(team_text) and _label_key(team_text) == _label_key(self.header.team.label)

    def division_of(self, row: int, texts: list[str]) -> str:
        text = self.get(texts, self.header.division) or self.default_division
        if not text:
            if self.header.division is not None:
                self.problem(
                    row,
                    self.header.division,
                    _("The division (部門) is missing. Fill it in on every row; merged cells count as empty."),
                )
            return ""
        return self.divisions.setdefault(name_key(text), text)

    def read_player(self, row: int, texts: list[str], values, group: _Group, division: str) -> PlayerEntry | None:
        name = self.get(texts, group.name)
        furigana = self.get(texts, group.furigana)
        grade_text = self.get(texts, group.grade)
        # The grade is parsed from the raw cell: NFKC would turn "①" into a valid "1".
        grade_value = values[group.grade.index] if grade_text and group.grade.index < len(values) else None
        if isinstance(grade_value, str):
            grade_shown = " ".join(grade_value.split())
        else:
            grade_shown = grade_text
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
        grade = ""
        if grade_text:
            try:
                grade = normalize_grade(grade_value, division)
            except ValueError:
                self.problem(
                    row,
                    group.grade,
                    _(
                        'Grade "%(value)s" is not recognised or out of range for this division. '
                        "Write e.g. 小2, 2年, 中1 or 一般."
                    )
                    % {"value": grade_shown},
                )
        if not name:
            return None
        return PlayerEntry(
            name=name, furigana=furigana, grade=grade, is_leader=group.leader, is_substitute=group.substitute
        )

    # -- layouts -------------------------------------------------------------

    def parse_team_rows(self, rows) -> None:
        header = self.header
        for row, texts, values in rows:
            if self.skip_row(texts):
                continue
            division = self.division_of(row, texts)
            name = normalize_team_name(self.get(texts, header.team))
            if not name:
                self.problem(row, header.team, _("The team name is missing."))
            team = _TeamDraft(row, division, name, self.get(texts, header.affiliation))
            for group in header.groups:
                player = self.read_player(row, texts, values, group, division)
                if player:
                    team.players.append(_PlayerDraft(player, row, group))
            self.check_team_layout_counts(team)
            if name:
                self.teams.append(team)

    def check_team_layout_counts(self, team: _TeamDraft) -> None:
        filled = {id(p.group) for p in team.players}
        regular_groups = [g for g in self.header.groups if not g.substitute]
        regulars = [p for p in team.players if not p.group.substitute]
        subs = [p for p in team.players if p.group.substitute]
        if len(regulars) != TEAM_SIZE:
            empty = [g for g in regular_groups if id(g) not in filled]
            if len(regulars) < TEAM_SIZE and empty:
                column = empty[0].name
            elif len(regulars) > TEAM_SIZE:
                column = regulars[TEAM_SIZE].group.name
            else:
                column = self.header.team
            self.problem(
                team.row,
                column,
                _("The team has %(count)d players; exactly %(required)d are required (substitutes not counted).")
                % {"count": len(regulars), "required": TEAM_SIZE},
            )
        elif not any(p.entry.is_leader for p in regulars):
            leader_group = next((g for g in regular_groups if g.leader), None)
            self.problem(
                team.row, leader_group.name if leader_group else self.header.team, _("The team has no leader.")
            )
        if len(subs) > MAX_SUBSTITUTES:
            self.problem(
                team.row,
                subs[MAX_SUBSTITUTES].group.name,
                _("The team has %(count)d substitutes; at most %(limit)d are allowed.")
                % {"count": len(subs), "limit": MAX_SUBSTITUTES},
            )

    def parse_player_rows(self, rows) -> None:
        header = self.header
        group = header.groups[0]
        by_key: dict[tuple[str, str], _TeamDraft] = {}
        previous: tuple[int, _TeamDraft] | None = None  # (row, team) of the last player row
        for row, texts, values in rows:
            if self.skip_row(texts):
                previous = None
                continue
            name = normalize_team_name(self.get(texts, header.team))
            division_text = self.get(texts, header.division)
            if (
                not name
                and previous
                and previous[0] == row - 1
                and (not division_text or name_key(division_text) == name_key(previous[1].division))
            ):
                team = previous[1]  # continuation row (merged team-name cells)
            else:
                division = self.division_of(row, texts)
                if not name:
                    self.problem(row, header.team, _("The team name is missing."))
                    previous = None
                    continue
                key = (name_key(division), name_key(name))
                team = by_key.get(key)
                if team is None:
                    team = by_key[key] = _TeamDraft(row, division, name, "")
                    self.teams.append(team)
            affiliation = self.get(texts, header.affiliation)
            if affiliation:
                if not team.affiliation:
                    team.affiliation, team.affiliation_row = affiliation, row
                elif name_key(affiliation) != name_key(team.affiliation):
                    self.problem(
                        row,
                        header.affiliation,
                        _('The affiliation differs from row %(row)d of the same team ("%(other)s").')
                        % {"row": team.affiliation_row, "other": team.affiliation},
                    )
            previous = (row, team)
            player = self.read_player(row, texts, values, group, team.division)
            if player is None:
                continue
            player.is_leader = bool(header.leader_marker) and _is_marked(self.get(texts, header.leader_marker))
            player.is_substitute = bool(header.substitute_marker) and _is_marked(
                self.get(texts, header.substitute_marker)
            )
            if player.is_leader and player.is_substitute:
                self.problem(row, header.leader_marker, _("A substitute cannot be the leader."))
                player.is_leader = False
            team.players.append(_PlayerDraft(player, row, group))
        for team in self.teams:
            self.check_player_layout_counts(team)

    def check_player_layout_counts(self, team: _TeamDraft) -> None:
        header = self.header
        regulars = [p for p in team.players if not p.entry.is_substitute]
        subs = [p for p in team.players if p.entry.is_substitute]
        if len(regulars) < TEAM_SIZE:
            self.problem(
                team.row,
                header.groups[0].name,
                _("The team has %(count)d players; exactly %(required)d are required (substitutes not counted).")
                % {"count": len(regulars), "required": TEAM_SIZE},
            )
        elif len(regulars) > TEAM_SIZE:
            self.problem(
                regulars[TEAM_SIZE].row,
                header.groups[0].name,
                _("The team has %(count)d players; exactly %(required)d are required (substitutes not counted).")
                % {"count": len(regulars), "required": TEAM_SIZE},
            )
        if len(subs) > MAX_SUBSTITUTES:
            self.problem(
                subs[MAX_SUBSTITUTES].row,
                header.substitute_marker,
                _("The team has %(count)d substitutes; at most %(limit)d are allowed.")
                % {"count": len(subs), "limit": MAX_SUBSTITUTES},
            )
        leaders = [p for p in regulars if p.entry.is_leader]
        if header.leader_marker is None:
            if regulars:
                regulars[0].entry.is_leader = True
        elif not leaders and regulars:
            self.problem(team.row, header.leader_marker, _("The team has no leader."))
        elif len(leaders) > 1:
            self.problem(
                leaders[1].row,
                header.leader_marker,
                _("The team has more than one leader (also marked on row %(row)d).") % {"row": leaders[0].row},
            )

    # -- final checks --------------------------------------------------------

    def finish(self) -> list[TeamEntry]:
        seen: dict[tuple[str, str], _TeamDraft] = {}
        result = []
        for team in self.teams:
            key = (name_key(team.division), name_key(team.name))
            first = seen.setdefault(key, team)
            if first is not team:
                self.problem(
                    team.row,
                    self.header.team,
                    _('Team "%(team)s" is entered twice in %(division)s (rows %(first)d and %(second)d).')
                    % {"team": team.name, "division": team.division or "-", "first": first.row, "second": team.row},
                )
            players = [p.entry for p in team.players]
            players.sort(key=lambda p: (p.is_substitute, not p.is_leader))
            result.append(TeamEntry(team.row, team.division, team.name, team.affiliation, players))
        return result


# --------------------------------------------------------------------------
# Template
# --------------------------------------------------------------------------


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 1 for ch in text)


def entry_template_workbook(division_names: list[str]) -> bytes:
    """Return the downloadable entry form as ``.xlsx`` bytes.

    Sheet ``申込書``: a title in row 1, an instruction note in row 2, the header
    :data:`TEMPLATE_LABELS` in row 4 (部門, チーム名, 所属, then name / ふりがな /
    学年 for 選手1（リーダー）, 選手2, 選手3 and 補欠), and :data:`TEMPLATE_ROWS`
    input rows below it with drop-down lists for 部門 (*division_names*,
    normalised, duplicates dropped; no list when empty) and 学年
    (:data:`TEMPLATE_GRADES`; other grades such as 高1 can still be typed after
    a warning).  The header is frozen and repeated on every printed page; the
    page is A4 landscape, one page wide.  The list values live on a hidden
    sheet ``選択肢``.  :func:`parse_entry_workbook` reads the filled-in form.
    """
    divisions = list(dict.fromkeys(d for d in (normalize_text(n) for n in division_names) if d))
    first_row = TEMPLATE_HEADER_ROW + 1
    last_row = TEMPLATE_HEADER_ROW + TEMPLATE_ROWS
    last_col = get_column_letter(len(TEMPLATE_LABELS))

    wb = Workbook()
    ws = wb.active
    ws.title = TEMPLATE_SHEET

    ws["A1"] = _("Hitachi Folk Karuta tournament: team entry form")
    ws["A1"].font = Font(bold=True, size=14)
    ws.merge_cells(f"A1:{last_col}1")
    ws["A2"] = _(
        "One row per team. Player 1 is the team leader. Choose 部門 and 学年 from the lists. "
        "Do not change row 4 (the column titles)."
    )
    ws["A2"].alignment = Alignment(wrap_text=True, vertical="top")
    ws.merge_cells(f"A2:{last_col}2")
    ws.row_dimensions[2].height = 30

    thin = Side(style="thin", color="808080")
    fill = PatternFill("solid", fgColor="DDEBF7")
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        cell = ws.cell(row=TEMPLATE_HEADER_ROW, column=index, value=label)
        cell.font = Font(bold=True)
        cell.fill = fill
        cell.border = Border(left=thin, right=thin, top=thin, bottom=thin)
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
    ws.row_dimensions[TEMPLATE_HEADER_ROW].height = 30

    typical = {
        "部門": max([_display_width(d) for d in divisions] + [16]),
        "チーム名": 24,
        "所属": 22,
        "ふりがな": 20,
        "学年": 7,
    }
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        width = typical.get(label, 16 if "氏名" in label else 12)
        width = max(width, _display_width(label)) + 2
        ws.column_dimensions[get_column_letter(index)].width = min(width, 40)

    lists = wb.create_sheet(_TEMPLATE_LIST_SHEET)
    lists.sheet_state = "hidden"
    for index, grade in enumerate(TEMPLATE_GRADES, start=1):
        lists.cell(row=index, column=2, value=grade)
    for index, division in enumerate(divisions, start=1):
        lists.cell(row=index, column=1, value=division)

    if divisions:
        dv_division = DataValidation(
            type="list",
            formula1=f"'{_TEMPLATE_LIST_SHEET}'!$A$1:$A${len(divisions)}",
            allow_blank=True,
            showErrorMessage=True,
            errorStyle="stop",
            errorTitle=_("Division"),
            error=_("Choose a division from the list."),
        )
        dv_division.add(f"A{first_row}:A{last_row}")
        ws.add_data_validation(dv_division)
    dv_grade = DataValidation(
        type="list",
        formula1=f"'{_TEMPLATE_LIST_SHEET}'!$B$1:$B${len(TEMPLATE_GRADES)}",
        allow_blank=True,
        showErrorMessage=True,
        errorStyle="warning",
        errorTitle=_("Grade"),
        error=_("Choose a grade from the list (小1 to 中3, or 一般)."),
    )
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        if label == "学年":
            letter = get_column_letter(index)
            dv_grade.add(f"{letter}{first_row}:{letter}{last_row}")
    ws.add_data_validation(dv_grade)

    ws.freeze_panes = f"A{first_row}"
    ws.print_title_rows = f"{TEMPLATE_HEADER_ROW}:{TEMPLATE_HEADER_ROW}"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    ws.print_options.horizontalCentered = True

    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
