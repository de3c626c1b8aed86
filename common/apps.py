from django.apps import AppConfig
from django.core import checks
from django.db.backends.signals import connection_created

from common import page_cache, private_files


class CommonConfig(AppConfig):
    """Helpers every app may use (errors, downloads, dates, Excel, the PDF toolkit); uses no app."""

    name = "common"
    verbose_name = "Common"

    def ready(self):
        checks.register(check_pdf_font)
        page_cache.connect_signals()
        connection_created.connect(private_files.on_connection, dispatch_uid="common.private_files")


def check_pdf_font(app_configs=None, **kwargs):
    """Fail at start-up, not while printing on the day, when the PDF font is unusable."""
    from common.pdf import fonts  # noqa: PLC0415 - reportlab loads only when the check runs

    try:
        fonts.japanese_font()
    except fonts.FontConfigurationError as e:
        return [checks.Error(str(e), hint="Set KARUTA_PDF_FONT to a TrueType .ttf", id="common.E001")]
    if not fonts.font_is_embedded():
        return [
            checks.Warning(
                "No Japanese TrueType font found: PDFs use a non-embedded CID font.",
                hint="apt-get install fonts-ipaexfont-gothic, or set KARUTA_PDF_FONT",
                id="common.W001",
            )
        ]
    return []
