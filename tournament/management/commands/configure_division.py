from django import forms
from django.core.management.base import CommandError

from common.errors import UserError
from tournament.engine import standings
from tournament.forms import DivisionForm
from tournament.management.commands._base import EventCommand, get_event
from tournament.models import Division
from tournament.services import settings_guard

# The scripting names of the standings presets -> preset names of tournament.engine.standings.
STANDINGS_OPTIONS = getattr(
    standings,
    "PRESET_BY_OPTION",
    {"default": "japanese", "cards-first": "cards_first", "head-to-head-first": "head_to_head_first"},
)
WITHDRAWAL_OPTIONS = {"annul": "annul", "walkovers": "walkover"}


def form_data(form):
    """The data an unbound ``form`` shows (its initial values), as a browser would post it."""
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if isinstance(field, forms.ModelMultipleChoiceField):
            data[name] = [getattr(item, "pk", item) for item in value or []]
        elif isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    return data


class Command(EventCommand):
    help = (
        "Change a division's format and rules, with the checks of the division form: a change that results "
        "depend on prints what it affects; a change that cannot apply is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("division", help="the division's name")
        parser.add_argument("--games-per-team", type=int, help="games per team in a group (0: full round robin)")
        parser.add_argument("--after-groups", choices=["knockout", "placement", "both", "none"])
        parser.add_argument("--qualifiers", type=int, help="qualifiers per group")
        parser.add_argument("--third-place", choices=["yes", "no"])
        parser.add_argument("--standings", choices=list(STANDINGS_OPTIONS))
        parser.add_argument("--withdrawal", choices=list(WITHDRAWAL_OPTIONS))
        parser.add_argument(
            "--yes",
            action="store_true",
            help="save a change that results depend on (without it, such a change is printed and not saved)",
        )

    def handle(self, event, division, yes=False, **options):
        """Exit code non-zero when the change is refused, or when it has effects on results and
        ``--yes`` was not given (the effects are printed, nothing is saved: the form's
        confirmation, docs/rules/stages.md, "Settings that results depend on")."""
        event = get_event(event)
        try:
            old = event.divisions.get(name=division.strip())
        except Division.DoesNotExist:
            raise CommandError(f"No division called {division!r} in {event.slug}.") from None
        values = self.values(options)
        form = DivisionForm(instance=Division.objects.get(pk=old.pk), event=event)
        data = form_data(form)
        extra = {}
        for name, value in values.items():
            if name in form.fields:
                data[name] = "on" if value is True else value
                if value is False:
                    data.pop(name, None)
            else:
                extra[name] = value  # a setting this version's form does not show
        form = DivisionForm(data, instance=Division.objects.get(pk=old.pk), event=event)
        if not form.is_valid():
            raise CommandError(self.errors(form))
        new = form.save(commit=False)
        for name, value in extra.items():
            setattr(new, name, value)
        refusals = settings_guard.division_refusals(old, new)
        if refusals:
            raise CommandError(" ".join(str(message) for _name, message in refusals))
        effects = settings_guard.division_effects(old, new)
        if effects.needs_confirmation and not yes:
            self.stdout.write(f"{new.name}: this change affects results already entered:")
            for line in effects.lines():
                self.stdout.write(f"- {line}")
            raise CommandError(f"{new.name}: not saved; re-run with --yes to save.")
        try:
            settings_guard.save_division(new, save_related=form.save_m2m)
        except UserError as e:
            raise CommandError(str(e)) from None
        self.report(old, new, effects)

    def values(self, options):
        values = {}
        if options["games_per_team"] is not None:
            values["games_per_team"] = options["games_per_team"] or None
        if options["after_groups"]:
            values["after_groups"] = options["after_groups"]
        if options["qualifiers"] is not None:
            values["qualifiers_per_group"] = options["qualifiers"]
        if options["third_place"]:
            values["third_place_game"] = options["third_place"] == "yes"
        if options["standings"]:
            preset = STANDINGS_OPTIONS[options["standings"]]
            if preset not in standings.PRESETS:
                raise CommandError(
                    f"The standings order {options['standings']!r} is not available in this version "
                    f"(available: {', '.join(o for o, p in STANDINGS_OPTIONS.items() if p in standings.PRESETS)})."
                )
            values["preset"] = preset
        if options["withdrawal"]:
            values["withdrawal"] = WITHDRAWAL_OPTIONS[options["withdrawal"]]
        if not values:
            raise CommandError("Nothing to change: give at least one option.")
        return values

    def errors(self, form):
        parts = []
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            parts += [f"{label}: {error}" if label else str(error) for error in errors]
        return " ".join(parts)

    def report(self, old, new, effects):
        names = settings_guard.changed_settings(old, new, settings_guard.RESULT_SETTINGS + ("withdrawal",))
        if not names:
            self.stdout.write(f"{new.name}: nothing changed.")
            return
        self.stdout.write(f"{new.name}: saved.")
        lines = effects.lines() or settings_guard.setting_lines(old, new, names)
        for line in lines:
            self.stdout.write(f"- {line}")
