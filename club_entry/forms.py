"""Forms of the clubs' entry links: the club's team (the organiser's team form without the
affiliation and the seed), the consent tick, and the organiser's entry settings and links."""

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club_entry.models import EntrySettings
from common.pdf.coverage import font_warnings
from tournament.access import whole_number
from tournament.engine import names
from tournament.forms import PLAYER_SLOTS, TeamForm


class ClubTeamForm(TeamForm):
    """A club's team: the same checks as the organiser's team form (``TeamForm``: a name unique in
    its division by ``names.name_key``, three players, furigana in kana, the leader among the
    three), the affiliation fixed to the club's, no seed (the organiser's), and the tick that
    accepts the warnings (as ``import_entries --accept-warnings``)."""

    accept_warnings = forms.BooleanField(label=_("Save the team despite the warnings above"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["affiliation"]
        del self.fields["seed"]

    def _font_warnings(self, data):
        """Names that will print with 〓 (the organiser's form's warning, without the affiliation)."""
        fields = ["name"] + [f"p{i}_{part}" for i in range(1, PLAYER_SLOTS + 1) for part in ("name", "furigana")]
        return font_warnings((self.fields[f].label, data.get(f)) for f in fields)

    def labels(self) -> dict:
        """Field name → the label a person reads (a player's furigana and grade name the player)."""
        return {name: str(self.compare_label(name)) for name in self.fields}

    def typed_rows(self, pairs) -> list[tuple[str, str]]:
        """What a refused POST carried, as a person reads it: ``pairs`` (field, value) →
        ``[(label, text)]``; a division by its name, the leader by the name typed for that
        player (else 「選手 2」), a grade by its label, never an id (acceptance findings of
        issue 20, item 4). Unknown fields keep their name and value."""
        labels, posted = self.labels(), dict(pairs)
        return [(labels.get(name, name), self._typed_text(name, value, posted)) for name, value in pairs]

    def _typed_text(self, name, value, posted) -> str:
        field = self.fields.get(name)
        if name == "division":
            found = self.fields["division"].queryset.filter(pk=whole_number(value) or 0).first()
            return found.name if found is not None else value
        if name == "leader":
            typed = (posted.get(f"p{value}_name") or "").strip() if str(value).isdigit() else ""
            return typed or str(dict((str(k), v) for k, v in field.choices).get(str(value), value))
        if isinstance(field, forms.ChoiceField):
            return str(dict((str(k), v) for k, v in field.choices).get(str(value), value))
        return value


class ConsentForm(forms.Form):
    agree = forms.BooleanField(label=_("We have read the note and have the guardians' consent."))


CONSENT_NOTE_MAX = 2000


class SettingsForm(forms.ModelForm):
    """The entry settings. The deadline (JST) lies between now and the end of the tournament's day
    (a later one would never close the entries before the day; a past one would close them at
    once: the lock does that); a deadline already saved may be saved again unchanged after it
    has passed. Compared as JST wall-clock times, so year 1 or 9999 is refused, never a 500."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    deadline = forms.DateTimeField(
        label=_("entry deadline (JST)"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_(
            "Empty: the clubs' links close at 00:00 JST on the tournament's day, or when the groups are drawn "
            "if sooner. Lock the entries to close them at once."
        ),
    )

    consent_note = forms.CharField(
        label=_("consent note for children's data"),
        max_length=CONSENT_NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    class Meta:
        model = EntrySettings
        fields = ["deadline", "locked", "consent_note"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"].initial = self.instance.version

    def base_version(self):
        return self.cleaned_data.get("version")

    def clean_deadline(self):
        value = self.cleaned_data.get("deadline")
        if value is None:
            return None
        typed = value.replace(tzinfo=None, second=0, microsecond=0)  # JST wall clock, as typed
        saved = self.instance.deadline
        if saved is not None and typed == timezone.localtime(saved).replace(tzinfo=None, second=0, microsecond=0):
            return saved
        last = datetime.datetime.combine(self.instance.event.date, datetime.time(23, 59))
        if typed > last:
            raise forms.ValidationError(
                _("Entry deadline: at the latest the tournament's day (%(day)s)."),
                params={"day": self.instance.event.date.isoformat()},
            )
        if typed < timezone.localtime().replace(tzinfo=None):
            raise forms.ValidationError(
                _("Entry deadline: this time has passed. To close the entries now, tick “entries locked”.")
            )
        return value


class LinkForm(forms.Form):
    club = forms.CharField(label=_("club (affiliation)"), max_length=names.AFFILIATION_MAX)
    contact_name = forms.CharField(label=_("contact"), max_length=60, required=False)
    contact = forms.CharField(label=_("e-mail or phone"), max_length=120, required=False)
