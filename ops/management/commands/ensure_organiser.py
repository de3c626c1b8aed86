"""``ensure_organiser``: create the organiser account when it is missing; never touch one that exists.

`make run` calls it for the demo (``--event demo``) and `serve` on an empty database (with
a random password). Issue 18, item 5: it once reset the password of an existing account
to the demo one and made it organiser of every event on the machine, other people's too.
Now an existing account keeps its password, its permissions and its events; the only
thing it may gain is the one event named by ``--event`` while that event has no organiser
at all (a demo just loaded, which nobody could open otherwise).
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.models import Event


class Command(BaseCommand):
    help = (
        "Create an organiser account if it does not exist (it may create tournaments) and make it organiser "
        "of --event. An existing account's password and rights are never changed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="organiser")
        parser.add_argument("--password", default="karuta-demo")
        parser.add_argument("--event", help="slug of the one event the new account organises (e.g. demo)")

    def handle(self, username, password, event=None, **options):
        """Create ``username`` with ``password`` if missing; see the module's rule for an existing one."""
        target = None
        if event:
            target = Event.objects.filter(slug=event).first()
            if target is None:
                raise CommandError(f"No event with the slug {event!r}.")
        User = get_user_model()
        with transaction.atomic():
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username, password=password)
                user.user_permissions.add(
                    Permission.objects.get(codename="add_event", content_type__app_label="tournament")
                )
                if target is not None:
                    target.organisers.add(user)
                self.stdout.write(f"Organiser login: {username} / {password}")
                return
            if target is not None and not target.organisers.exists():
                target.organisers.add(user)
        self.stdout.write(f"The account {username!r} exists: its password and rights are unchanged.")
