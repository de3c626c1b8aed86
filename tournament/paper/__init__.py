"""Printed tournament paper, one module per kind (Python + reportlab; of Django only translation).

==============================================  ==================================================
:func:`~tournament.paper.timetable.court_timetables_pdf`  対戦表: one wall page per court (A4 portrait)
:func:`~tournament.paper.reception.reception_list_pdf`    受付名簿: teams by division with check-in boxes
:func:`~tournament.paper.standings.standings_pdf`         順位表・星取表 per group (A4, landscape when wide)
:func:`~tournament.paper.bracket.bracket_pdf`             トーナメント表 per division (A4 landscape)
:func:`~tournament.paper.results.final_results_pdf`       成績一覧 for the closing ceremony (A4 portrait)
:func:`~tournament.paper.individual.individual_pdf`       個人成績: players' cards over the group stage (A4)
:func:`~tournament.paper.programme.programme_pdf`         大会プログラム: the booklet for everyone (A4, 2-up A3)
==============================================  ==================================================

Callers (``tournament.printing``) turn their models into the plain frozen dataclasses of
these modules, with every text already translated, and get PDF bytes back; the labels the
modules print themselves are translated into the active language, so a paper is in the
language of the session that asked for it (README "Languages").  The rules
every paper follows (fonts, names fitted to their boxes, page breaks, footers) are in
``docs/rules/paper.md``; the referee's paper (recording sheets, 判定表) is in
:mod:`judging.paper`.  The names are re-exported here for ``from tournament import paper``.
"""

from tournament.paper.bracket import BracketMatch, PlacementGame, bracket_pdf
from tournament.paper.data import EventInfo, undecided
from tournament.paper.individual import IndividualRow, IndividualSheet, individual_pdf
from tournament.paper.programme import DEFAULT_SECTIONS as PROGRAMME_DEFAULT_SECTIONS
from tournament.paper.programme import SECTIONS as PROGRAMME_SECTIONS
from tournament.paper.programme import (
    ProgrammeCover,
    ProgrammeGroup,
    ProgrammeStaff,
    ProgrammeTeam,
    ScheduleItem,
    programme_pdf,
)
from tournament.paper.programme import section_title as programme_section_title
from tournament.paper.reception import ReceptionPlayer, ReceptionTeam, reception_list_pdf
from tournament.paper.results import ResultEntry, final_results_pdf
from tournament.paper.standings import GroupSheet, StandingLine, standings_pdf
from tournament.paper.timetable import TimetableMatch, court_timetables_pdf

__all__ = [
    "undecided",
    "PROGRAMME_DEFAULT_SECTIONS",
    "PROGRAMME_SECTIONS",
    "ProgrammeCover",
    "ProgrammeGroup",
    "ProgrammeStaff",
    "ProgrammeTeam",
    "ScheduleItem",
    "programme_pdf",
    "programme_section_title",
    "BracketMatch",
    "PlacementGame",
    "EventInfo",
    "GroupSheet",
    "IndividualRow",
    "IndividualSheet",
    "ReceptionPlayer",
    "ReceptionTeam",
    "ResultEntry",
    "StandingLine",
    "TimetableMatch",
    "bracket_pdf",
    "court_timetables_pdf",
    "final_results_pdf",
    "individual_pdf",
    "reception_list_pdf",
    "standings_pdf",
]
