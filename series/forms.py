"""Forms of the series pages (the points table is checked by the engine and refused naming the
bad entry: docs/rules/series.md) and of the results exchange (docs/exchange.md)."""

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from series import services
from series.engine import points
from series.exchange import signing
from series.exchange.export import DEFAULT_QUALIFIERS, MAX_QUALIFIERS
from series.labels import table_error_text
from series.models import Series, SeriesEvent
from tournament.engine import limits


class _FileForm(forms.Form):
    file = forms.FileField(label=_("file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > signing.MAX_FILE_BYTES:
            raise forms.ValidationError(signing.too_big_message())
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


class SeriesForm(forms.ModelForm):
    season = forms.IntegerField(
        label=gettext_lazy("season (year)"), min_value=limits.DATE_FLOOR.year, max_value=limits.DATE_CEILING.year
    )

    class Meta:
        model = Series
        fields = ["slug", "name", "season", "points_table"]

    def __init__(self, *args, creating=True, **kwargs):
        super().__init__(*args, **kwargs)
        if not creating:
            del self.fields["slug"]

    def clean_points_table(self):
        text = self.cleaned_data["points_table"]
        try:
            return ",".join(str(p) for p in points.parse_table(text))
        except points.PointsTableError as error:
            raise forms.ValidationError(table_error_text(error)) from None

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug in services.RESERVED_SLUGS:
            raise forms.ValidationError(gettext_lazy("This short name is reserved; choose another."))
        return slug


class MemberForm(forms.Form):
    """Add one of the user's events to the series with its role."""

    event = forms.ModelChoiceField(queryset=None, label=gettext_lazy("tournament"))
    role = forms.ChoiceField(choices=SeriesEvent.Role.choices, label=gettext_lazy("role"))
    district = forms.CharField(
        label=gettext_lazy("district"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("For a qualifier, e.g. 「北部」 (shown as 「北部予選」)."),
    )

    def __init__(self, *args, events, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = events


class MergeForm(forms.Form):
    keep = forms.ChoiceField(label=gettext_lazy("Spelling to keep (its club's name stays)"))
    other = forms.ChoiceField(label=gettext_lazy("Spelling of the same club"))

    def __init__(self, *args, spellings, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(s, s) for s in spellings]
        self.fields["keep"].choices = choices
        self.fields["other"].choices = choices
