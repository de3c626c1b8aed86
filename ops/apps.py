import os

from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations of the laptop or server: backups, restore, the venue server, the first organiser."""

    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        # A server process of `make serve` clears expired sessions on a timer (ops/sessions.py).
        if os.environ.get("KARUTA_CLEAR_SESSIONS") == "1":
            from ops import sessions  # noqa: PLC0415 - models load only once the apps are ready

            sessions.start_timer()
