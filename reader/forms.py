"""Forms of the deck pages: an edition, a card, the Excel import, a recording (issue 21)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from reader.engine import cards as rules
from reader.models import Card, DeckEdition
from tournament.models import Event

_CARD_MESSAGES = {
    "required": _("Write the head kana (「頭字」)."),
    "too_long": _("This is too long."),
    "not_kana": _("Write it in kana (hiragana)."),
    "not_flag": _("Choose yes or no."),
}


class EditionForm(forms.ModelForm):
    """A new deck: its name, short name, source, and optionally the tournament (one the user
    organises) whose organisers may edit it too."""

    class Meta:
        model = DeckEdition
        fields = ["name", "slug", "source", "event"]
        help_texts = {
            "slug": _("Letters, digits and hyphens; used in the addresses of the audio (e.g. club-practice)."),
            "source": _("Where the card texts come from (a book, a web page), so others can check them."),
        }

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = user.organised_events.all() if user is not None else Event.objects.none()


class CopyForm(forms.Form):
    """A copy of a deck: the new deck's name and short name."""

    name = forms.CharField(label=_("deck name"), max_length=120)
    slug = forms.SlugField(label=_("short name"), max_length=40)


class CardForm(forms.ModelForm):
    class Meta:
        model = Card
        fields = ["head_kana", "text", "furigana", "is_joker", "order"]
        widgets = {"text": forms.TextInput(), "furigana": forms.TextInput()}
        help_texts = {
            "furigana": _(
                "Optional. The synthetic voice reads this instead of the text, so names of places are read right."
            ),
        }

    def _checked(self, name, check):
        try:
            return check(self.cleaned_data.get(name, ""))
        except rules.CardValueError as error:
            raise forms.ValidationError(_CARD_MESSAGES[error.code]) from error

    def clean_head_kana(self):
        kana = self._checked("head_kana", rules.head_kana)
        others = Card.objects.filter(edition=self.instance.edition, head_kana=kana).exclude(pk=self.instance.pk)
        if others.exists():
            raise forms.ValidationError(_("The deck already has a card %(kana)s.") % {"kana": kana})
        return kana

    def clean_is_joker(self):
        is_joker = self.cleaned_data.get("is_joker")
        others = Card.objects.filter(edition=self.instance.edition, is_joker=True).exclude(pk=self.instance.pk)
        if is_joker and others.exists():
            raise forms.ValidationError(
                _("The special card is already card %(kana)s: only one card is the special card.")
                % {"kana": others.first().head_kana}
            )
        return is_joker

    def clean_text(self):
        return self._checked("text", rules.card_text)

    def clean_furigana(self):
        return self._checked("furigana", rules.kana_reading)


class DeckImportForm(forms.Form):
    file = forms.FileField(label=_("card list (.xlsx)"))


class RecordingForm(forms.Form):
    key = forms.CharField(max_length=40, widget=forms.HiddenInput)
    file = forms.FileField(label=_("audio file (WAV, MP3, OGG/Opus, M4A)"))
