"""Forms of the series app's organiser pages."""

from django import forms
from django.utils.translation import gettext_lazy as _

from series.exchange import signing
from series.exchange.export import DEFAULT_QUALIFIERS, MAX_QUALIFIERS
from series.models import SeriesEvent


class _FileForm(forms.Form):
    file = forms.FileField(label=_("file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > signing.MAX_FILE_BYTES:
            raise forms.ValidationError(_("The file is too big to be a results file."))
        return upload.read()


class KeyUploadForm(_FileForm):
    """Load a series' key file and put this event in the series."""

    role = forms.ChoiceField(label=_("role"), choices=SeriesEvent.Role.choices, initial=SeriesEvent.Role.QUALIFIER)
    district = forms.CharField(label=_("district"), max_length=60, required=False)


class ExportForm(forms.Form):
    qualifiers = forms.IntegerField(
        label=_("places per division that go on to the final"),
        min_value=1,
        max_value=MAX_QUALIFIERS,
        initial=DEFAULT_QUALIFIERS,
    )


class ResultsUploadForm(_FileForm):
    """A district's results file, from a USB stick."""
