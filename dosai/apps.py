from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DosaiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "dosai"
    verbose_name = _("Sanjô Dôsai (Dôsai Karuta)")
