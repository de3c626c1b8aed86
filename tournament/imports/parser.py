"""Reading an entry workbook into teams and problems: :func:`parse_entry_workbook`."""

from __future__ import annotations

from tournament.engine.names import clean_display
from tournament.imports.layouts import PlayerRows, TeamRows
from tournament.imports.limits import LimitExceeded
from tournament.imports.merged import fill_merged
from tournament.imports.messages import _
from tournament.imports.records import ImportProblem, ParsedEntries
from tournament.imports.workbook import read_entry_sheet


def parse_entry_workbook(fileobj_or_bytes, default_division: str = "") -> ParsedEntries:
    """Parse an entry workbook (``.xlsx``) into teams and problems.

    *fileobj_or_bytes* is the file content as bytes, or a binary file-like
    object (an open file, ``io.BytesIO`` or a Django ``UploadedFile``).
    *default_division* is used for rows whose 部門 cell is empty, or when the
    sheet has no 部門 column at all.

    Returns a :class:`ParsedEntries`: the teams (``TeamEntry``, players with
    canonical grades such as ``"小2"``, leader first), every fault as an
    :class:`ImportProblem` with its row and column (sorted by row, faults of
    the whole file first), the sheet read, its header row and its layout, the
    warnings the organiser may accept (hidden or filtered-out rows skipped, a
    player in two teams) and the other sheets that look like entry sheets.
    Never raises for bad input: every fault becomes a problem and the result
    is not :attr:`~ParsedEntries.ok`. Issue 18, items 2 and 6: limits before
    parsing, the active visible sheet, merged cells filled down or refused,
    dates where text was expected, the form's length limits.

    The sheets and labels accepted, the two layouts ("team": one row per
    team; "player": one row per player) and the problems reported are
    described in ``docs/entries.md``; the limits against huge or damaged
    files in ``docs/rules/entries.md``. The database is not touched:
    duplicates against already registered teams are the caller's check.
    """
    sheet = read_entry_sheet(fileobj_or_bytes)
    if isinstance(sheet, ImportProblem):
        return ParsedEntries(teams=[], problems=[sheet])

    header = sheet.header
    problems: list[ImportProblem] = list(header.problems)
    result = ParsedEntries(
        teams=[],
        problems=problems,
        sheet=sheet.title,
        header_row=header.row,
        layout=header.layout,
        warnings=_skipped_rows(sheet.skipped, sheet.filtered),
        other_sheets=sheet.other_sheets,
    )
    default_division = clean_display(default_division)
    if header.division is None and not default_division:
        problems.append(
            ImportProblem(
                header.row, None, _("There is no 「部門」 (division) column and no default division was chosen.")
            )
        )

    try:
        fills, merge_problems = fill_merged(sheet.rows, sheet.merged, header, sheet.budget)
    except LimitExceeded as exc:
        return ParsedEntries(teams=[], problems=[ImportProblem(None, None, str(exc))])
    problems.extend(merge_problems)
    reader = (TeamRows if header.layout == "team" else PlayerRows)(
        header, default_division, problems, result.warnings, fills
    )
    reader.read(sheet.rows)
    problems.extend(sheet.problems)
    result.teams = reader.finish()
    problems.sort(key=lambda p: -1 if p.row is None else p.row)
    result.warnings.sort(key=lambda p: -1 if p.row is None else p.row)
    return result


def _skipped_rows(rows: list[int], filtered: bool) -> list[ImportProblem]:
    """One warning per hidden row not read (filtered out, when the sheet has an AutoFilter)."""
    if filtered:
        message = _("This row is filtered out (AutoFilter) and was not read.")
    else:
        message = _("This row is hidden and was not read.")
    return [ImportProblem(row, None, message) for row in rows]
