"""Round robins, packing group games onto courts x time slots, and the clock.

Responsibility, one job per module
----------------------------------
* ``round_robin``: ``berger_rounds`` builds a single round robin for seats
  ``1..n`` that reproduces the FIDE Berger tables exactly, board order and
  sides included (``docs/rules/scheduling-standings-seeding.md``, sections
  1.2-1.4).  For an odd ``n`` the dummy seat ``n + 1`` is the bye; its games
  are dropped, so a bye is never stored as a game.
* ``bound``: ``lower_bound``, the fewest slots any schedule can use
  (section 2.2).
* ``matches``: :class:`PlannedMatch`, :class:`Plan` and the writer that puts a
  slot's games on courts.
* ``partial``: ``partial_rounds`` builds the rounds of a group in which
  every team plays a fixed number of games (section 1.5), ``check_partial``
  refuses the impossible ones; ``partial_layout`` lays them out for ``plan``.
* ``layouts``: ``plan`` lays the groups of one division out on courts x
  slots in one of three layouts (``LAYOUTS``), the pinned layouts itself.
* ``shared``: the shared layout without rest, at the lower bound;
  ``improve``: the improvement search on games in a row and waits;
  ``rest``: the shared layout under the rest rule.
* ``measure``: ``report`` measures a plan against the secondary aims (games
  in a row, waits, A/B sides) and re-runs the checks.
* ``checks``: ``check_schedule`` lists what is wrong with a slot-based
  schedule; ``timed_problems`` does the same for games with real start and
  end minutes.
* ``clock``: :class:`Clock` turns slot indices into start minutes.

Terms and units
---------------
A *slot* is one game length plus one changeover on every court; slots are
0-based ints.  Times in :class:`Clock` and :class:`TimedMatch` are whole
minutes from midnight.

What it must not do
-------------------
This package is pure: standard library only, no Django import, no database
access, no I/O.  It receives plain ints (seat numbers, team ids, court ids)
and returns plain values; the caller maps them to model instances and saves
them.  Every function is deterministic: the same input always gives the same
output, in the same order.

This module re-exports the names used outside the package.
"""

from tournament.engine.scheduling.bound import lower_bound
from tournament.engine.scheduling.checks import (
    TimedMatch,
    TimedProblem,
    check_schedule,
    clash_problems,
    timed_problems,
)
from tournament.engine.scheduling.clock import Clock
from tournament.engine.scheduling.layouts import LAYOUTS, plan
from tournament.engine.scheduling.matches import Plan, PlannedMatch
from tournament.engine.scheduling.measure import ScheduleReport, report
from tournament.engine.scheduling.partial import (
    PartialRoundRobinError,
    check_partial,
    partial_lower_bound,
    partial_rounds,
)
from tournament.engine.scheduling.round_robin import berger_rounds

__all__ = [
    "LAYOUTS",
    "Clock",
    "Plan",
    "PartialRoundRobinError",
    "PlannedMatch",
    "ScheduleReport",
    "TimedMatch",
    "TimedProblem",
    "berger_rounds",
    "check_partial",
    "check_schedule",
    "clash_problems",
    "lower_bound",
    "partial_lower_bound",
    "partial_rounds",
    "plan",
    "report",
    "timed_problems",
]
