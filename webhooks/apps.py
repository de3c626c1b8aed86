from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    """The outgoing webhook of an event (issue 35 item 2): settings, the outbox, the sender."""

    name = "webhooks"
    verbose_name = _("Outgoing webhook")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from webhooks import signals  # noqa: PLC0415 - the models are loaded only now

        signals.connect()
