"""Fault messages that say what happened, never a traceback (issue 18, item 5): a full disk
during a backup (`manage.py backup`, the automatic one, the superuser's download) and an upload,
and a damaged (cut short) backup offered to `restore`. A full disk is simulated by a patched
write raising ``OSError(ENOSPC)``."""

import errno
import io
import logging
import sqlite3
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import translation

from ops import backups
from tests import factories
from tests.tournament.test_team_import_view import team_row, upload, workbook
from tournament.imports import store


def full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.django_db(transaction=True)
def test_backup_on_a_full_disk_says_so(tmp_path, settings):
    settings.BACKUP_DIR = str(tmp_path)
    target = tmp_path / "day.sqlite3"
    with (
        mock.patch.object(backups, "_write_backup", full_disk),
        translation.override("en"),
        pytest.raises(CommandError) as raised,
    ):
        call_command("backup", "-o", str(target), stdout=io.StringIO())
    message = str(raised.value)
    assert message.startswith("The disk is full: nothing could be written to")
    assert str(tmp_path) in message and "Traceback" not in message and "Errno" not in message
    assert list(tmp_path.iterdir()) == []  # no half-written copy left behind


@pytest.mark.django_db(transaction=True)
def test_the_message_reads_in_japanese(tmp_path, settings):
    settings.BACKUP_DIR = str(tmp_path)
    with (
        mock.patch.object(backups, "_write_backup", full_disk),
        translation.override("ja"),
        pytest.raises(backups.BackupError, match="ディスクがいっぱい"),
    ):
        backups.create_backup()


@pytest.mark.django_db(transaction=True)
def test_a_directory_that_cannot_be_made_on_a_full_disk(tmp_path, settings):
    settings.BACKUP_DIR = str(tmp_path / "new")
    with (
        mock.patch.object(Path, "mkdir", full_disk),
        translation.override("en"),
        pytest.raises(backups.BackupError, match="The disk is full"),
    ):
        backups.create_backup()


@pytest.mark.django_db(transaction=True)
def test_the_automatic_backup_logs_one_line_and_the_step_goes_on(tmp_path, settings, caplog):
    settings.BACKUP_DIR = str(tmp_path)
    with (
        mock.patch.object(backups, "_write_backup", full_disk),
        translation.override("en"),
        caplog.at_level(logging.ERROR, logger="tournament.backups"),
    ):
        assert backups.auto_backup("make_schedule") is None
    [record] = [r for r in caplog.records if r.name == "tournament.backups"]
    assert "The disk is full" in record.getMessage() and record.exc_info is None


@pytest.mark.django_db(transaction=True)
def test_the_superusers_download_on_a_full_disk(client, django_user_model, tmp_path, settings):
    settings.BACKUP_DIR = str(tmp_path)
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    with mock.patch.object(backups, "_write_backup", full_disk):
        response = client.get("/manage/backup/latest/", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 503
    assert "ディスクがいっぱい" in response.content.decode()


def sqlite_backup_file(path):
    """A small file shaped like a backup of this application, many pages long."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT)")
    db.execute("CREATE TABLE tournament_event (id INTEGER PRIMARY KEY, name TEXT)")
    db.executemany("INSERT INTO tournament_event (name) VALUES (?)", [("大会" * 40,) for _ in range(500)])
    db.commit()
    db.close()
    return path


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a cut-short SQLite backup: restoring one needs SQLite")
@pytest.mark.django_db
@pytest.mark.parametrize("keep", [0.5, 0.25, 4096 * 3])
def test_restore_refuses_a_cut_short_backup_in_a_sentence(tmp_path, keep):
    path = sqlite_backup_file(tmp_path / "karuta.sqlite3")
    backups.check_backup(path)  # whole: accepted
    data = path.read_bytes()
    cut = int(len(data) * keep) if keep < 1 else keep
    path.write_bytes(data[:cut])
    with translation.override("en"), pytest.raises(CommandError) as raised:
        call_command("restore", str(path), "--yes", stdout=io.StringIO())
    message = str(raised.value)
    assert message.startswith(f"{path} is damaged (cut short")
    assert "malformed" not in message and "Traceback" not in message


@pytest.mark.django_db
def test_an_upload_on_a_full_disk_says_so(client, django_user_model):
    event = factories.make_event(courts=1, slug="full")
    factories.make_division(event, name="小学生低学年の部")
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    with mock.patch.object(store, "write_private", full_disk):  # the kept parse (0600) cannot be written
        response = upload(client, event, workbook([team_row("みなとA")]), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    errors = response.context["form"].errors["file"]
    assert "ディスクがいっぱい" in errors[0]
    assert response.context["report"] is None
