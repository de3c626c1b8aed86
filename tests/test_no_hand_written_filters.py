"""No hand-written filter of games or sheets outside the QuerySets (issue 30, item 2).

The stages and statuses of a game are filtered in one place, ``tournament.models.MatchQuerySet``
(and ``judging.models.RecordingSheetQuerySet`` / ``PlayerCardsQuerySet`` for sheets), and the
sets of statuses are named once, on ``Match.Status`` (``OPEN``, ``WAITING``, ``AT_COURT``,
``PLAYED``, ``ENTERED``, ``DONE``) and ``Match.Stage`` (``AFTER_GROUPS``, ``BRACKET``). This test
walks the source of every app with ``ast`` and fails, naming file and line, on:

- a ``stage=…GROUP`` keyword (``stage``, ``match__stage``, ``stage__in`` … naming the group stage)
  in a ``filter``, ``exclude``, ``get`` or ``Q`` call: use ``group_stage()`` / ``after_groups()``;
- ``is_confirmed=True`` (or ``sheet__is_confirmed=True``) in a ``filter``, ``exclude`` or ``get``
  call: use ``confirmed()``;
- an ``exclude`` of the void status (``status=…VOID``, ``match__status=…VOID``): ``not_void()``;
- a literal list, tuple or set of statuses given to ``status__in`` or holding two
  ``…Status.<MEMBER>`` or more: use a named set of ``Match.Status``;
- a status written as a bare string in a filter (``status="scheduled"``).

Only the bodies of classes named ``…QuerySet`` and the assignments of the named sets
(``Status.OPEN = …``, ``Stage.BRACKET = …``) may spell them out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Every product package of the checkout (a top-level folder with an __init__.py, as the
# architecture test finds them), and the benches, which build events through the same models.
APPS = (*sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests"), "bench")
FILTER_CALLS = {"filter", "exclude", "get", "get_or_create"}
STATUS_VALUES = {"scheduled", "submitted", "confirmed", "disputed", "walkover", "void"}


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return None


def _field(arg: str) -> tuple[str, str]:
    """``sheet__match__stage__in`` -> (``stage``, ``in``): the field a lookup ends on and its lookup."""
    parts = arg.split("__")
    if parts[-1] in {"in", "exact"} and len(parts) > 1:
        return parts[-2], parts[-1]
    return parts[-1], "exact"


def _names_group(value: ast.AST) -> bool:
    for node in ast.walk(value):
        if isinstance(node, ast.Attribute) and node.attr == "GROUP":
            return True
        if isinstance(node, ast.Constant) and node.value == "group":
            return True
    return False


def _is_status_member(node: ast.AST) -> bool:
    """``Match.Status.VOID``, ``self.Status.VOID``, ``Status.VOID``."""
    if not (isinstance(node, ast.Attribute) and node.attr.isupper()):
        return False
    owner = node.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "Status") or (
        isinstance(owner, ast.Name) and owner.id == "Status"
    )


def _is_void(value: ast.AST) -> bool:
    return (_is_status_member(value) and value.attr == "VOID") or (
        isinstance(value, ast.Constant) and value.value == "void"
    )


class Finder(ast.NodeVisitor):
    """Collects ``(line, what)`` of every hand-written filter or status set in one module."""

    def __init__(self):
        self.found: list[tuple[int, str]] = []
        self._named_sets: set[int] = set()  # ids of the value nodes of ``Status.X = …``

    def visit_ClassDef(self, node: ast.ClassDef):
        if node.name.endswith("QuerySet"):
            return  # the one place the filters are spelled out
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign):
        if any(
            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in {"Status", "Stage"}
            for t in node.targets
        ):
            self._named_sets.update(id(n) for n in ast.walk(node.value))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call):
        name = _call_name(node)
        for keyword in node.keywords:
            if keyword.arg is None:
                continue
            field, lookup = _field(keyword.arg)
            if field == "stage" and name in FILTER_CALLS | {"Q"} and _names_group(keyword.value):
                self.found.append((keyword.value.lineno, f"{keyword.arg}=… the group stage in {name}()"))
            if field == "is_confirmed" and name in FILTER_CALLS and getattr(keyword.value, "value", None) is True:
                self.found.append((keyword.value.lineno, f"{keyword.arg}=True in {name}(): use confirmed()"))
            if field == "status" and name in FILTER_CALLS | {"Q"}:
                self._status_keyword(name, keyword, lookup)
        self.generic_visit(node)

    def _status_keyword(self, name, keyword, lookup):
        value = keyword.value
        if lookup == "exact" and name == "exclude" and _is_void(value):
            self.found.append((value.lineno, f"exclude({keyword.arg}=…VOID): use not_void()"))
        elif lookup == "in" and isinstance(value, ast.List | ast.Tuple | ast.Set):
            self.found.append((value.lineno, f"{keyword.arg}=[…] a literal set of statuses"))
        elif isinstance(value, ast.Constant) and value.value in STATUS_VALUES:
            self.found.append((value.lineno, f"{keyword.arg}={value.value!r}: a status as a bare string"))

    def _literal(self, node):
        if id(node) not in self._named_sets and sum(_is_status_member(e) for e in node.elts) >= 2:
            self.found.append((node.lineno, "a literal set of statuses: name it on Match.Status"))
        self.generic_visit(node)

    visit_Tuple = visit_List = visit_Set = _literal


def hand_written(source: str) -> list[tuple[int, str]]:
    finder = Finder()
    finder.visit(ast.parse(source))
    return sorted(set(finder.found))


def app_modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_no_module_writes_a_filter_the_querysets_name():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in app_modules()
        for line, what in hand_written(path.read_text(encoding="utf-8"))
    ]
    assert not found, "hand-written filters (use MatchQuerySet / Match.Status sets):\n" + "\n".join(found)


def test_the_walk_reads_the_querysets_and_their_users():
    names = {path.relative_to(ROOT).as_posix() for path in app_modules()}
    assert {"tournament/models.py", "judging/models.py", "tournament/reports/standings.py"} <= names
    assert "def group_stage" in (ROOT / "tournament/models.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "source",
    [
        "Match.objects.filter(division=d, stage=Match.Stage.GROUP)",
        "Match.objects.exclude(stage=Match.Stage.GROUP)",
        "qs.filter(stage__in=[Match.Stage.GROUP, Match.Stage.PLACEMENT])",
        "RecordingSheet.objects.filter(match__stage=Match.Stage.GROUP)",
        "Count('pk', filter=~Q(stage=Match.Stage.GROUP))",
        "qs.filter(stage='group')",
        "RecordingSheet.objects.filter(is_confirmed=True)",
        "PlayerCards.objects.filter(sheet__is_confirmed=True)",
        "event.matches.exclude(status=Match.Status.VOID)",
        "sheets.exclude(match__status=Match.Status.VOID)",
        "qs.filter(status__in=[Match.Status.VOID])",
        "qs.exclude(status='scheduled')",
        "OPEN = (Match.Status.SCHEDULED, Match.Status.SUBMITTED)",
        "if m.status in (self.Status.CONFIRMED, self.Status.WALKOVER): pass",
        "x = {Status.SUBMITTED, Status.DISPUTED}",
        "class Other:\n    def f(self):\n        return self.filter(stage=Match.Stage.GROUP)",
    ],
)
def test_the_finder_names_each_hand_written_filter(source):
    assert hand_written(source), source


@pytest.mark.parametrize(
    "source",
    [
        "Match.objects.filter(division=d).group_stage().not_void()",
        "Match(stage=Match.Stage.GROUP, round=1)",  # a game made, not a filter
        "Match.objects.create(stage=Match.Stage.GROUP)",
        "qs.filter(status__in=Match.Status.OPEN)",
        "qs.filter(status=Match.Status.WALKOVER)",
        "qs.exclude(status=Match.Status.SCHEDULED)",
        "m.sheets.confirmed().update(is_confirmed=False)",
        "if m.stage == Match.Stage.GROUP: pass",
        "class MatchQuerySet:\n    def group_stage(self):\n        return self.filter(stage=Match.Stage.GROUP)",
        "class Status:\n    pass\nStatus.OPEN = frozenset({Status.SCHEDULED, Status.SUBMITTED})",
        "UniqueConstraint(fields=['match'], condition=Q(is_confirmed=True), name='one')",
    ],
)
def test_the_finder_lets_the_named_forms_pass(source):
    assert not hand_written(source), source
