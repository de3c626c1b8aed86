"""Finding the header row of an entry sheet: its labels, what each column holds, the layout.

A header row has a team-name column and at least one player-name column; the labels the
reader recognises, and the two layouts (one row per team, one row per player), are described
in ``docs/entries.md``. Labels are compared after NFKC, case folding and removal of spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openpyxl.utils import get_column_letter

from tournament.engine.names import normalize_text
from tournament.imports.messages import _
from tournament.imports.records import ImportProblem

_IGNORED_EXACT = {"no", "no.", "#", "番号", "受付番号", "受付no."}
_CHAPERONE_PARTS = ("引率", "chaperone")
_CONTACT_PARTS = ("連絡", "電話", "メール", "住所", "備考", "contact", "phone", "mail", "remark", "note")
_IGNORED_PARTS = (
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


def label_key(value) -> str:
    """The form a label (or a cell repeating it) is compared in: NFKC, case-folded, no spaces."""
    return normalize_text(value).casefold().replace(" ", "")


def _display_label(value) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def classify(key: str) -> tuple[str, bool, bool] | None:
    """Return (kind, leader, substitute) for a label in :func:`label_key` form, or None to ignore it.

    kind is one of "division", "team", "affiliation", "chaperone" (引率者: issue 18, item 6),
    "furigana", "grade", "name", and the lone markers "leader" / "substitute".
    """
    if any(p in key for p in _CHAPERONE_PARTS) and not any(p in key for p in _CONTACT_PARTS):
        return ("chaperone", False, False)  # 引率者, 引率責任者; not 引率者の連絡先
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
class Column:
    """A recognised column of the header: 0-based ``index``, its label as shown, its kind."""

    index: int
    label: str
    kind: str
    leader: bool = False
    substitute: bool = False

    @property
    def ref(self) -> str:
        """The column letter plus its label, as problems name it, e.g. ``"C (チーム名)"``."""
        letter = get_column_letter(self.index + 1)
        return f"{letter} ({self.label})" if self.label else letter


@dataclass
class Group:
    """The columns of one player: the name, and its ふりがな and 学年 columns when present."""

    name: Column
    furigana: Column | None = None
    grade: Column | None = None

    @property
    def leader(self) -> bool:
        return self.name.leader

    @property
    def substitute(self) -> bool:
        return self.name.substitute


@dataclass
class Header:
    """The header row found: its 1-based ``row``, ``layout`` ("team" or "player") and columns.

    ``problems`` are the faults of the header itself (a second leader column).
    ``chaperone`` is the 引率者 column, if any.
    """

    row: int
    layout: str
    columns: list[Column]
    division: Column | None
    team: Column
    affiliation: Column | None
    groups: list[Group]
    leader_marker: Column | None
    substitute_marker: Column | None
    problems: list[ImportProblem]
    chaperone: Column | None = None

    def known(self, index: int) -> bool:
        """True when the column at 0-based *index* has a recognised label."""
        return any(c.index == index for c in self.columns)


def detect_header(values, rownum: int) -> Header | None:
    """Read the cell values of sheet row *rownum* (1-based) as a header row.

    Returns the :class:`Header`, or None when the row is not one (no team-name column or no
    player-name column). With several player-name columns the layout is "team", with one it is
    "player" (``docs/entries.md``, "Layouts").
    """
    columns = _recognised_columns(values)
    first: dict[str, Column] = {}
    for col in columns:
        first.setdefault(col.kind, col)
    name_columns = [c for c in columns if c.kind == "name"]
    if "team" not in first or not name_columns:
        return None

    problems: list[ImportProblem] = []
    if len(name_columns) > 1:
        layout = "team"
        groups = _team_groups(columns)
        _settle_leader(groups, rownum, problems)
    else:
        layout = "player"
        group = Group(name_columns[0], first.get("furigana"), first.get("grade"))
        group.name.leader = group.name.substitute = False
        groups = [group]

    return Header(
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
        chaperone=first.get("chaperone"),
    )


def _recognised_columns(values) -> list[Column]:
    columns = []
    for index, value in enumerate(values):
        kind = classify(label_key(value))
        if kind:
            columns.append(Column(index, _display_label(value), *kind))
    return columns


def _team_groups(columns: list[Column]) -> list[Group]:
    """Group the columns of a one-row-per-team header: each name column with the ふりがな and
    学年 columns that follow it."""
    # Lone marker columns ("補欠", "リーダー") are player-name columns here.
    for col in columns:
        if col.kind == "substitute":
            col.kind, col.substitute = "name", True
        elif col.kind == "leader":
            col.kind, col.leader = "name", True
    groups: list[Group] = []
    current = None
    for col in columns:
        if col.kind == "name":
            current = Group(col)
            groups.append(current)
        elif col.kind == "furigana" and current and current.furigana is None:
            current.furigana = col
        elif col.kind == "grade" and current and current.grade is None:
            current.grade = col
    return groups


def _settle_leader(groups: list[Group], rownum: int, problems: list[ImportProblem]) -> None:
    """Keep one leader column: the first marked one, else the first regular player column."""
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
