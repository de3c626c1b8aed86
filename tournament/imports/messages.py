"""The one translation hook of the entry reader.

Messages are translated with Django's ``gettext`` when Django is set up; without configured
settings (the reader used as a plain library) they stay in their English source.
"""

from __future__ import annotations

from django.utils.translation import gettext


def _(message: str) -> str:
    """Return *message* translated into the active language, or unchanged when Django is not set up."""
    try:
        return gettext(message)
    except Exception:  # settings not configured / app registry not ready: keep the English source
        return message
