"""Merged cells over the rows of entries: filled down, or refused naming the range.

Clubs write their club (所属) or division (部門) once and merge the cell down over their team
rows; openpyxl then gives the rows below an empty cell, and the teams were imported with an
empty club (issue 18, item 6), so the draw could not keep them apart. :func:`fill_merged`
copies the merged value into every row of the range for the columns where that means the
same thing on each row (部門, 所属, 引率者, and the team name of the one-row-per-player layout);
a range merged down over entries in any other column is a problem naming the range, since no
copy is right there (one team name or one player written over several teams' rows).
"""

from __future__ import annotations

from openpyxl.utils.cell import range_boundaries

from tournament.imports.header import Column, Header
from tournament.imports.messages import _
from tournament.imports.records import ImportProblem


def _fillable(header: Header) -> dict[int, Column]:
    """The 0-based column indexes whose merged value is copied down, with their column."""
    columns = [header.division, header.affiliation, header.chaperone]
    if header.layout == "player":
        columns.append(header.team)
    return {c.index: c for c in columns if c is not None}


def fill_merged(rows, merged: list[str], header: Header) -> tuple[dict[int, list[str]], list[ImportProblem]]:
    """Fill the rows of entries (``(row number, texts, values)``, changed in place) from the
    merged ranges (``"C5:C7"``) that reach below the header.

    Returns ``({row number: ["所属 C5:C7", ...]}, problems)``: the cells filled on each row, for
    the preview, and a problem for each range merged down over entries in a column that cannot
    be filled (or that starts on the header row or above). Ranges within one row and ranges
    above the header are left alone; unreadable references are ignored.
    """
    by_row = {row: (texts, values) for row, texts, values in rows}
    fillable = _fillable(header)
    fills: dict[int, list[str]] = {}
    problems: list[ImportProblem] = []
    for ref in merged:
        try:
            min_col, min_row, max_col, max_row = range_boundaries(ref)
        except (ValueError, TypeError):
            continue
        if min_row == max_row or max_row <= header.row:
            continue
        columns = [fillable.get(index) for index in range(min_col - 1, max_col)]
        top = by_row.get(min_row)
        if min_row <= header.row or top is None or None in columns:
            if any(row in by_row for row in range(max(min_row, header.row + 1), max_row + 1)):
                problems.append(
                    ImportProblem(
                        max(min_row, header.row + 1),
                        None,
                        _(
                            "The cells %(range)s are merged over several rows of entries. Unmerge them and "
                            "write the value on every row."
                        )
                        % {"range": ref},
                    )
                )
            continue
        for column in columns:
            _fill_column(by_row, column, min_row, max_row, f"{column.label} {ref}", fills)
    return fills, problems


def _fill_column(by_row, column: Column, min_row: int, max_row: int, note: str, fills) -> None:
    top_texts, top_values = by_row[min_row]
    if column.index >= len(top_texts):
        return
    for row in range(min_row, max_row + 1):
        if row not in by_row:
            continue
        texts, values = by_row[row]
        if row != min_row:
            while len(texts) <= column.index:
                texts.append("")
                values.append(None)
            texts[column.index] = top_texts[column.index]
            values[column.index] = top_values[column.index]
        fills.setdefault(row, []).append(note)
