from pathlib import Path

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.db.backends.signals import connection_created

from common import page_cache, private_files
from common.pdf import packaged


class CommonConfig(AppConfig):
    """Helpers every app may use (errors, downloads, dates, Excel, the PDF toolkit); uses no app."""

    name = "common"
    verbose_name = "Common"

    def ready(self):
        # The packaged PDF font's Regular instance is kept in the data folder (common/pdf/packaged.py).
        packaged.configure(Path(settings.DATA_DIR) / "fonts")
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
                fonts.NO_FONT_MESSAGE,
                hint="pip install --force-reinstall hitachi-karuta, apt-get install fonts-ipaexfont-gothic, "
                "or set KARUTA_PDF_FONT",
                id="common.W001",
            )
        ]
    return []
