from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations of the laptop or server: backups, restore, the venue server, the first organiser."""

    name = "ops"
    verbose_name = "Operations"
