"""Backups: `manage.py backup` / `restore` round-trip exactly; automatic backups before big steps.

The round trip compares `manage.py dumpdata` (every table, ordered by primary key)
before the backup and after the restore, with changes made in between. These tests run
outside a test transaction (``transaction=True``): a backup sees committed data, as at
the venue, and a restore replaces the whole database.
"""

import io
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import translation

from common.errors import UserError
from ops import backups
from tests import factories
from tournament.imports import ParsedEntries
from tournament.models import Event, Team
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.registration import import_entries
from tournament.services.schedule import make_schedule

needs_tools = pytest.mark.skipif(
    connection.vendor == "postgresql" and not (shutil.which("pg_dump") and shutil.which("pg_restore")),
    reason="pg_dump/pg_restore are not installed",
)


def dumpdata():
    out = io.StringIO()
    call_command("dumpdata", "--indent", "1", stdout=out)
    return out.getvalue()


def demo_day():
    call_command("load_demo", stdout=io.StringIO())
    call_command("draw_groups", "demo", "--seed", "1", stdout=io.StringIO())
    call_command("make_schedule", "demo", stdout=io.StringIO())
    call_command("simulate_results", "demo", "--seed", "2", stdout=io.StringIO())


@needs_tools
@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_round_trip_exactly(tmp_path, django_user_model):
    demo_day()
    django_user_model.objects.create_user("organiser", password="pw")
    before = dumpdata()
    target = tmp_path / "saved.backup"
    out = io.StringIO()
    call_command("backup", "-o", str(target), stdout=out)
    assert out.getvalue().strip() == str(target) and target.stat().st_size > 0

    # The day goes on (and goes wrong): a tournament deleted, a team added, a user gone.
    event = Event.objects.get(slug="demo")
    division = event.divisions.first()
    factories.make_team(division, "後から来たチーム")
    Event.objects.exclude(pk=event.pk).delete()
    event.matches.filter(match_number__lte=3).delete()
    django_user_model.objects.filter(username="organiser").delete()
    assert dumpdata() != before

    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(target))
    assert Team.objects.filter(name="後から来たチーム").exists()  # refused: nothing restored

    out = io.StringIO()
    call_command("restore", str(target), "--yes", stdout=out)
    assert dumpdata() == before
    # The database as it was before the restore was kept too.
    safety = [p for p in backups.list_backups() if "before-restore" in p.name]
    assert len(safety) == 1 and str(safety[0]) in out.getvalue()
    # The restored database takes new rows (its id sequences came back too).
    assert not Team.objects.filter(name="後から来たチーム").exists()
    factories.make_team(Event.objects.get(slug="demo").divisions.first(), "後から来たチーム")


@needs_tools
@pytest.mark.django_db(transaction=True)
def test_default_backup_file_goes_to_the_data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    factories.make_event()
    out = io.StringIO()
    call_command("backup", stdout=out)
    path = Path(out.getvalue().strip())
    assert path.parent == tmp_path / "backups"
    assert backups.NAME.match(path.name) and "-manual." in path.name
    assert backups.latest_backup() == path
    out = io.StringIO()
    call_command("backup", "--list", stdout=out)
    assert path.name in out.getvalue()
    if connection.vendor == "sqlite":
        assert path.read_bytes()[:16] == b"SQLite format 3\x00"
    else:
        assert path.read_bytes()[:5] == b"PGDMP"
    assert not list(path.parent.glob(".*partial"))


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database")
    expected = "an SQLite database" if connection.vendor == "sqlite" else "a pg_dump custom-format file"
    with pytest.raises(CommandError, match=rf"notes\.txt is not {expected}"):
        call_command("restore", str(bogus), "--yes")
    with pytest.raises(CommandError, match="does not exist"):
        call_command("restore", str(tmp_path / "missing.sqlite3"), "--yes")


@needs_tools
@pytest.mark.django_db(transaction=True)
def test_automatic_backups_before_the_schedule_the_knockout_and_an_import(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    assert backups.list_backups() == []
    make_schedule(event)
    assert [p.name.split("-auto-")[1] for p in backups.list_backups()] == [
        "make-schedule.sqlite3" if connection.vendor == "sqlite" else "make-schedule.pgdump"
    ]
    call_command("simulate_results", event.slug, "--seed", "1", stdout=io.StringIO())
    seed_knockout(event)
    import_entries(event, ParsedEntries(teams=[], problems=[]), dry_run=True)
    import_entries(event, ParsedEntries(teams=[], problems=[]), dry_run=False)
    reasons = [p.name.split("-auto-")[1].split(".")[0] for p in backups.list_backups(automatic=True)]
    assert reasons == ["make-schedule", "seed-knockout", "import-entries"]  # not the dry run


@pytest.mark.django_db(transaction=True)
@translation.override("en")
def test_a_refused_step_takes_no_backup_and_rotates_none_out(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.BACKUP_KEEP = 2
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    with pytest.raises(UserError, match="Draw the groups first"):
        make_schedule(event)
    draw_groups(event, seed=1)
    make_schedule(event)
    first = backups.list_backups()
    for _ in range(3):  # twenty refused clicks used to rotate out the backup taken before them
        with pytest.raises(UserError, match="already exists"):
            make_schedule(event)
        with pytest.raises(UserError, match="has games without a result"):
            seed_knockout(event)
    assert backups.list_backups() == first


@pytest.mark.django_db
def test_no_automatic_backup_inside_a_larger_transaction(settings, tmp_path):
    # A test (or a script) wrapping the step in its own transaction: nothing to back up yet.
    settings.DATA_DIR = tmp_path
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    assert backups.list_backups() == []


@pytest.mark.django_db(transaction=True)
def test_a_failed_automatic_backup_never_stops_the_step(settings, tmp_path, monkeypatch, caplog):
    settings.DATA_DIR = tmp_path

    def broken(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(backups, "create_backup", broken)
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    assert make_schedule(event) == 3
    assert "automatic backup before make-schedule failed" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_automatic_backups_are_turned_off_by_the_setting(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    settings.AUTO_BACKUP = False
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    assert backups.list_backups() == []


def test_only_the_newest_automatic_backups_are_kept(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    folder = tmp_path / "backups"
    folder.mkdir()
    manual = folder / "karuta-20270101-080000-000000-manual.sqlite3"
    manual.write_bytes(b"x")
    names = [f"karuta-20270117-{9 + i // 60:02d}{i % 60:02d}00-000000-auto-make-schedule.sqlite3" for i in range(25)]
    for name in names:
        (folder / name).write_bytes(b"x")
    (folder / "unrelated.txt").write_text("keep me")
    deleted = backups.prune(20)
    assert [p.name for p in deleted] == names[:5]
    assert sorted(p.name for p in backups.list_backups(automatic=True)) == names[5:]
    assert manual.exists() and (folder / "unrelated.txt").exists()
    assert backups.latest_backup().name == names[-1]


# --- Download from the print & export page ----------------------------------------------


@needs_tools
@pytest.mark.django_db(transaction=True)
def test_a_superuser_downloads_a_fresh_backup(client, django_user_model, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    event = factories.make_event()
    admin = django_user_model.objects.create_superuser("boss", password="pw")
    client.force_login(admin)
    page = client.get(f"/manage/{event.slug}/print/")
    assert page.status_code == 200 and 'id="backup-download"' in page.content.decode()
    response = client.get("/manage/backup/latest/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    body = b"".join(response.streaming_content)
    response.close()
    assert body[:16] == b"SQLite format 3\x00" if connection.vendor == "sqlite" else body[:5] == b"PGDMP"
    assert len(backups.list_backups()) == 1
    client.get("/manage/backup/latest/").close()  # within a minute: the same file again
    assert len(backups.list_backups()) == 1


@pytest.mark.django_db
def test_an_organiser_of_an_event_cannot_download_the_whole_database(client, django_user_model):
    event = factories.make_event()
    organiser = django_user_model.objects.create_user("org", password="pw")
    event.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/print/")
    assert page.status_code == 200 and 'id="backup-download"' not in page.content.decode()
    assert client.get("/manage/backup/latest/").status_code == 403
    client.logout()
    response = client.get("/manage/backup/latest/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
