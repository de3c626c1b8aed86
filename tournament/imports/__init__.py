"""Reading team entries (参加申込書) from Excel workbooks, and the blank entry template.

The reader is database-free: :func:`parse_entry_workbook` turns an uploaded ``.xlsx`` into
:class:`TeamEntry` objects plus a list of :class:`ImportProblem` objects, each naming the sheet
row and column at fault. Checking the parsed teams against teams already registered (same
division, same :func:`tournament.engine.names.name_key`) is the caller's job.
:func:`entry_template_workbook` builds the app's own downloadable entry form, which the reader
reads back without problems. The sheets accepted are described in ``docs/entries.md``.

One job per module:

- ``records``: the results (:class:`PlayerEntry`, :class:`TeamEntry`, :class:`ImportProblem`,
  :class:`ParsedEntries`);
- ``header``: labels, what each column holds, finding the header row;
- ``limits``: the zip checked before openpyxl parses it (sizes, cells, shared strings, time);
- ``workbook``: reading the file, the active visible sheet and the cells, hidden rows skipped;
- ``merged``: merged cells over entry rows filled down or refused;
- ``rows`` and ``layouts``: turning rows into teams (one row per team, one row per player);
- ``parser``: :func:`parse_entry_workbook`;
- ``template``: :func:`entry_template_workbook` and :data:`TEMPLATE_LABELS`;
- ``messages``: translation with Django's gettext when Django is set up (else English).
"""

from tournament.imports import limits
from tournament.imports.parser import parse_entry_workbook
from tournament.imports.records import ImportProblem, ParsedEntries, PlayerEntry, TeamEntry
from tournament.imports.template import (
    TEMPLATE_GRADES,
    TEMPLATE_HEADER_ROW,
    TEMPLATE_LABELS,
    TEMPLATE_ROWS,
    TEMPLATE_SHEET,
    entry_template_workbook,
)
from tournament.imports.workbook import MAX_DATA_ROWS, MAX_FILE_BYTES

__all__ = [
    "MAX_DATA_ROWS",
    "MAX_FILE_BYTES",
    "TEMPLATE_GRADES",
    "TEMPLATE_HEADER_ROW",
    "TEMPLATE_LABELS",
    "TEMPLATE_ROWS",
    "TEMPLATE_SHEET",
    "ImportProblem",
    "ParsedEntries",
    "PlayerEntry",
    "TeamEntry",
    "entry_template_workbook",
    "limits",
    "parse_entry_workbook",
]
