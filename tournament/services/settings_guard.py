"""Settings that results depend on: what a change would affect, the changes refused, and saving
a change with the slots filled again.

A division's ranking order, walkover score, qualifiers and stage format, and the event's card
total, decide the standings and who plays after the groups. Once results exist, a change is
shown with what it affects (places, slots, games) and saved only after the organiser confirms
it; a change that cannot apply is refused with the reason (``docs/rules/stages.md``, "Settings
that results depend on"). The forms (``tournament.forms``) and ``manage.py configure_division``
use these functions, so the rules are in one place.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from judging.engine import rules
from judging.models import RecordingSheet
from judging.services import refresh_slots
from tournament.models import CRITERION_LABELS, Division, Match, Team
from tournament.reports.stages import division_slots, is_frozen
from tournament.reports.standings import division_standings
from tournament.services import clock_change

# The division's settings the standings and the stages after the groups depend on.
RESULT_SETTINGS = (
    "criteria_codes",
    "walkover_cards",
    "qualifiers_per_group",
    "best_runners_up",
    "after_groups",
    "third_place_game",
    "games_per_team",
    "placement_pairs",
)
# The shape of the stage after the groups: fixed once its games exist.
STAGE_FORMAT = ("qualifiers_per_group", "best_runners_up", "after_groups", "third_place_game", "placement_pairs")


@dataclass
class SettingsEffects:
    """What a change of settings affects once results exist: ``settings`` (the changed settings,
    "old → new"), ``places`` (standings places that change), ``slots`` (slots after the groups
    that change) and ``games`` (games reached), each a list of sentences in the active language.
    Empty ``settings``: nothing results depend on changes, no confirmation is needed."""

    settings: list = field(default_factory=list)
    places: list = field(default_factory=list)
    slots: list = field(default_factory=list)
    games: list = field(default_factory=list)
    moves: list = field(default_factory=list)  # games a change of the day's clock moves (issue 27)
    basis: tuple = ()  # the facts the sentences say, in no language: what the digest is made of

    @property
    def needs_confirmation(self):
        return bool(self.settings)

    @property
    def digest(self):
        """A fingerprint of these effects: the confirmation carries it, so a confirmation given
        for other effects (results changed in between) is asked again."""
        text = repr(self.basis)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def lines(self):
        return self.settings + self.places + self.slots + self.games + self.moves


def _display(instance, name):
    if name == "criteria_codes":
        return " → ".join(str(CRITERION_LABELS.get(code, code)) for code in instance.criteria)
    value = getattr(instance, name)
    model_field = type(instance)._meta.get_field(name)
    if model_field.choices:
        return str(dict(model_field.choices).get(value, value))
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if value in (None, ""):
        return "—"
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M")  # a time of day reads as HH:MM, never with seconds
    return str(value)


def _label(instance, name):
    if name == "criteria_codes":
        return str(_("ranking order"))
    return str(type(instance)._meta.get_field(name).verbose_name)


def changed_settings(old, new, names):
    """The names of ``names`` whose value differs between two instances of a model."""
    return [name for name in names if getattr(old, name) != getattr(new, name)]


def setting_lines(old, new, names):
    return [
        _("%(setting)s: “%(old)s” → “%(new)s”")
        % {"setting": _label(old, name), "old": _display(old, name), "new": _display(new, name)}
        for name in names
    ]


def division_has_results(division):
    """Whether a game of ``division`` has a confirmed result (a played game or a walkover)."""
    return Match.objects.filter(division=division).played().exists()


def division_refusals(old, new):
    """The changes from ``old`` (the saved Division) to ``new`` (the same division with the
    values asked for, unsaved) that cannot apply: ``[(setting name, message)]``.

    - the withdrawal setting once a team has withdrawn under it (named);
    - the games per team once the group games are scheduled (clear the schedule first);
    - the stage format (qualifiers, best runners-up, after the groups, third-place game, placement
      pairs) once games after the groups exist: reset them on the knockout page first, or never
      once one has started.
    Rule: docs/rules/stages.md, "Settings that results depend on".
    """
    refusals = []
    if old.withdrawal != new.withdrawal:
        withdrawn = Team.objects.filter(division=old, withdrawn=True).order_by("name_key").first()
        if withdrawn is not None:
            refusals.append(
                (
                    "withdrawal",
                    _(
                        "The withdrawal setting of %(division)s cannot change: %(team)s has withdrawn under it, and "
                        "every withdrawal of a division follows one setting."
                    )
                    % {"division": old.name, "team": withdrawn.name},
                )
            )
    if old.games_per_team != new.games_per_team and old.matches.group_stage().exists():
        refusals.append(
            (
                "games_per_team",
                _(
                    "The group games of %(division)s are scheduled: clear the schedule before changing the games per "
                    "team."
                )
                % {"division": old.name},
            )
        )
    changed = changed_settings(old, new, STAGE_FORMAT)
    after = list(Match.objects.filter(division=old).after_groups())
    if changed and after:
        if any(is_frozen(m) for m in after):
            message = _("%(division)s has started its games after the groups: %(setting)s can no longer change.")
        else:
            message = _(
                "%(division)s already has its games after the groups: reset them on the knockout page first, then "
                "change %(setting)s and seed again."
            )
        refusals += [(name, message % {"division": old.name, "setting": _label(old, name)}) for name in changed]
    return refusals


def _place_lines(before, after):
    lines = []
    names = {}
    for table in before + after:
        names.update({pk: team.name for pk, team in table.teams.items()})
    old_rows = {table.group.pk: [row.team for row in table.rows] for table in before}
    for table in after:
        old, new = old_rows.get(table.group.pk, []), [row.team for row in table.rows]
        for place, (was, now) in enumerate(zip(old, new, strict=False), start=1):
            if was != now:
                lines.append(
                    _("%(group)s place %(place)s: %(old)s → %(new)s")
                    % {"group": table.group, "place": place, "old": names[was], "new": names[now]}
                )
    return lines


def _slot_lines(before, after):
    lines = []
    nobody = _("nobody yet")
    names = dict(Team.objects.filter(pk__in=_slot_teams(before + after)).values_list("pk", "name"))
    for old, new in zip(before, after, strict=True):
        for old_side, new_side in zip(old.sides, new.sides, strict=True):
            if old_side.now == new_side.now:
                continue
            values = {
                "number": new.match.match_number,
                "stage": new.match.get_stage_display(),
                "slot": new_side.label,
                "old": names.get(old_side.now, nobody),
                "new": names.get(new_side.now, nobody),
            }
            if new.frozen:
                lines.append(
                    _(
                        "Game %(number)s (%(stage)s) has started or has a result: %(slot)s would be %(new)s instead "
                        "of %(old)s, and the game would be shown out of date."
                    )
                    % values
                )
            else:
                lines.append(_("Game %(number)s (%(stage)s), %(slot)s: %(old)s → %(new)s") % values)
    return lines


def _slot_teams(states):
    return {side.now for state in states for side in state.sides if side.now is not None}


def _qualifier_lines(old, new, tables):
    """The teams entering or leaving the qualifying places of their group (standings as they are now)."""
    lines = []
    for table in tables:
        eligible = [table.teams[row.team] for row in table.rows if not table.teams[row.team].withdrawn]
        before, after = eligible[: old.qualifiers_per_group], eligible[: new.qualifiers_per_group]
        lines += [
            _("%(group)s: %(team)s would qualify.") % {"group": table.group, "team": team.name}
            for team in after
            if team not in before
        ]
        lines += [
            _("%(group)s: %(team)s would no longer qualify.") % {"group": table.group, "team": team.name}
            for team in before
            if team not in after
        ]
    return lines


def division_effects(old, new):
    """What changing ``old`` (the saved Division) into ``new`` (unsaved) affects, once the
    division has results: a ``SettingsEffects``, computed from the confirmed results without
    writing (the standings and slots are worked out with both settings). No results, or no
    setting results depend on changes: an empty one (no confirmation needed). Rule:
    docs/rules/stages.md, "Settings that results depend on"."""
    names = changed_settings(old, new, RESULT_SETTINGS)
    if not names or not division_has_results(old):
        return SettingsEffects()
    effects = SettingsEffects(settings=setting_lines(old, new, names))
    before, after = division_standings(old), division_standings(new)
    slots_before, slots_after = division_slots(old, tables=before), division_slots(new, tables=after)
    effects.places = _place_lines(before, after)
    effects.slots = _slot_lines(slots_before, slots_after)
    effects.basis = (
        tuple((name, getattr(new, name)) for name in names),
        tuple(tuple(row.team for row in table.rows) for table in before + after),
        tuple((state.match.pk, state.frozen, state.a.now, state.b.now) for state in slots_before + slots_after),
        Match.objects.filter(division=old).played().count(),
    )
    if set(names) & {"qualifiers_per_group"}:
        effects.places += _qualifier_lines(old, new, before)
    count = Match.objects.filter(division=old, status=Match.Status.WALKOVER).group_stage().count()
    if "walkover_cards" in names and count:
        effects.games.append(
            ngettext(
                "%(count)s walkover of the group stage counts differently in the card criteria.",
                "%(count)s walkovers of the group stage count differently in the card criteria.",
                count,
            )
            % {"count": count}
        )
    if set(names) & set(STAGE_FORMAT):
        effects.games.append(
            _("No game after the groups exists yet: the new format applies when the division is seeded.")
        )
    return effects


def save_division(division, *, save_related=None, user=None):
    """Save ``division`` (new values set, refusals checked by the form) and fill its slots again
    (``refresh_slots``) in one transaction; ``save_related`` saves what goes with it (the
    form's courts). Raises ``UserError`` (the first refusal) when the change cannot apply,
    checked again here so a change refused meanwhile is never saved. Rule: docs/rules/stages.md,
    "Slots" (filled again after every settings change)."""
    with transaction.atomic():
        if division.pk:
            old = Division.objects.select_for_update().get(pk=division.pk)
            refusals = division_refusals(old, division)
            if refusals:
                raise_refusal(refusals)
        division.save()
        if save_related is not None:
            save_related()
        refresh_slots(division, user=user)
    return division


def raise_refusal(refusals):
    """Raise ``UserError`` with every message of ``refusals`` (``[(setting name, message)]``)."""
    raise UserError(" ".join(str(message) for _name, message in refusals))


# --- The event: its card total ------------------------------------------------------------------


def broken_sheets(event, card_total):
    """``(confirmed, waiting)``: how many confirmed recording sheets, and newest versions waiting
    for confirmation, of ``event`` would no longer add up with ``card_total`` cards in play
    (A + B + referee = the total: docs/rules/hitachi-karuta.md, "Result and winner"). Walkovers
    are recorded as they were decided and never count as broken."""
    confirmed = waiting = 0
    sheets = RecordingSheet.objects.filter(match__event=event, is_walkover=False).not_void()
    newest = {}
    for sheet in sheets.order_by("match_id", "version"):
        newest[sheet.match_id] = sheet
        if sheet.is_confirmed and rules.validate_sheet(sheet.values, card_total):
            confirmed += 1
    statuses = dict(Match.objects.filter(event=event).waiting().values_list("pk", "status"))
    for match_id, sheet in newest.items():
        if match_id in statuses and not sheet.is_confirmed and rules.validate_sheet(sheet.values, card_total):
            waiting += 1
    return confirmed, waiting


def event_refusals(old, new):
    """``[(setting name, message)]`` of an event change that cannot apply: a card total that
    would make recorded sheets invalid, with their number. Rule: docs/rules/stages.md,
    "Settings that results depend on"."""
    if old.card_total == new.card_total:
        return []
    confirmed, waiting = broken_sheets(old, new.card_total)
    if not confirmed and not waiting:
        return []
    message = ngettext(
        "%(count)s confirmed recording sheet would no longer add up to %(total)s cards",
        "%(count)s confirmed recording sheets would no longer add up to %(total)s cards",
        confirmed,
    ) % {"count": confirmed, "total": new.card_total}
    if waiting:
        message += ngettext(
            " (and %(count)s waiting for confirmation)", " (and %(count)s waiting for confirmation)", waiting
        ) % {"count": waiting}
    message += _("; the cards in play stay %(total)s.") % {"total": old.card_total}
    return [("card_total", message)]


def event_effects(old, new):
    """What changing the event's settings affects (``SettingsEffects``): a change of the card
    total once results exist (``_card_effects``), and a change of the day's clock (start time,
    game or changeover minutes, lunch break) once games are scheduled: the games it moves and
    where, and the teams it makes play twice in a row (``clock_change.plan_clock_change``;
    docs/rules/scheduling-standings-seeding.md, §5, "A change of the clock"). Either needs the
    organiser's confirmation before saving."""
    effects = _card_effects(old, new)
    change = clock_change.plan_clock_change(old, new)
    if change.moves:
        effects.settings += setting_lines(old, new, clock_change.clock_changed(old, new))
        effects.moves = change.lines + change.rest
        effects.basis = (effects.basis, tuple(change.moves))
    return effects


def _card_effects(old, new):
    """What changing the event's card total affects once results exist (``SettingsEffects``):
    the walkover score of later walkovers (half the cards in play: docs/rules/hitachi-karuta.md,
    "Walkovers"), the walkovers already recorded (docs/rules/stages.md, "Settings that results
    depend on")."""
    if old.card_total == new.card_total or not Match.objects.filter(event=old).played().exists():
        return SettingsEffects()
    effects = SettingsEffects(settings=setting_lines(old, new, ["card_total"]))
    walkovers = Match.objects.filter(event=old, status=Match.Status.WALKOVER).count()
    effects.basis = (old.card_total, new.card_total, walkovers)
    effects.games.append(
        _("Walkovers recorded from now on count %(new)s–0 instead of %(old)s–0.")
        % {"new": new.card_total // 2, "old": old.card_total // 2}
    )
    if walkovers:
        effects.games.append(
            ngettext(
                "%(count)s walkover already recorded keeps its score.",
                "%(count)s walkovers already recorded keep their score.",
                walkovers,
            )
            % {"count": walkovers}
        )
    return effects


def save_event(event, *, user=None):
    """Save ``event`` (new values set), move the games a change of the day's clock touches
    (``clock_change.apply_clock_change``: the moves the settings page showed) and fill every
    division's slots again, in one transaction; ``UserError`` when the card total is refused
    meanwhile (``event_refusals``). Returns the event, with ``moved_games``: the games moved
    (their sheets to reprint). Rules: docs/rules/stages.md, "Settings that results depend on";
    docs/rules/scheduling-standings-seeding.md, §5, "A change of the clock"."""
    moved = []
    with transaction.atomic():
        old = None
        if event.pk:
            old = type(event).objects.select_for_update().get(pk=event.pk)
            refusals = event_refusals(old, event)
            if refusals:
                raise_refusal(refusals)
        event.save()
        if old is not None:
            moved = clock_change.apply_clock_change(old, event)
        for division in event.divisions.all():
            refresh_slots(division, user=user)
    event.moved_games = moved
    return event
