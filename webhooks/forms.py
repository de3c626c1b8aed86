"""The webhook settings form (issue 35 item 2). Every refusal names its field.

The secret (LINE channel access token or signing secret) is a password box that is never filled
back: empty keeps the secret already saved, 「削除」 removes it. A webhook turned on needs its
whole target: LINE needs an https address, a group or user id and a token; any URL needs an
http(s) address with a host and a secret.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from webhooks.models import LINE_PUSH_URL, WebhookSettings

LINE_ID = re.compile(r"^[UCR][0-9a-f]{32}$")
MIN_SECRET = 16


class WebhookSettingsForm(forms.ModelForm):
    secret = forms.CharField(
        label=gettext_lazy("token or secret"),
        required=False,
        max_length=400,
        strip=True,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text=gettext_lazy(
            "LINE: the channel access token (long-lived). Any URL: the secret the receiver checks the "
            "signature with (at least 16 characters). Leave empty to keep the one saved."
        ),
    )
    clear_secret = forms.BooleanField(label=gettext_lazy("remove the saved token or secret"), required=False)

    class Meta:
        model = WebhookSettings
        fields = ["enabled", "kind", "url", "line_to", "send_results", "send_calls"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["url"].help_text = _("LINE: %(url)s (https only). Any URL: where the JSON is posted.") % {
            "url": LINE_PUSH_URL
        }
        self.fields["line_to"].help_text = _("LINE only: the id of the group (C…) or user (U…) the bot sends to.")

    def clean_url(self):
        url = (self.cleaned_data.get("url") or "").strip()
        if not url:
            return ""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise forms.ValidationError(_("Enter an address starting with https:// (or http://) and a host name."))
        if parts.username or parts.password:
            raise forms.ValidationError(_("The address must not hold a user name or password."))
        if any(c.isspace() for c in url):
            raise forms.ValidationError(_("The address must not hold spaces."))
        return url

    def clean_line_to(self):
        value = (self.cleaned_data.get("line_to") or "").strip()
        if value and not LINE_ID.match(value):
            raise forms.ValidationError(
                _("A LINE id is U, C or R followed by 32 characters 0–9 and a–f (from the bot's webhook events).")
            )
        return value

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        url = data.get("url", "")
        typed = data.get("secret") or ""
        if typed and len(typed) < MIN_SECRET:
            self.add_error("secret", _("At least %(n)d characters.") % {"n": MIN_SECRET})
        if typed and any(c.isspace() for c in typed):
            self.add_error("secret", _("The token or secret must not hold spaces."))
        if "url" in self.errors:
            return data
        if kind == WebhookSettings.Kind.LINE:
            url = url or LINE_PUSH_URL
            data["url"] = url
            if urlsplit(url).scheme != "https":
                self.add_error("url", _("LINE is sent over https only: the address must start with https://."))
        if not data.get("enabled"):
            return data
        secret = typed or ("" if data.get("clear_secret") else self.instance.secret)
        if not secret:
            self.add_error("secret", _("Type the token or secret: the webhook is turned on."))
        if kind == WebhookSettings.Kind.LINE and not data.get("line_to"):
            self.add_error("line_to", _("Type the LINE group or user id: the webhook is turned on."))
        if kind == WebhookSettings.Kind.URL and not url:
            self.add_error("url", _("Type the address: the webhook is turned on."))
        return data

    def save(self, commit=True):
        hook = super().save(commit=False)
        if self.cleaned_data.get("secret"):
            hook.secret = self.cleaned_data["secret"]
        elif self.cleaned_data.get("clear_secret"):
            hook.secret = ""
        if commit:
            hook.save()
        return hook
