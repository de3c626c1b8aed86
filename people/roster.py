"""The duty roster's read side (係分担表, issue 32 item 6; docs/people.md "Duty roster"): the
time blocks from the event's schedule, each role's names per block, and the warnings for one
person in two places (two roles, or a role while judging a game)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils.translation import gettext as _

from common.dates import to_tokyo
from people.engine import roster as engine
from people.models import Duty, RefereeAssignment

KIND_LABELS = {
    engine.BEFORE: lambda: _("Before the start"),
    engine.MORNING: lambda: _("Morning"),
    engine.LUNCH: lambda: _("Lunch"),
    engine.AFTERNOON: lambda: _("Afternoon"),
    engine.GAMES: lambda: _("Games"),
}


@dataclass(frozen=True)
class RosterBlock:
    index: int
    label: str  # 「午前 9:30–12:00」


@dataclass(frozen=True)
class RosterRow:
    role: str
    label: str
    cells: list[list[str]]  # names per block


@dataclass(frozen=True)
class RosterTable:
    blocks: list[RosterBlock]
    rows: list[RosterRow]
    warnings: list[str]


def _minutes(t: datetime.time) -> int:
    return t.hour * 60 + t.minute


def _clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def day_blocks(event) -> list[engine.Block]:
    """The roster's blocks of ``event``: from its start time to its last game's end (no games:
    six hours), with its lunch break."""
    start = _minutes(event.start_time)
    last = event.matches.filter(start_at__isnull=False).order_by("-start_at").values_list("start_at", flat=True)
    end = start + 6 * 60
    if last:
        local = to_tokyo(last[0])
        end = max(start, local.hour * 60 + local.minute + event.game_minutes)
    lunch = None
    if event.lunch_start and event.lunch_end:
        lunch = (_minutes(event.lunch_start), _minutes(event.lunch_end))
    return engine.blocks(start, end, lunch)


def roster_table(event) -> RosterTable:
    """The event's roster: every role (``Duty.Role``) down, the blocks across, and the warnings."""
    blocks = day_blocks(event)
    labels = [
        RosterBlock(i, f"{KIND_LABELS[b.kind]()} {_clock(b.start)}–{_clock(b.end)}") for i, b in enumerate(blocks)
    ]
    duties = list(Duty.objects.filter(event=event).order_by("pk"))
    rows = []
    for role, label in Duty.Role.choices:
        cells = [[d.name for d in duties if d.role == role and d.block == i] for i in range(len(blocks))]
        rows.append(RosterRow(role, str(label), cells))
    judging = []
    for start, name in RefereeAssignment.objects.filter(match__event=event, match__start_at__isnull=False).values_list(
        "match__start_at", "referee__name"
    ):
        local = to_tokyo(start)
        block = engine.block_of(blocks, local.hour * 60 + local.minute)
        if block is not None:
            judging.append((name, block))
    role_names = dict(Duty.Role.choices)
    role_names["referee-game"] = _("judging a game")
    warnings = [
        _("%(name)s is in two places in %(block)s: %(roles)s.")
        % {"name": c.name, "block": labels[c.block].label, "roles": "、".join(str(role_names[r]) for r in c.roles)}
        for c in engine.clashes([(d.role, d.block, d.name) for d in duties if d.block < len(blocks)], judging)
    ]
    return RosterTable(labels, rows, warnings)
