"""The tournament's screens, one module per part of the day.

``setup`` (events, divisions, courts), ``teams`` (list, edit, withdraw, import),
``draw_schedule`` (groups, schedule, checks, day changes), ``standings_stages``
(standings, lots, knockout), ``downloads`` (Excel, PDF, print menu), ``people``,
``public`` (the spectators' pages), ``displays`` (hall screens) and ``api`` (the public
JSON API v1). Views stay thin: load, check access (``tournament.access``), call a
service or the read side (``tournament.reports``), respond. Only URL modules import
these modules; none of them imports another.
"""
