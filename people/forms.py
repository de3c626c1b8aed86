"""The forms of the people of the day (issue 32; docs/people.md)."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.utils.translation import gettext_lazy as _

from people.models import DaySettings, Duty, Referee


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


class RoleForm(forms.Form):
    """Give an account the reception desk or announcer role of this event."""

    username = forms.CharField(label=_("login name"), max_length=150)
    password = forms.CharField(
        label=_("password (for a new account)"),
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("At least 8 characters. Leave empty to give an existing account the role."),
    )
    role = forms.ChoiceField(
        label=_("role"), choices=[("reception", _("reception desk")), ("announcer", _("announcer"))]
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
