"""The editable texts of the 大会プログラム (issue 34 item 1): one write, one transaction."""

from django.db import transaction

from tournament.models import ProgrammeSettings

__all__ = ["save_programme_texts"]


def save_programme_texts(event, *, title="", organiser="", supporters="", notes=""):
    """Save the programme texts of ``event`` (the cover's title, 主催, 後援 one per line, 注意事項
    one per line; "" = the defaults of ``tournament.printing.programme``). Returns the
    ``ProgrammeSettings``; the form checks the lengths before (``ProgrammeSettingsForm``)."""
    with transaction.atomic():
        texts, _created = ProgrammeSettings.objects.select_for_update().get_or_create(event=event)
        texts.title, texts.organiser, texts.supporters, texts.notes = (
            title.strip(),
            organiser.strip(),
            supporters.strip(),
            notes.strip(),
        )
        texts.full_clean()
        texts.save()
    return texts
