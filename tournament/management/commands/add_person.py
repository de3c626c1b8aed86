"""``manage.py add_person EVENT USERNAME --role organiser|recorder [--password PASSWORD]``: what the
People page does, from the command line."""

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from tournament.management.commands._base import EventCommand, get_event

ROLES = ("organiser", "recorder")


class Command(EventCommand):
    help = (
        "Give a person a role in a tournament (organiser or recorder, 記録係), creating the account when it "
        "does not exist; prints a generated password when none is given. An existing account keeps its password."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the tournament's short name")
        parser.add_argument("username", help="the login name")
        parser.add_argument("--role", required=True, choices=ROLES)
        parser.add_argument("--password", help="for a new account; generated and printed when left out")

    def handle(self, event, username, role, password, **options):
        """Give ``username`` the ``role`` in ``event``; ``CommandError`` for an unknown event, an
        empty login name or a password the validators refuse. Never changes an existing account's
        password: it says so instead."""
        event = get_event(event)
        username = username.strip()
        if not username:
            raise CommandError("Give a login name.")
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        lines = []
        if user is None:
            generated = not password
            password = password or secrets.token_urlsafe(9)
            try:
                validate_password(password, User(username=username))
            except ValidationError as e:
                raise CommandError("Password refused: " + " ".join(e.messages)) from None
            user = User.objects.create_user(username, password=password)
            lines.append(f"Created the account {username!r}.")
            if generated:
                lines.append(f"Password: {password}")
        else:
            lines.append(f"The account {username!r} already exists; it keeps its password.")
            if password:
                lines.append(
                    f"The password given was NOT set. To change it: python manage.py changepassword {username}"
                )
        members = event.organisers if role == "organiser" else event.recorders
        if members.filter(pk=user.pk).exists():
            lines.append(
                f"{username!r} already was {'an organiser' if role == 'organiser' else 'a recorder'} of {event.slug}."
            )
        else:
            members.add(user)
            lines.append(
                f"{username!r} is now {'an organiser' if role == 'organiser' else 'a recorder'} of {event.slug}."
            )
        self.stdout.write("\n".join(lines))
