"""The read side: what pages, Excel, PDF and the JSON API show, shaped once from the database.

Nothing here writes. One module per kind of report: ``standings`` (group tables, 星取表,
tied blocks, qualifiers), ``bracket`` (knockout rounds, sources, final places),
``timetable`` (games with their confirmed results), ``checks`` (the organiser's
schedule checks) and ``teams`` (teams with players: personal data, organisers only) and ``individual``
(players' cards over the group stage: personal data, organisers only). The names below are the ones the rest of the project uses.
"""

from tournament.reports.bracket import (
    PLACES,
    DivisionBracket,
    GroupChampion,
    division_brackets,
    final_places,
    single_champions,
)
from tournament.reports.checks import layout_summary, schedule_checks
from tournament.reports.individual import IndividualBlock, IndividualLine, individual_table
from tournament.reports.standings import (
    CrossCell,
    CrossTable,
    GroupStandings,
    RunnerUpTie,
    StandingLine,
    StandingsTable,
    cross_table,
    decided_by_text,
    division_standings,
    event_standings,
    group_standings,
    qualifiers,
    rank_text,
    runner_up_tie,
    standing_lines,
    tied_blocks,
)
from tournament.reports.teams import teams_with_players
from tournament.reports.timetable import (
    GameSlots,
    MatchLine,
    SideSlot,
    confirmed_sheet,
    court_timetables,
    division_game_slots,
    event_slots,
    is_annulled,
    match_line,
    match_lines,
    match_queryset,
    result_text,
    side_text,
    status_text,
)

__all__ = [
    "PLACES",
    "CrossCell",
    "CrossTable",
    "DivisionBracket",
    "GameSlots",
    "MatchLine",
    "is_annulled",
    "status_text",
    "SideSlot",
    "GroupStandings",
    "IndividualBlock",
    "IndividualLine",
    "RunnerUpTie",
    "StandingLine",
    "StandingsTable",
    "confirmed_sheet",
    "court_timetables",
    "cross_table",
    "decided_by_text",
    "division_brackets",
    "division_game_slots",
    "division_standings",
    "event_slots",
    "event_standings",
    "final_places",
    "single_champions",
    "GroupChampion",
    "match_line",
    "match_lines",
    "group_standings",
    "individual_table",
    "layout_summary",
    "match_queryset",
    "qualifiers",
    "rank_text",
    "result_text",
    "runner_up_tie",
    "schedule_checks",
    "side_text",
    "standing_lines",
    "teams_with_players",
    "tied_blocks",
]
