"""Forms of the organiser's screens: they validate and normalise, nothing more."""

import datetime
import json
from dataclasses import dataclass

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club_entry.models import EntrySettings
from common import bounded_json
from common.grades import grade_label_lazy
from common.pdf.coverage import font_warnings
from tournament.engine import limits, names, standings
from tournament.models import Court, Division, Event, ProgrammeSettings, Team, group_letter
from tournament.services import settings_guard, versions
from tournament.services.placement_games import following_games, pairs_problem, shared_places_text
from tournament.services.registration import PlayerData, lookalike_note
from tournament.services.schedule import games_per_team_problem

GRADE_CHOICES = [("", "—")] + [
    (g, grade_label_lazy(g))
    for g in [f"小{i}" for i in range(1, 7)]
    + [f"中{i}" for i in range(1, 4)]
    + [f"高{i}" for i in range(1, 4)]
    + ["一般"]
]


# The numbers of the event form and their limits (tournament.engine.limits, issue 18 item 5).
EVENT_NUMBERS = {
    "edition": limits.EDITION,
    "game_minutes": limits.GAME_MINUTES,
    "changeover_minutes": limits.CHANGEOVER_MINUTES,
    "card_total": limits.CARD_TOTAL,
}


def out_of_range(label, limit):
    """The message of a number outside ``limit`` (smallest, largest), naming the field."""
    return _("%(field)s: from %(low)s to %(high)s.") % {"field": label, "low": limit[0], "high": limit[1]}


def display_value(field, value):
    """A form value as a person reads it (choice labels, names of chosen rows, yes/no, "—")."""
    if isinstance(field, forms.BooleanField):
        return str(_("yes") if value else _("no"))
    if value in (None, "", [], ()):
        return "—"
    if isinstance(field, forms.ModelMultipleChoiceField):
        chosen = {str(getattr(v, "pk", v)) for v in value}
        return ", ".join(str(row) for row in field.queryset if str(row.pk) in chosen) or "—"
    if isinstance(field, forms.ModelChoiceField):
        chosen = str(getattr(value, "pk", value))
        return next((str(row) for row in field.queryset if str(row.pk) == chosen), "—")
    if isinstance(field, forms.ChoiceField):
        return str(dict((str(k), v) for k, v in field.choices).get(str(value), value))
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M")
    return str(value)


def compare_versions(form, saved_form, merge=None):
    """The rows of the stale-save page: ``[{"name", "label", "saved", "yours", "differs", "theirs",
    "both"}]`` for each visible field, ``saved_form`` an unbound form of the saved row and ``form``
    the bound form typed on the older version (issue 18, item 8; the look of
    ``judging/conflict.html``). With ``merge`` (``merge_stale``'s ``StaleMerge``): ``theirs`` marks
    a field only the other person changed (the form now holds their value), ``both`` a field both
    changed (the form holds yours: saving again chooses it; issue 28, item 7)."""
    rows = []
    label = getattr(form, "compare_label", lambda name: form.fields[name].label)
    theirs = set(merge.theirs) if merge else set()
    both = set(merge.both) if merge else set()
    for name, field in form.fields.items():
        if field.widget.is_hidden:
            continue
        yours = form.cleaned_data.get(name) if name in form.cleaned_data else form.data.get(name)
        if name in theirs and merge is not None:
            yours = merge.typed.get(name)
        saved, typed = display_value(field, saved_form[name].initial), display_value(field, yours)
        rows.append(
            {
                "name": name,
                "label": label(name),
                "saved": saved,
                "yours": typed,
                "differs": saved != typed,
                "theirs": name in theirs,
                "both": name in both,
            }
        )
    return rows


#: The hidden field of an edit form that holds the values it was opened with (``opened_values``).
OPENED = "opened"
# The opened values travel back in a hidden field: one flat object of field names to values
# (a list for a multiple choice), read with the project's bounded JSON reader.
OPENED_MAX_BYTES = 256 * 1024
OPENED_MAX_DEPTH = 3


def _multiple(field) -> bool:
    return isinstance(field, (forms.MultipleChoiceField, forms.ModelMultipleChoiceField))


def _canonical(field, value) -> str:
    """A field's value as comparable text, whether it comes from a POST or from the row (a
    several-choice field: its chosen values sorted, comma-separated)."""
    if isinstance(field, forms.BooleanField):
        return "1" if value not in (None, "", False, "False", "false", "0", "off") else ""
    if _multiple(field):
        items = value if isinstance(value, (list, tuple)) else ([] if value in (None, "") else [value])
        prepared = field.prepare_value(list(items)) if items else []
        return ",".join(sorted(str(getattr(v, "pk", v)) for v in (prepared or [])))
    value = field.prepare_value(value)
    return "" if value is None else str(value).strip()


def _posted(data, field, name):
    """A field's posted value: the list of a several-choice field, else the one value."""
    if _multiple(field) and hasattr(data, "getlist"):
        return data.getlist(name)
    return data.get(name)


def opened_values(form) -> str:
    """The visible fields' values of an unbound ``form`` as JSON text, for its hidden ``opened``
    field: what the page showed when it was opened, so a save refused as stale can be merged
    field by field (``merge_stale``)."""
    return json.dumps(
        {
            name: _canonical(field, form[name].value())
            for name, field in form.fields.items()
            if not field.widget.is_hidden
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


@dataclass
class StaleMerge:
    """What ``merge_stale`` did: ``theirs``, the fields only the other person changed (their value
    kept); ``both``, the fields both changed (yours in the form, both shown); ``typed``, your
    values of ``theirs`` as typed (shown beside theirs)."""

    theirs: list
    both: list
    typed: dict


def merge_stale(data, saved_form, version):
    """The data of the form shown after a save refused as stale (``versions.StaleEdit``): your
    typed ``data`` merged field by field with the saved row (``saved_form``, unbound), based on
    the saved ``version`` (issue 28, item 7: saving again never restores a field another
    person changed).

    Per visible field, with the value the page was opened with (``OPENED``): unchanged by you →
    the saved value (theirs kept); changed by you only → yours; changed by both to different
    values → yours, listed in ``both`` for the page to show both and ask. A page without its
    opened values (an old page) keeps yours for every field and lists each difference in
    ``both``. Out: ``(data, StaleMerge)``; ``data`` carries ``version`` and the saved values as
    the new ``OPENED``."""
    merged = data.copy()
    merged["version"] = str(version)
    try:
        opened = bounded_json.loads(
            (data.get(OPENED) or "null").encode("utf-8"), max_bytes=OPENED_MAX_BYTES, max_depth=OPENED_MAX_DEPTH
        )
    except ValueError:  # not JSON, too long or too deep (bounded_json.TooBig): as an old page
        opened = None
    if not isinstance(opened, dict):
        opened = None
    theirs, both, typed = [], [], {}
    for name, field in saved_form.fields.items():
        if field.widget.is_hidden:
            continue
        raw = _posted(data, field, name)
        yours, saved = _canonical(field, raw), _canonical(field, saved_form[name].value())
        if yours == saved:
            continue
        if opened is None:
            both.append(name)
            continue
        if name not in opened:  # not a value of the row (a tick such as accepting warnings)
            continue
        base = str(opened[name])
        if yours == base:  # you did not touch it: the other person's change stays
            theirs.append(name)
            typed[name] = raw
            if isinstance(field, forms.BooleanField):
                if saved:
                    merged[name] = "on"
                else:
                    merged.pop(name, None)
            elif _multiple(field) and hasattr(merged, "setlist"):
                merged.setlist(name, saved.split(",") if saved else [])
            else:
                merged[name] = saved
        elif saved != base:
            both.append(name)
    merged[OPENED] = opened_values(saved_form)
    return merged, StaleMerge(theirs, both, typed)


def with_version(data, version):
    """A copy of posted ``data`` based on ``version``: the stale page's form saves the typed
    values over the saved row when sent again, on purpose."""
    data = data.copy()
    data["version"] = str(version)
    return data


class VersionedForm(forms.ModelForm):
    """An edit form that carries the version of the row it was opened with (hidden
    ``version``); the view saves through ``tournament.services.versions`` which refuses a save
    based on an older version (issue 18, item 8)."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    # The values the page was opened with, for a field-by-field merge after a stale save.
    opened = forms.CharField(widget=forms.HiddenInput, required=False, max_length=20000)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["version"].initial = self.instance.version

    def get_initial_for_field(self, field, field_name):
        """``opened`` holds the visible fields' initial values (``opened_values``), read when the
        page is drawn, after a subclass has added its fields."""
        if field_name == OPENED:
            return opened_values(self)
        return super().get_initial_for_field(field, field_name)

    def base_version(self):
        """The version the page was opened with (None: a page without it, e.g. an old script)."""
        return self.cleaned_data.get("version")


class EventForm(VersionedForm):
    class Meta:
        model = Event
        fields = [
            "name",
            "edition",
            "slug",
            "date",
            "venue",
            "start_time",
            "game_minutes",
            "changeover_minutes",
            "lunch_start",
            "lunch_end",
            "card_total",
            "auto_confirm",
            "leaders_sign_off",
            "recorders_confirm_own",
            "individual_counts",
            "japanese_era",
            "publish_names",
            "visibility",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "lunch_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "lunch_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }
        help_texts = {"slug": _("Letters, digits and hyphens; used in the addresses of the public pages.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, (low, high) in EVENT_NUMBERS.items():
            self.fields[name].widget.attrs.update(min=low, max=high)
        self.fields["card_total"].widget.attrs["step"] = 2
        first, last = limits.date_window(datetime.date.today())
        self.fields["date"].widget.attrs.update(min=first.isoformat(), max=last.isoformat())

    def clean_date(self):
        """A date from January 1st of last year to December 31st five years on
        (``limits.date_window``); an event's saved date is kept as it is (last year's event
        can still be corrected)."""
        date = self.cleaned_data["date"]
        first, last = limits.date_window(datetime.date.today())
        kept = self.instance.pk is not None and date == Event.objects.get(pk=self.instance.pk).date
        if not kept and not first <= date <= last:
            raise forms.ValidationError(
                _("%(field)s: from %(first)s to %(last)s.")
                % {"field": self.fields["date"].label, "first": first.isoformat(), "last": last.isoformat()}
            )
        if not kept and self.instance.pk is not None:
            self._check_entry_deadline(date)
        return date

    def _check_entry_deadline(self, date):
        """A new date before the clubs' entry deadline is refused, naming the deadline: the
        deadline lies at the latest on the tournament's day (``club_entry.forms.SettingsForm``),
        and the organiser, not the program, decides the new one (acceptance findings of issue
        20, item 5; README, clubs' entry links)."""
        found = EntrySettings.objects.filter(event_id=self.instance.pk, deadline__isnull=False).first()
        if found is None:
            return
        deadline = timezone.localtime(found.deadline)
        if deadline.replace(tzinfo=None) > datetime.datetime.combine(date, datetime.time(23, 59)):
            raise forms.ValidationError(
                _(
                    "%(field)s: the clubs' entry deadline is %(deadline)s, after this day. Move the entry "
                    "deadline first (Club entry links), then the date."
                )
                % {"field": self.fields["date"].label, "deadline": f"{deadline:%Y-%m-%d %H:%M}"}
            )

    def _clean_number(self, name):
        value = self.cleaned_data.get(name)
        if value is not None and not EVENT_NUMBERS[name][0] <= value <= EVENT_NUMBERS[name][1]:
            raise forms.ValidationError(out_of_range(self.fields[name].label, EVENT_NUMBERS[name]))
        return value

    def clean_edition(self):
        return self._clean_number("edition")

    def clean_game_minutes(self):
        return self._clean_number("game_minutes")

    def clean_changeover_minutes(self):
        return self._clean_number("changeover_minutes")

    def clean_card_total(self):
        """An even number (two equal piles) from 2 to 100; 56 by the rules
        (docs/rules/hitachi-karuta.md, "Teams and the court")."""
        total = self._clean_number("card_total")
        if total is not None and not limits.card_total_ok(total):
            raise forms.ValidationError(
                _("%(field)s: an even number (two equal piles); 56 by the rules.")
                % {"field": self.fields["card_total"].label}
            )
        return total

    def clean(self):
        data = super().clean()
        start, end = data.get("lunch_start"), data.get("lunch_end")
        if bool(start) != bool(end):
            self.add_error("lunch_end", _("Give both ends of the lunch break, or neither."))
        elif start and end and end <= start:
            self.add_error("lunch_end", _("The lunch break must end after it starts."))
        if self.instance.pk and data.get("card_total") is not None:
            old = Event.objects.get(pk=self.instance.pk)
            new = Event.objects.get(pk=self.instance.pk)
            new.card_total = data["card_total"]
            for name, message in settings_guard.event_refusals(old, new):
                self.add_error(name, message)
        return data


class NewEventForm(EventForm):
    """The new-event form: every field of the edit form (``EventForm``) and the number of courts.
    ``event_fields`` is what ``services.events.create_event`` is given, so a field added to the
    edit form is kept at creation too (issue 27, item 1)."""

    court_count = forms.IntegerField(label=_("number of courts"), min_value=1, max_value=100, initial=4)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A new event starts as a draft: nobody but its organisers sees it until they publish it
        # (README, "Public pages of an event"); the organiser may choose public here at once.
        self.fields["visibility"].initial = Event.Visibility.DRAFT

    def event_fields(self):
        """The names of the event's own fields this form offers (all but ``court_count`` and
        ``version``), in the form's order."""
        return [name for name in self._meta.fields if name in self.fields]


CRITERION_CHOICES = [
    (standings.WINS, _("wins")),
    (standings.CARD_DIFF, _("card difference")),
    (standings.CARDS_TAKEN, _("cards taken")),
    (standings.HEAD_TO_HEAD, _("head-to-head (mini-league of the tied teams)")),
    (standings.LOT, _("lot / play-off")),
]


class DivisionForm(VersionedForm):
    """A division with its courts and its rules: ranking order as data, walkovers, knockout."""

    preset = forms.ChoiceField(
        label=_("ranking order"),
        choices=[
            ("japanese", _("Japanese default: wins, card difference, cards taken, head-to-head, lot")),
            ("head_to_head_first", _("Head-to-head first: wins, head-to-head, card difference, cards taken, lot")),
            ("cards_first", _("Cards taken first: cards taken, wins, card difference, head-to-head, lot")),
            ("custom", _("Custom order (below)")),
        ],
    )

    shared_places_ok = forms.BooleanField(
        label=_("keep the shared places"),
        required=False,
        help_text=_("The placement games of this format give some final places to more than one team."),
    )

    class Meta:
        model = Division
        fields = [
            "name",
            "grade_band",
            "order",
            "courts",
            "layout",
            "rest_rule",
            "games_per_team",
            "walkover_cards",
            "withdrawal",
            "qualifiers_per_group",
            "best_runners_up",
            "third_place_game",
            "after_groups",
            "placement_pairs",
        ]
        widgets = {"courts": forms.CheckboxSelectMultiple}

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.shared_places = None  # set by clean(): the warning of a format that shares places
        self.fields["courts"].queryset = event.courts.all()
        self.fields["courts"].help_text = _("The group stage puts one group on each of these courts.")
        self.fields["games_per_team"].widget.attrs.update(min=1, inputmode="numeric")
        self.fields["games_per_team"].help_text = _(
            "Empty: every team plays every other team of its group (round robin). A number: every team plays "
            "exactly that many games in its group, never the same opponent twice (for example 3 games in a "
            "group of 8). It must be smaller than the number of teams of each group, and teams × games must "
            "be even."
        )
        # Left out of a post (older scripts, pages without it): the division keeps its format.
        self.fields["after_groups"].required = False
        current = self.instance.criteria if self.instance.pk else standings.PRESET_JAPANESE
        self.fields["preset"].initial = self.instance.preset if self.instance.pk else "japanese"
        for i in range(len(standings.CRITERIA)):
            self.fields[f"criterion_{i + 1}"] = forms.ChoiceField(
                label=_("criterion %(n)s") % {"n": i + 1},
                required=False,
                choices=[("", "—")] + CRITERION_CHOICES,
                initial=current[i] if i < len(current) else "",
            )

    def criterion_fields(self):
        return [self[f"criterion_{i + 1}"] for i in range(len(standings.CRITERIA))]

    def clean_name(self):
        """The name as typed (trimmed); a clash is found by ``names.name_key``, as the import
        matches divisions (issue 18, item 7)."""
        name = names.clean_display(self.cleaned_data["name"])
        key = names.name_key(name)
        others = self.event.divisions.exclude(pk=self.instance.pk).values_list("name", flat=True)
        if any(names.name_key(other) == key for other in others):
            raise forms.ValidationError(_("This tournament already has a division with this name."))
        return name

    def clean_games_per_team(self):
        """At least 1; possible for every drawn group; unchanged once the division's games exist.

        The rule is ``docs/rules/scheduling-standings-seeding.md``, section 1.5.
        """
        games = self.cleaned_data.get("games_per_team")
        if games is not None and games < 1:
            raise forms.ValidationError(_("At least 1 game per team; leave it empty for a full round robin."))
        if not self.instance.pk:
            return games
        if games != self.instance.games_per_team and self.instance.matches.group_stage().exists():
            raise forms.ValidationError(
                _("The group games of this division are scheduled: clear the schedule before changing this.")
            )
        if games is None:
            return games
        problems = [
            games_per_team_problem(self.instance, group, len([t for t in group.teams.all() if not t.withdrawn]), games)
            for group in self.instance.groups.prefetch_related("teams")
        ]
        if any(problems):
            raise forms.ValidationError([p for p in problems if p])
        return games

    def clean(self):
        data = super().clean()
        preset = data.get("preset")
        if preset in standings.PRESETS:
            codes = list(standings.PRESETS[preset])
        else:
            codes = [data.get(f"criterion_{i + 1}") for i in range(len(standings.CRITERIA))]
            codes = [c for c in codes if c]
            if len(set(codes)) != len(codes):
                self.add_error("preset", _("Each criterion may appear only once."))
            elif not codes:
                self.add_error("preset", _("Choose at least one criterion."))
            elif standings.LOT in codes and codes[-1] != standings.LOT:
                self.add_error("preset", _("The lot comes last: nothing can follow it."))
        if data.get("qualifiers_per_group") is not None and not 1 <= data["qualifiers_per_group"] <= 4:
            self.add_error("qualifiers_per_group", _("From 1 to 4 teams per group."))
        self._clean_placement(data)
        self.criteria_codes = ",".join(codes)
        self._check_result_settings(data)
        return data

    def proposed(self, data):
        """The saved division with the values asked for (unsaved), or None for a new division."""
        if not self.instance.pk:
            return None
        new = Division.objects.get(pk=self.instance.pk)
        for name in settings_guard.RESULT_SETTINGS + ("withdrawal",):
            if name in data and name in self.fields:
                setattr(new, name, data[name])
        new.criteria_codes = self.criteria_codes
        return new

    def _check_result_settings(self, data):
        """The changes results forbid (``settings_guard.division_refusals``), on their fields."""
        new = self.proposed(data)
        if new is None:
            return
        for name, message in settings_guard.division_refusals(Division.objects.get(pk=new.pk), new):
            self.add_error(name if name in self.fields else None, message)

    def _clean_placement(self, data):
        """The pair text names the division's groups (docs/rules/stages.md, "Placement games");
        "both" takes whole places into the knockout. (Pairs do not change under existing games:
        ``settings_guard``.)"""
        if data.get("after_groups") == "both" and data.get("best_runners_up"):
            self.add_error(
                "after_groups",
                _("Placement games below a knockout need whole places in the knockout; set the best runners-up to 0."),
            )
        if not data.get("after_groups"):
            data["after_groups"] = self.instance.after_groups or "knockout"
        text = data.get("placement_pairs") or ""
        names = list(self.instance.groups.values_list("name", flat=True)) if self.instance.pk else []
        problem = pairs_problem(data.get("name") or self.instance.name, text, names)
        if problem:
            self.add_error("placement_pairs", problem)
            return
        self._clean_shared_places(data, text, names)

    # The settings that decide which places the placement games share.
    SHARED_PLACES_FIELDS = ("after_groups", "placement_pairs", "qualifiers_per_group", "courts")

    def _clean_shared_places(self, data, text, names):
        """A format whose placement games leave places shared (two 第1位 with four groups) is
        saved only once the organiser ticks ``shared_places_ok``, after the form said which
        places and the alternative (issue 27; docs/rules/stages.md, "Placement games"). Before
        the draw the groups are one per chosen court, the teams spread evenly. An edit that
        leaves those settings as saved is not asked again."""
        self.shared_places = None
        after = data.get("after_groups")
        if after not in ("placement", "both"):
            return
        if names:
            sizes = [g.teams.filter(withdrawn=False).count() for g in self.instance.groups.order_by("order", "pk")]
        else:
            count = len(data.get("courts") or [])
            names = [group_letter(i) for i in range(count)]
            teams = self.instance.teams.count() if self.instance.pk else 0
            sizes = [max(2, teams // count + (1 if i < teams % count else 0)) for i in range(count)] if count else []
        first = (data.get("qualifiers_per_group") or 1) + 1 if after == "both" else 1
        self.shared_places = shared_places_text(data.get("name") or self.instance.name, names, sizes, text, first)
        if not self.shared_places or data.get("shared_places_ok") or not self._shared_places_changed(data):
            return
        self.add_error("shared_places_ok", self.shared_places)

    def _shared_places_changed(self, data):
        """Whether the settings of ``SHARED_PLACES_FIELDS`` differ from the saved division's."""
        if not self.instance.pk:
            return True
        saved = Division.objects.get(pk=self.instance.pk)
        for name in self.SHARED_PLACES_FIELDS:
            if name == "courts":
                if {c.pk for c in data.get("courts") or []} != set(saved.courts.values_list("pk", flat=True)):
                    return True
            elif (data.get(name) or "") != (getattr(saved, name) or ""):
                return True
        return False

    def following_games(self):
        """(placement game titles, group places without a game) under the saved settings."""
        return following_games(self.instance)

    def saved_shared_places(self):
        """The shared-places warning of the saved settings (the division page as it opens), or None."""
        division = self.instance
        if not division.pk or division.after_groups not in ("placement", "both"):
            return None
        groups = list(division.groups.order_by("order", "pk"))
        if groups:
            names = [g.name for g in groups]
            sizes = [g.teams.filter(withdrawn=False).count() for g in groups]
        else:
            count = division.courts.count()
            teams = division.teams.count()
            names = [group_letter(i) for i in range(count)]
            sizes = [max(2, teams // count + (1 if i < teams % count else 0)) for i in range(count)]
        first = division.qualifiers_per_group + 1 if division.after_groups == "both" else 1
        return shared_places_text(division.name, names, sizes, division.placement_pairs, first)

    def save(self, commit=True):
        self.instance.criteria_codes = self.criteria_codes
        return super().save(commit)


class CourtForm(VersionedForm):
    class Meta:
        model = Court
        fields = ["name", "order", "start_time"]
        widgets = {"start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_name(self):
        name = names.normalize_text(self.cleaned_data["name"])
        if self.event.courts.filter(name=name).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("This tournament already has a court with this name."))
        return name


PLAYER_SLOTS = 5  # three players and up to two substitutes
REGULAR_PLAYERS = 3


class TeamForm(forms.Form):
    """A team with three players (one the leader, in the middle) and up to two substitutes."""

    division = forms.ModelChoiceField(queryset=Division.objects.none(), label=_("division"))
    name = forms.CharField(label=_("team name"), max_length=names.TEAM_NAME_MAX)
    affiliation = forms.CharField(
        label=_("affiliation (school or children's association)"), max_length=names.AFFILIATION_MAX, required=False
    )
    chaperone = forms.CharField(label=_("chaperone"), max_length=names.CHAPERONE_MAX, required=False)
    seed = forms.IntegerField(
        label=_("seed"),
        min_value=limits.SEED[0],
        max_value=limits.SEED[1],
        required=False,
        help_text=_("Optional: 1 is the strongest. Seeds are spread over the groups."),
    )
    leader = forms.TypedChoiceField(label=_("leader"), coerce=int, initial=1, widget=forms.RadioSelect)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    # The values the page was opened with (``opened_values``), for a field-by-field merge after a
    # stale save (``merge_stale``).
    opened = forms.CharField(widget=forms.HiddenInput, required=False, max_length=20000)

    def __init__(self, *args, event, team=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.team = team
        self.font_warnings = []
        self.fields["division"].queryset = event.divisions.all()
        self.fields["leader"].choices = [
            (i, _("Player %(number)s") % {"number": i}) for i in range(1, REGULAR_PLAYERS + 1)
        ]
        for i in range(1, PLAYER_SLOTS + 1):
            substitute = i > REGULAR_PLAYERS
            label = (
                _("Substitute %(number)s") % {"number": i - REGULAR_PLAYERS}
                if substitute
                else _("Player %(number)s") % {"number": i}
            )
            self.fields[f"p{i}_name"] = forms.CharField(label=label, max_length=names.PLAYER_NAME_MAX, required=False)
            self.fields[f"p{i}_furigana"] = forms.CharField(
                label=_("furigana"), max_length=names.FURIGANA_MAX, required=False
            )
            self.fields[f"p{i}_grade"] = forms.ChoiceField(label=_("grade"), choices=GRADE_CHOICES, required=False)
            # The players' table names its columns once in its header: each input says its
            # player and column itself, for screen readers (issue 27).
            for column, word in (("name", _("name")), ("furigana", _("furigana")), ("grade", _("grade"))):
                self.fields[f"p{i}_{column}"].widget.attrs["aria-label"] = f"{label} {word}"

    def get_initial_for_field(self, field, field_name):
        """``opened`` holds the visible fields' initial values (``opened_values``), as in
        ``VersionedForm``."""
        if field_name == OPENED:
            return opened_values(self)
        return super().get_initial_for_field(field, field_name)

    def base_version(self):
        """The team's version the page was opened with (None: not given; see ``VersionedForm``)."""
        return self.cleaned_data.get("version")

    def compare_label(self, name):
        """A field's label on the stale-save page: a player's furigana and grade name the player."""
        if name[0] == "p" and "_" in name and name[1:].split("_")[0].isdigit() and not name.endswith("_name"):
            player = self.fields[name.split("_")[0] + "_name"].label
            return f"{player}: {self.fields[name].label}"
        return self.fields[name].label

    def player_rows(self):
        return [
            (i, self[f"p{i}_name"], self[f"p{i}_furigana"], self[f"p{i}_grade"], i > REGULAR_PLAYERS)
            for i in range(1, PLAYER_SLOTS + 1)
        ]

    def clean_name(self):
        name = names.normalize_team_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter the team name."))
        return name

    def clean(self):
        data = super().clean()
        division = data.get("division")
        name = data.get("name")
        if division and self.team is not None and division.pk != self.team.division_id and self.team.group_id:
            self.add_error(
                "division",
                _("This team has been drawn into a group of %(division)s; it cannot change division now.")
                % {"division": self.team.division.name},
            )
        if division and name:
            clash = Team.objects.filter(division=division, name_key=names.name_key(name))
            if self.team is not None:
                clash = clash.exclude(pk=self.team.pk)
            other = clash.first()
            if other is not None:
                self.add_error(
                    "name",
                    _("A team with this name is already registered in this division.")
                    + lookalike_note(name, other.name),
                )
        for i in range(1, PLAYER_SLOTS + 1):
            player_name = names.normalize_text(data.get(f"p{i}_name"))
            furigana = names.normalize_text(data.get(f"p{i}_furigana"))
            if i <= REGULAR_PLAYERS and not player_name:
                self.add_error(f"p{i}_name", _("A team has three players: enter player %(number)s.") % {"number": i})
            if not player_name and (furigana or data.get(f"p{i}_grade")):
                self.add_error(f"p{i}_name", _("Enter the name, or clear the furigana and grade."))
            if furigana and not names.is_kana(furigana):
                self.add_error(f"p{i}_furigana", _("Write the furigana in hiragana or katakana."))
        self.font_warnings = self._font_warnings(data)
        return data

    def _font_warnings(self, data):
        """Names that will print with 〓 (no installed font has a character): a warning
        shown after the save, never an error (``common.pdf.coverage``, issue 18 item 9)."""
        fields = ["name", "affiliation"]
        for i in range(1, PLAYER_SLOTS + 1):
            fields += [f"p{i}_name", f"p{i}_furigana"]
        return font_warnings((self.fields[f].label, data.get(f)) for f in fields)

    def players(self):
        data = self.cleaned_data
        return [
            PlayerData(
                name=data[f"p{i}_name"],
                furigana=data[f"p{i}_furigana"],
                grade=data[f"p{i}_grade"],
                is_leader=i == data["leader"],
                is_substitute=i > REGULAR_PLAYERS,
            )
            for i in range(1, PLAYER_SLOTS + 1)
            if names.normalize_text(data[f"p{i}_name"])
        ]

    @classmethod
    def initial_for(cls, team):
        initial = {
            "division": team.division_id,
            "name": team.name,
            "affiliation": team.affiliation,
            "chaperone": team.chaperone,
            "seed": team.seed,
            "version": team.version,
        }
        regular = [p for p in team.players.all() if not p.is_substitute]
        subs = [p for p in team.players.all() if p.is_substitute]
        for i, p in enumerate(regular[:REGULAR_PLAYERS], start=1):
            initial.update({f"p{i}_name": p.name, f"p{i}_furigana": p.furigana, f"p{i}_grade": p.grade})
            if p.is_leader:
                initial["leader"] = i
        for i, p in enumerate(subs[: PLAYER_SLOTS - REGULAR_PLAYERS], start=REGULAR_PLAYERS + 1):
            initial.update({f"p{i}_name": p.name, f"p{i}_furigana": p.furigana, f"p{i}_grade": p.grade})
        return initial


class ImportForm(forms.Form):
    file = forms.FileField(label=_("entry sheet (.xlsx)"))
    default_division = forms.CharField(
        label=_("division for rows without one"),
        required=False,
        max_length=60,
        help_text=_("Only needed when the sheet has no division column."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


class AccountRoleForm(forms.Form):
    """An account to give a role of this event: a new one (login name and password), or an
    existing one by its login name. Subclasses add the ``role`` field with their roles."""

    username = forms.CharField(label=_("login name"), max_length=150)
    password = forms.CharField(
        label=_("password (for a new account)"),
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("At least 8 characters. Leave empty to give an existing account the role."),
    )

    def clean(self):
        data = super().clean()
        username = data.get("username", "").strip()
        exists = get_user_model().objects.filter(username=username).exists()
        if not exists and not data.get("password"):
            self.add_error("password", _("There is no account with this login name: give a password to create it."))
        if not exists and data.get("password"):
            try:
                validate_password(data["password"])
            except forms.ValidationError as e:
                self.add_error("password", e)
        if exists and data.get("password"):
            self.add_error("password", _("This account exists already; its password is not changed here."))
        return data


class PersonForm(AccountRoleForm):
    """Give someone the recorder or organiser role in this event."""

    role = forms.ChoiceField(label=_("role"), choices=[("recorder", _("recorder")), ("organiser", _("organiser"))])
    # The roles as the page showed them (tournament.services.versions.people_version).
    version = forms.CharField(widget=forms.HiddenInput, required=False, max_length=4000)


def people_rows(event, posted):
    """The rows of the people page after a stale change (issue 18, item 8): the organisers and
    recorders saved now beside those the page showed with the change asked for (a role given
    or removed), as ``compare_versions`` rows."""
    seen = versions.parse_people_version(posted.get("version"))
    User = get_user_model()
    usernames = dict(User.objects.filter(pk__in=seen[0] + seen[1]).values_list("pk", "username"))
    yours = [[usernames[pk] for pk in pks if pk in usernames] for pks in seen]
    if "remove" in posted:
        gone = User.objects.filter(pk=posted.get("user") if str(posted.get("user")).isdigit() else None).first()
        yours = [[name for name in names if gone is None or name != gone.username] for names in yours]
    elif posted.get("username", "").strip():
        yours[0 if posted.get("role") == "organiser" else 1].append(posted["username"].strip())
    saved = [
        list(event.organisers.values_list("username", flat=True)),
        list(event.recorders.values_list("username", flat=True)),
    ]
    rows = []
    for name, label, now, asked in zip(
        ("organisers", "recorders"), (_("Organisers"), _("Recorders")), saved, yours, strict=True
    ):
        now, asked = ", ".join(sorted(now)) or "—", ", ".join(sorted(set(asked))) or "—"
        rows.append({"name": name, "label": label, "saved": now, "yours": asked, "differs": now != asked})
    return rows


class ProgrammeSettingsForm(forms.ModelForm):
    """The editable texts of the 大会プログラム (cover title, 主催, 後援, 注意事項) on the print page;
    every name is checked for the PDF font like the event's (``font_warnings``)."""

    class Meta:
        model = ProgrammeSettings
        fields = ["title", "organiser", "supporters", "notes"]
        widgets = {
            "supporters": forms.Textarea(attrs={"rows": 3}),
            "notes": forms.Textarea(attrs={"rows": 6}),
        }
        help_texts = {
            "title": _("Empty: the tournament's name. The edition (「第N回」) is printed above it."),
            "notes": _("Empty: a short form of the rules and the day's manners."),
        }
