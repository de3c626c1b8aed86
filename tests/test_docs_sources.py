"""The docs cite their sources so that a clone can follow them (issue 30, item 6): by the
title and section of the original, or by a page of ``docs/`` that copies the passage, never
by a path of one machine (``/work/…``) or of the folder beside the repository (``../shared/…``),
which a clone does not have."""

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
MACHINE_PATH = re.compile(r"\.\./shared\b|/work/")


def machine_paths(text: str) -> list[tuple[int, str]]:
    """(line number, line) of each line of ``text`` that names a path outside the repository."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if MACHINE_PATH.search(line)]


def _pages():
    return sorted(p for p in DOCS.rglob("*") if p.is_file() and p.suffix in {".md", ".txt", ".rst", ".json", ".csv"})


def test_the_docs_are_read():
    names = {p.relative_to(DOCS).as_posix() for p in _pages()}
    assert {"architecture.md", "rules/podium.md", "rules/hitachi-deck.md"} <= names


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_no_page_cites_a_path_outside_the_repository(page):
    found = machine_paths(page.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{page.relative_to(DOCS)}:{n}: {line}" for n, line in found)


def test_the_check_finds_a_machine_path():
    text = "Source: the domain research, section 1.5.\ncopied from `../shared/reference/x.md`\nsee /work/shared/rules/y.md\n"
    assert [n for n, _line in machine_paths(text)] == [2, 3]
