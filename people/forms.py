"""The forms of the people of the day (issue 32; docs/people.md)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from people.models import DaySettings, Duty, Referee
from tournament.forms import AccountRoleForm


class DaySettingsForm(forms.ModelForm):
    """The event's roll call on the tablet and the referees' rest."""

    class Meta:
        model = DaySettings
        fields = ["roll_call", "referee_rest"]
        widgets = {"referee_rest": forms.NumberInput(attrs={"min": 0, "max": 20})}

    def clean_referee_rest(self):
        value = self.cleaned_data["referee_rest"]
        if value is not None and value > 20:
            raise forms.ValidationError(_("At most 20 games in a row."))
        return value


class RoleForm(AccountRoleForm):
    """Give an account the reception desk or announcer role of this event."""

    role = forms.ChoiceField(
        label=_("role"), choices=[("reception", _("reception desk")), ("announcer", _("announcer"))]
    )


class RefereeForm(forms.ModelForm):
    """A referee: name, furigana, club."""

    class Meta:
        model = Referee
        fields = ["name", "furigana", "club"]

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Type the referee's name."))
        others = Referee.objects.filter(event=self.event, name=name).exclude(pk=self.instance.pk)
        if others.exists():
            raise forms.ValidationError(_("%(name)s is already a referee of this event.") % {"name": name})
        return name


DUTY_ROLES = Duty.Role.choices
