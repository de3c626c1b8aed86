"""``manage.py reader_audio EDITION (--card HEAD_KANA | --phrase start|next|check) -o FILE``:
write what the reader would play (the club's recording, else the synthetic voice), for
checks and for people who want the files (issue 21, "Scripting")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.errors import UserError
from reader import synth, voices
from reader.engine.cards import CardValueError, head_kana
from reader.models import DeckEdition
from tournament.management.commands._base import write_output


class Command(BaseCommand):
    help = (
        "Write the audio the reader plays for one card or phrase of a deck edition (the club's "
        "recording, else the synthetic voice) to a file, e.g. reader_audio hitachi --card す -o su.wav"
    )

    def add_arguments(self, parser):
        parser.add_argument("edition", help="the deck edition's short name, e.g. hitachi")
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--card", help="the card's head kana (頭字), e.g. す")
        which.add_argument("--phrase", choices=sorted(voices.PHRASES), help="one of the rules' phrases")
        parser.add_argument(
            "--speed",
            choices=sorted(synth.SPEEDS),
            default="normal",
            help="the synthetic voice's speed (a recording plays as recorded); a tournament reads slow",
        )
        parser.add_argument("-o", "--output", required=True, help="the file to write (WAV for the synthetic voice)")

    def handle(self, edition, card, phrase, output, speed="normal", **options):
        """Write the audio of ``--card``/``--phrase`` to ``--output``. ``CommandError`` (a
        sentence, no traceback) for an unknown edition or card, a card nothing can read, the
        synthetic voice missing, or a file that cannot be written."""
        deck = DeckEdition.objects.filter(slug=edition).first()
        if deck is None:
            names = ", ".join(DeckEdition.objects.values_list("slug", flat=True)) or "-"
            raise CommandError(f"No deck edition {edition!r} (editions: {names}).")
        try:
            key = voices.card_key(head_kana(card)) if card is not None else f"phrase:{phrase}"
        except CardValueError as error:
            raise CommandError(f"{card!r} is not a head kana (頭字).") from error
        try:
            audio = voices.audio_for(deck, key, speed)
        except UserError as error:
            raise CommandError(error.message) from error
        path = Path(output)
        if path.suffix.lower().lstrip(".") != audio.extension:
            self.stderr.write(f"Note: the audio is {audio.content_type} (.{audio.extension}), written as {path}.")
        write_output(path, audio.read())
        source = "recording" if audio.version.startswith("r") else "synthetic voice"
        self.stdout.write(f"{key}: {source}, {audio.content_type}, {path.stat().st_size} bytes → {path}")
