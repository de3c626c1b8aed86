"""The individual table (個人成績): each player's cards over the group stage, for the
individual prizes of events that take individual counts.

Read only. Counts come from the confirmed version of each confirmed group-stage game
(a correction carries its own counts; a void or unconfirmed game counts nothing). Blocks
are per division and, when the division's players have grades, per grade (the player's
grade text). Players' names are personal data: organiser outputs only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Sum
from django.utils.translation import gettext as _

from judging.models import PlayerCards
from tournament.models import Match, Player

# The grades of the entry forms in school order; other texts sort after them.
GRADE_ORDER = [f"小{i}" for i in range(1, 7)] + [f"中{i}" for i in range(1, 4)] + [f"高{i}" for i in range(1, 4)]


@dataclass(frozen=True)
class IndividualLine:
    """One player's line: ``rank`` shared by equal cards (1, 1, 3), ``rank_text`` with "="."""

    rank: int
    rank_text: str
    name: str
    furigana: str
    grade: str
    team: str
    affiliation: str
    cards: int
    games: int


@dataclass(frozen=True)
class IndividualBlock:
    """The lines of one division, or of one grade of it (``grade`` empty: the whole division)."""

    division: object
    grade: str
    lines: list[IndividualLine]

    @property
    def title(self):
        if not self.grade:
            return self.division.name
        return f"{self.division.name} ・ {self.grade}"


def _grade_key(grade: str):
    if grade in GRADE_ORDER:
        return (0, GRADE_ORDER.index(grade), grade)
    return (1 if grade else 2, 0, grade)


def _ranked(entries) -> list[IndividualLine]:
    """``[(player, cards, games)]`` → lines, most cards first; equal cards share a rank."""
    entries = sorted(entries, key=lambda e: (-e[1], e[0].team.entry_number, e[0].order, e[0].pk))
    lines = []
    for i, (player, cards, games) in enumerate(entries):
        rank = lines[-1].rank if lines and lines[-1].cards == cards else i + 1
        shared = sum(1 for _p, c, _g in entries if c == cards) > 1
        lines.append(
            IndividualLine(
                rank=rank,
                rank_text=f"{rank}=" if shared else str(rank),
                name=player.name,
                furigana=player.furigana,
                grade=player.grade or "—",
                team=player.team.name,
                affiliation=player.team.affiliation,
                cards=cards,
                games=games,
            )
        )
    return lines


def individual_totals(event) -> dict[int, tuple[int, int]]:
    """{player pk: (cards, games played)} over the confirmed group-stage games of ``event``."""
    rows = (
        PlayerCards.objects.confirmed()
        .group_stage()
        .filter(sheet__match__event=event, sheet__match__status=Match.Status.CONFIRMED)
        .values("player_id")
        .annotate(cards=Sum("cards"), games=Count("sheet__match", distinct=True))
    )
    return {r["player_id"]: (r["cards"], r["games"]) for r in rows}


def individual_table(event) -> list[IndividualBlock]:
    """The individual table of ``event``: blocks per division (in order), split by grade
    when any ranked player of the division has one; each block ranked by cards.

    In: an event. Out: ``[IndividualBlock]``, empty when no confirmed group-stage game has
    individual counts. Walkovers have no counts and do not count as games played
    (docs/rules/hitachi-karuta.md, "Individual card counts (choice)").
    """
    totals = individual_totals(event)
    players = Player.objects.filter(pk__in=totals).select_related("team__division")
    by_division = {}
    for player in players:
        by_division.setdefault(player.team.division, []).append((player, *totals[player.pk]))
    blocks = []
    for division in sorted(by_division, key=lambda d: (d.order, d.pk)):
        entries = by_division[division]
        if not any(p.grade for p, _c, _g in entries):
            blocks.append(IndividualBlock(division, "", _ranked(entries)))
            continue
        grades = sorted({p.grade for p, _c, _g in entries}, key=_grade_key)
        for grade in grades:
            label = grade or _("grade not given")
            blocks.append(IndividualBlock(division, label, _ranked([e for e in entries if e[0].grade == grade])))
    return blocks
