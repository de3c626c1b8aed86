"""The club games (hanafuda, dosai) import ``common`` and themselves only, and their engines
import only the standard library and their own engine package; an architecture test of the whole tree will enforce the same."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The PDF modules still borrow the drawing toolkit of judging until it moves to common.pdf.
BORROWING_PDF = {"hanafuda/pdf.py", "dosai/paper.py"}


def imported(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def modules(app):
    return sorted(p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts)


@pytest.mark.parametrize("app", ["hanafuda", "dosai"])
def test_a_club_game_imports_common_and_itself_only(app):
    for path in modules(app):
        name = path.relative_to(ROOT).as_posix()
        if name in BORROWING_PDF:
            continue
        for module in imported(path):
            top = module.split(".")[0]
            assert top not in {"tournament", "judging", "ops", "config", "hanafuda", "dosai"} - {app}, (name, module)


@pytest.mark.parametrize("app", ["hanafuda", "dosai"])
def test_an_engine_imports_the_standard_library_and_its_own_engine_only(app):
    for path in sorted((ROOT / app / "engine").glob("*.py")):
        for module in imported(path):
            top = module.split(".")[0]
            ok = module.startswith(f"{app}.engine") or top in sys.stdlib_module_names or top == "__future__"
            assert ok, (path.name, module)
