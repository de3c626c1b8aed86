"""Forms of the clubs' entry links: the club's team (the organiser's team form without the
affiliation and the seed), the consent tick, and the organiser's entry settings and links."""

from django import forms
from django.utils.translation import gettext_lazy as _

from club_entry.models import EntrySettings
from common.pdf.coverage import font_warnings
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


class ConsentForm(forms.Form):
    agree = forms.BooleanField(label=_("We have read the note and have the guardians' consent."))


class SettingsForm(forms.ModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    deadline = forms.DateTimeField(
        label=_("entry deadline (JST)"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: no deadline; lock the entries by hand."),
    )

    class Meta:
        model = EntrySettings
        fields = ["deadline", "locked", "consent_note"]
        widgets = {"consent_note": forms.Textarea(attrs={"rows": 5})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"].initial = self.instance.version

    def base_version(self):
        return self.cleaned_data.get("version")


class LinkForm(forms.Form):
    club = forms.CharField(label=_("club (affiliation)"), max_length=names.AFFILIATION_MAX)
    contact_name = forms.CharField(label=_("contact"), max_length=60, required=False)
    contact = forms.CharField(label=_("e-mail or phone"), max_length=120, required=False)
