from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = _("Judging")

    def ready(self):
        checks.register(check_pdf_font)


def check_pdf_font(app_configs=None, **kwargs):
    """Fail at start-up, not while printing on the day, when the PDF font is unusable."""
    from judging import fonts

    try:
        fonts.japanese_font()
    except fonts.FontConfigurationError as e:
        return [checks.Error(str(e), hint="Set KARUTA_PDF_FONT to a TrueType .ttf", id="judging.E001")]
    if not fonts.font_is_embedded():
        return [
            checks.Warning(
                "No Japanese TrueType font found: PDFs use a non-embedded CID font.",
                hint="apt-get install fonts-ipaexfont-gothic, or set KARUTA_PDF_FONT",
                id="judging.W001",
            )
        ]
    return []
