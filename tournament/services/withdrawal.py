"""A team withdrawing (棄権): what it will change, shown before anything is saved, and the
withdrawal itself.

The preview is the withdrawal itself, run in a transaction that is rolled back: the same code
computes what is shown before saving and what is saved, so the two cannot differ. The rules are
in ``docs/rules/stages.md``, "Withdrawals".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result, refresh_slots, void_match, walkover_values
from tournament.engine import names
from tournament.models import Match, Team
from tournament.reports.stages import division_slots, takes_place
from tournament.reports.standings import division_standings


@dataclass(frozen=True)
class GameChange:
    """A game of the withdrawing team that changes: ``kind`` "voided" (an unplayed game that
    will never be played), "walkover" (its opponent wins 不戦勝) or "annulled" (a played group
    game that leaves the standings); ``score`` the annulled result ("30–25", the team's cards
    first)."""

    number: int
    stage: str
    opponent: str
    kind: str
    score: str = ""


@dataclass(frozen=True)
class PlaceChange:
    """A place of a group's standings now held by another team ("" for nobody)."""

    group: str
    place: int
    before: str
    after: str


@dataclass(frozen=True)
class SlotChange:
    """A side of a game after the groups whose team changes. ``label`` is its slot ("Aリーグ1位");
    ``frozen``: the game has started or has a result, so it keeps its teams and is shown out of
    date instead."""

    number: int
    stage: str
    label: str
    before: str
    after: str
    frozen: bool


@dataclass
class WithdrawalReport:
    """What a withdrawal changes (or would change): ``after_groups`` whether the team's group
    was complete (it keeps its results), ``policy`` the division's setting that applied
    ("annul", "walkover") or "after_groups"; ``games``, ``places``, ``slots`` the changes;
    ``keeps_slots`` whether the team was already drawn into the games after the groups (it keeps
    its place there and its games there are walkovers); ``successor`` the qualifying place the
    team held in its group and the team that takes it now (``after`` "" for nobody yet), or None
    when it held none or keeps its slots."""

    team: str
    division: str
    after_groups: bool
    policy: str
    games: list = field(default_factory=list)
    places: list = field(default_factory=list)
    slots: list = field(default_factory=list)
    keeps_slots: bool = False
    successor: PlaceChange | None = None

    def count(self, kind):
        return sum(1 for game in self.games if game.kind == kind)

    @property
    def changes(self):
        """The parts that can differ between two runs (the preview and the save compare these)."""
        return (self.after_groups, self.policy, self.games, self.places, self.slots, self.successor)

    def summary(self):
        """Sentences saying the counts, in the active language (the message after saving)."""
        parts = []
        counts = [
            (
                "voided",
                ngettext("%(count)s unplayed game voided.", "%(count)s unplayed games voided.", self.count("voided")),
            ),
            (
                "walkover",
                ngettext(
                    "%(count)s game scored as a walkover for the opponent.",
                    "%(count)s games scored as walkovers for the opponents.",
                    self.count("walkover"),
                ),
            ),
            (
                "annulled",
                ngettext(
                    "%(count)s played game annulled (it leaves the standings).",
                    "%(count)s played games annulled (they leave the standings).",
                    self.count("annulled"),
                ),
            ),
        ]
        for kind, text in counts:
            if self.count(kind):
                parts.append(text % {"count": self.count(kind)})
        if self.places:
            parts.append(
                ngettext("%(count)s standings place changes.", "%(count)s standings places change.", len(self.places))
                % {"count": len(self.places)}
            )
        if self.slots:
            parts.append(
                ngettext(
                    "%(count)s slot after the groups changes.",
                    "%(count)s slots after the groups change.",
                    len(self.slots),
                )
                % {"count": len(self.slots)}
            )
        if not parts:
            parts.append(_("No game, place or slot changes."))
        parts += self.successor_lines()
        return " ".join(parts)

    def successor_lines(self):
        """The team that takes the withdrawn team's qualifying place, in a sentence (or none)."""
        s = self.successor
        if s is None:
            return []
        values = {"group": s.group, "place": s.place, "team": s.before, "after": s.after or _("nobody yet")}
        return [_("%(group)s place %(place)s, which %(team)s held, goes to %(after)s.") % values]

    def rule(self):
        """The rule that applies, in a sentence."""
        if self.after_groups and self.keeps_slots:
            return _(
                "The group of %(team)s is complete: it keeps its group results and its row, marked withdrawn. "
                "It is already drawn into the games after the groups: it keeps its place there, and each of its "
                "games there is a walkover for its opponent."
            ) % {"team": self.team}
        if self.after_groups:
            return _(
                "The group of %(team)s is complete: it keeps its group results and its row, marked withdrawn, "
                "but takes no qualifying place: the next team of its group takes its place after the groups."
            ) % {"team": self.team}
        if self.policy == "annul":
            return _("During the group stage: all games of %(team)s are annulled, as %(division)s's setting says.") % {
                "team": self.team,
                "division": self.division,
            }
        return _(
            "During the group stage: the played games of %(team)s stand and the rest are walkovers, "
            "as %(division)s's setting says."
        ) % {"team": self.team, "division": self.division}

    def game_lines(self):
        lines = []
        for game in self.games:
            values = {"number": game.number, "stage": game.stage, "opponent": game.opponent, "score": game.score}
            if game.kind == "voided":
                lines.append(_("Game %(number)s (%(stage)s) against %(opponent)s is voided.") % values)
            elif game.kind == "walkover":
                lines.append(_("Game %(number)s (%(stage)s): walkover win for %(opponent)s.") % values)
            else:
                lines.append(_("Game %(number)s (%(stage)s) against %(opponent)s, %(score)s, is annulled.") % values)
        return lines

    def place_lines(self):
        nobody = _("nobody yet")
        return [
            _("%(group)s place %(place)s: %(before)s → %(after)s")
            % {"group": p.group, "place": p.place, "before": p.before or nobody, "after": p.after or nobody}
            for p in self.places
        ]

    def slot_lines(self):
        nobody = _("nobody yet")
        lines = []
        for s in self.slots:
            values = {
                "number": s.number,
                "stage": s.stage,
                "slot": s.label,
                "before": s.before or nobody,
                "after": s.after or nobody,
            }
            if s.frozen:
                lines.append(
                    _(
                        "Game %(number)s (%(stage)s) has started or has a result: %(slot)s is now %(after)s "
                        "instead of %(before)s; the game keeps its teams and is shown out of date."
                    )
                    % values
                )
            else:
                lines.append(_("Game %(number)s (%(stage)s), %(slot)s: %(before)s → %(after)s") % values)
        return lines


@dataclass
class _Snapshot:
    tables: list
    rows: dict  # group pk -> [team id in rank order]
    slots: dict  # match pk -> SlotState
    games: dict  # match pk -> (status, team a id, team b id)


def _snapshot(division):
    tables = division_standings(division)
    rows = {table.group.pk: [row.team for row in table.rows] for table in tables}
    states = {state.match.pk: state for state in division_slots(division, tables=tables)}
    games = {
        pk: (status, a, b)
        for pk, status, a, b in Match.objects.filter(division=division).values_list(
            "pk", "status", "team_a_id", "team_b_id"
        )
    }
    return _Snapshot(tables, rows, states, games)


def _group_complete(team, tables):
    return any(table.group.pk == team.group_id and table.complete for table in tables)


def _played_groups_games_annulled(team, before, after):
    """Group games of ``team`` with a result before and after that leave the standings: the team
    was in its group's rows and is no more."""
    if team.group_id is None or team.pk not in before.rows.get(team.group_id, []):
        return []
    if team.pk in after.rows.get(team.group_id, []):
        return []
    return [pk for pk, (status, a, b) in before.games.items() if team.pk in (a, b) and status in Match.Status.PLAYED]


def _games(team, before, after):
    matches = Match.objects.in_bulk(list(before.games)).values()
    annulled = set(_played_groups_games_annulled(team, before, after))
    changes = []
    for m in sorted(matches, key=lambda m: m.match_number):
        old_status = before.games[m.pk][0]
        new_status, new_a, new_b = after.games.get(m.pk, (old_status, None, None))
        opponent_id = new_b if new_a == team.pk else new_a
        stage = m.get_stage_display()
        if m.pk in annulled and m.is_group_match:
            sheet = m.sheets.confirmed().first()
            mine, theirs = (sheet.cards_a, sheet.cards_b) if m.team_a_id == team.pk else (sheet.cards_b, sheet.cards_a)
            changes.append(GameChange(m.match_number, stage, _name(opponent_id), "annulled", f"{mine}–{theirs}"))
        elif old_status != new_status and new_status == Match.Status.VOID:
            changes.append(GameChange(m.match_number, stage, _name(opponent_id), "voided"))
        elif old_status != new_status and new_status == Match.Status.WALKOVER:
            winner = new_b if new_a == team.pk else new_a
            changes.append(GameChange(m.match_number, stage, _name(winner), "walkover"))
    return changes


def _name(team_id):
    if team_id is None:
        return ""
    return Team.objects.filter(pk=team_id).values_list("name", flat=True).first() or ""


def _places(before, after):
    changes = []
    for table in after.tables:
        old, new = before.rows.get(table.group.pk, []), after.rows[table.group.pk]
        for place in range(1, max(len(old), len(new)) + 1):
            was = old[place - 1] if place <= len(old) else None
            now = new[place - 1] if place <= len(new) else None
            if was != now and now is not None:  # a shorter table: the team left it (its games annulled)
                changes.append(PlaceChange(str(table.group), place, _name(was), _name(now)))
    return changes


def _successor(team, before, after):
    """The qualifying place ``team`` held in its group before withdrawing and who holds it now
    (a ``PlaceChange``), or None: no group, no qualifying place, or it keeps its slots."""
    if team.group_id is None or team.withdrawn_keeps_slots:
        return None
    division = team.division
    wanted = division.qualifiers_per_group + (1 if division.best_runners_up else 0)

    def eligible(snapshot):
        for table in snapshot.tables:
            if table.group.pk == team.group_id:
                return table, [row.team for row in table.rows if takes_place(table.teams[row.team])]
        return None, []

    table, old = eligible(before)
    if table is None or team.pk not in old or old.index(team.pk) + 1 > wanted:
        return None
    place = old.index(team.pk) + 1
    _table, new = eligible(after)
    now = new[place - 1] if place <= len(new) else None
    return PlaceChange(str(table.group), place, team.name, _name(now))


def _side_team(side):
    return side.stored if side.stored is not None else side.now


def _slots(before, after):
    changes = []
    for pk, new in after.slots.items():
        old = before.slots.get(pk)
        if old is None:
            continue
        for old_side, new_side in zip(old.sides, new.sides, strict=True):
            if new.frozen and old.frozen:
                moved = old_side.now != new_side.now
                was, now = old_side.now, new_side.now
            else:
                was, now = _side_team(old_side), _side_team(new_side)
                moved = was != now
            if moved:
                label = new_side.sentence or _("fixed team")
                frozen = new.frozen and old.frozen
                changes.append(
                    SlotChange(
                        new.match.match_number, new.match.get_stage_display(), label, _name(was), _name(now), frozen
                    )
                )
    return changes


def _withdraw_group_games(team, user):
    """The division's setting during the group stage: the team's unplayed group games are voided
    ("annul") or become walkovers for the opponents ("walkover")."""
    unplayed = Match.objects.filter(Q(team_a=team) | Q(team_b=team)).group_stage().open().select_related("event")
    for match in unplayed:
        if team.division.withdrawal == "walkover":
            winner = rules.Side.B if match.team_a_id == team.pk else rules.Side.A
            record_confirmed_result(match, walkover_values(match, winner), is_walkover=True, user=user)
        else:
            void_match(match, user, reason=str(_("team withdrew")))


def _drawn_after_groups(team):
    """Whether ``team`` already holds a side of a game after the groups (knockout or placement)."""
    return Match.objects.filter(Q(team_a=team) | Q(team_b=team), division=team.division).after_groups().exists()


def withdraw_team(team, user=None, *, preview=False):
    """Withdraw a team (棄権); with ``preview`` say what it would change and save nothing.

    In: a Team, the organiser (or None). Out: a ``WithdrawalReport`` (games voided, made
    walkovers or annulled, standings places and slots after the groups that change).
    Rules (docs/rules/stages.md, "Withdrawals"): once the team's group is complete, it keeps its
    group results and row (marked 棄権) whatever the setting; if it is not yet drawn into the
    games after the groups the next team of its group takes its place there, else it keeps its
    slots and its open games there are walkovers for its opponents; during the group stage the division's setting applies:
    "annul" (unplayed games voided, played ones leave the standings) or "walkover" (played games
    stand, the rest are walkovers). The slots are filled again (``refresh_slots``) in the same
    transaction. The preview runs the same steps in a transaction that is rolled back.
    Raises ``UserError`` when the team has already withdrawn.
    """
    team = Team.objects.select_related("division__event", "group").get(pk=team.pk)
    division = team.division
    if team.withdrawn:
        raise UserError(_("%(team)s has already withdrawn.") % {"team": team})
    with transaction.atomic():
        before = _snapshot(division)
        after_groups = _group_complete(team, before.tables)
        team.withdrawn = True
        team.withdrawn_after_groups = after_groups
        team.withdrawn_keeps_slots = after_groups and _drawn_after_groups(team)
        team.save(update_fields=["withdrawn", "withdrawn_after_groups", "withdrawn_keeps_slots"])
        if not after_groups:
            _withdraw_group_games(team, user)
        refresh_slots(division, user=user)
        after = _snapshot(division)
        report = WithdrawalReport(
            team.name,
            division.name,
            after_groups,
            "after_groups" if after_groups else division.withdrawal,
            _games(team, before, after),
            _places(before, after),
            _slots(before, after),
            keeps_slots=team.withdrawn_keeps_slots,
            successor=_successor(team, before, after),
        )
        if preview:
            transaction.set_rollback(True)
    return report


def find_team(event, name, division=None):
    """The team of ``event`` called ``name`` (compared by its name key, as the forms do), in the
    division named ``division`` when given (a club's team name may recur in several divisions).

    Raises ``UserError`` naming the name when no team or several teams (in different divisions)
    have it, or naming the divisions when ``division`` is none of them."""
    key = names.name_key(names.normalize_team_name(name))
    found = list(Team.objects.filter(division__event=event, name_key=key).select_related("division"))
    if division is not None:
        known = list(event.divisions.values_list("name", flat=True))
        if division.strip() not in known:
            raise UserError(
                _("No division called “%(division)s” (divisions: %(known)s).")
                % {"division": division, "known": "、".join(known)}
            )
        found = [t for t in found if t.division.name == division.strip()]
    if not found:
        raise UserError(_("No team called “%(name)s” in this tournament.") % {"name": name})
    if len(found) > 1:
        raise UserError(
            _("Several teams are called “%(name)s”: %(divisions)s. Name the division with --division.")
            % {"name": name, "divisions": "、".join(t.division.name for t in found)}
        )
    return found[0]
