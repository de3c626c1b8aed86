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

import bisect

from openpyxl.utils.cell import range_boundaries

from common import limits
from tournament.imports.header import Column, Header
from tournament.imports.limits import Budget
from tournament.imports.messages import _
from tournament.imports.records import ImportProblem

MAX_COLUMNS = limits.ENTRY_COLUMNS


def _fillable(header: Header) -> dict[int, Column]:
    """The 0-based column indexes whose merged value is copied down, with their column."""
    columns = [header.division, header.affiliation, header.chaperone]
    if header.layout == "player":
        columns.append(header.team)
    return {c.index: c for c in columns if c is not None}


def fill_merged(
    rows, merged: list[str], header: Header, budget: Budget | None = None
) -> tuple[dict[int, list[str]], list[ImportProblem]]:
    """Fill the rows of entries (``(row number, texts, values)``, changed in place) from the
    merged ranges (``"C5:C7"``) that reach below the header.

    Returns ``({row number: ["所属 C5:C7", ...]}, problems)``: the cells filled on each row, for
    the preview, and a problem for each range merged down over entries in a column that cannot
    be filled (or that starts on the header row or above). Ranges within one row and ranges
    above the header are left alone; unreadable references are ignored.

    The work is bounded (issue 28, item 1: 200 ranges down to row 1,048,576 held a worker for
    72 s): only the rows read are visited (found by bisection, never a loop over the range's
    rows), columns past ``MAX_COLUMNS`` are not looked at, at most
    ``common.limits.ENTRY_MERGED_CELLS`` cells are filled (past it a problem names the limit
    and filling stops) and ``budget`` (a :class:`~tournament.imports.limits.Budget`, checked
    for each range) raises ``LimitExceeded`` when the time is up.
    """
    budget = budget or Budget()
    by_row = {row: (texts, values) for row, texts, values in rows}
    numbers = sorted(by_row)
    fillable = _fillable(header)
    fills: dict[int, list[str]] = {}
    problems: list[ImportProblem] = []
    filled = 0
    for ref in merged:
        budget.check()
        try:
            min_col, min_row, max_col, max_row = range_boundaries(ref)
        except (ValueError, TypeError):
            continue
        if min_row is None or max_row is None or min_row == max_row or max_row <= header.row:
            continue
        max_col = min(max_col, MAX_COLUMNS)
        inside = _rows_within(numbers, max(min_row, header.row + 1), max_row)
        columns = [fillable.get(index) for index in range(min_col - 1, max_col)]
        top = by_row.get(min_row)
        if min_row <= header.row or top is None or None in columns:
            if inside:
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
        filled += len(inside) * len(columns)
        if filled > limits.ENTRY_MERGED_CELLS:
            problems.append(
                ImportProblem(
                    min_row,
                    None,
                    _(
                        "The merged cells fill more than %(limit)s cells (at %(range)s). Unmerge them and write "
                        "the value on every row."
                    )
                    % {"limit": f"{limits.ENTRY_MERGED_CELLS:,}", "range": ref},
                )
            )
            break
        for column in columns:
            _fill_column(by_row, column, min_row, inside, f"{column.label} {ref}", fills)
    return fills, problems


def _rows_within(numbers: list[int], first: int, last: int) -> list[int]:
    """The row numbers of ``numbers`` (sorted) from ``first`` to ``last``, both included."""
    return numbers[bisect.bisect_left(numbers, first) : bisect.bisect_right(numbers, last)]


def _fill_column(by_row, column: Column, min_row: int, rows: list[int], note: str, fills) -> None:
    top_texts, top_values = by_row[min_row]
    if column.index >= len(top_texts):
        return
    for row in rows:  # the rows read within the range, the top one first
        texts, values = by_row[row]
        if row != min_row:
            while len(texts) <= column.index:
                texts.append("")
                values.append(None)
            texts[column.index] = top_texts[column.index]
            values[column.index] = top_values[column.index]
        fills.setdefault(row, []).append(note)
