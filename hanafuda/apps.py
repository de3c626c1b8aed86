from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HanafudaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "hanafuda"
    verbose_name = _("Musashino-bana (hanafuda)")
