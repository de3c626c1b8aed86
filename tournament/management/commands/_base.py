"""Shared pieces of the event-day commands."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from common.private_files import write_private
from tournament.engine.names import normalize_text
from tournament.models import Event


class EventCommand(BaseCommand):
    """An event-day command. It prints in English whatever the site's language (README,
    "Event-day commands"), so scripts and checks read one language on one screen; team, division
    and court names stay as typed."""

    def execute(self, *args, **options):
        with translation.override("en"):
            return super().execute(*args, **options)


def in_site_language():
    """The files a command writes (recording sheets, the workbook) are in the site's language
    (Japanese by default: README "Languages"), whatever the language of its messages."""
    return translation.override(settings.LANGUAGE_CODE)


def get_event(slug):
    try:
        return Event.objects.get(slug=slug)
    except Event.DoesNotExist:
        raise CommandError(f"No tournament with the short name {slug!r}.") from None


def get_division(event, name):
    """The division of ``event`` called ``name`` (normalised like the forms), else ``CommandError``
    listing the divisions."""
    division = event.divisions.filter(name=normalize_text(name)).first()
    if division is None:
        names = "、".join(event.divisions.values_list("name", flat=True))
        raise CommandError(f"{event.slug}: no division {name!r} (divisions: {names}).")
    return division


def write_output(path, data: bytes, *, private=False) -> Path:
    """Write the file a command made (``-o``). In: the path given, the bytes; ``private`` writes it
    0600 (a key file, a results file, clubs' links: ``common.private_files``). Out: the Path.
    Raises ``CommandError`` naming the path and the reason when it cannot be written."""
    path = Path(path)
    try:
        return write_private(path, data) if private else _write(path, data)
    except OSError as e:
        raise CommandError(f"Cannot write {path}: {e.strerror or e}.") from None


def _write(path, data):
    path.write_bytes(data)
    return path
