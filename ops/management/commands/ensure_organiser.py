from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand

from tournament.models import Event


class Command(BaseCommand):
    help = "Create (or reset) an organiser account with access to every tournament, and print its login."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="organiser")
        parser.add_argument("--password", default="karuta-demo")

    def handle(self, username, password, **options):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username)
        user.set_password(password)
        user.save()
        # May create tournaments; becomes organiser of every existing one.
        user.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournament"))
        for event in Event.objects.all():
            event.organisers.add(user)
        self.stdout.write(f"Organiser login: {username} / {password}")
