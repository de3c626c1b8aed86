"""Backup, check and restore answer every fault in one sentence, never a traceback (issue 28,
item 6): the database's own connection failing on a full disk, a damaged backup of many kinds
(cut short, garbage after the header, zeroed pages, a header only, a nonsense page size), a file name
SQLite's URI would misread, a file that cannot be read. Faults are simulated: a patched
connection raising Django's ``OperationalError``, files written by the test."""

import io
import os
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection, connections
from django.utils import translation

from ops import backups
from tests.ops.test_fault_messages import sqlite_backup_file

pytestmark = [
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite files written by hand"),
    pytest.mark.django_db(transaction=True),
]


def _failing_connection(message):
    def fail(*args, **kwargs):
        raise OperationalError(message)

    return mock.patch.object(type(connections["default"]), "ensure_connection", fail)


def _command_message(*args):
    with translation.override("en"), pytest.raises(CommandError) as raised:
        call_command(*args, stdout=io.StringIO())
    message = str(raised.value)
    assert "Traceback" not in message and "Error:" not in message and message.count("\n") == 0
    return message


@pytest.mark.parametrize(
    ("fault", "start"),
    [
        ("database or disk is full", "The disk is full: the database could not be written."),
        ("unable to open database file", "The tournament database could not be opened (unable to open"),
    ],
)
def test_backup_when_the_database_itself_fails_says_it_in_a_sentence(tmp_path, settings, fault, start):
    settings.BACKUP_DIR = str(tmp_path)
    with _failing_connection(fault):
        message = _command_message("backup", "-o", str(tmp_path / "day.sqlite3"))
    assert message.startswith(start)
    assert list(tmp_path.iterdir()) == []


def test_restore_when_the_database_itself_fails_says_it_in_a_sentence(tmp_path):
    path = sqlite_backup_file(tmp_path / "karuta.sqlite3")
    with _failing_connection("database or disk is full"):
        message = _command_message("restore", str(path), "--yes", "--no-safety-backup")
    assert message.startswith("The disk is full")


def _damaged(tmp_path, how):
    path = sqlite_backup_file(tmp_path / "karuta.sqlite3")
    data = bytearray(path.read_bytes())
    if how == "garbage after the header":
        data[100:] = os.urandom(len(data) - 100)
    elif how == "zeroed pages":
        data[4096:] = bytes(len(data) - 4096)
    elif how == "header only":
        data = data[:100]
    elif how == "page size nonsense":
        data[16:18] = b"\x00\x03"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("how", ["garbage after the header", "zeroed pages", "header only", "page size nonsense"])
def test_restore_of_a_damaged_backup_is_one_sentence(tmp_path, how):
    path = _damaged(tmp_path, how)
    message = _command_message("restore", str(path), "--yes", "--no-safety-backup")
    assert message.startswith(f"{path} is ") and ("damaged" in message or "not" in message), message


def test_a_backup_whose_name_holds_a_hash_or_a_question_mark_is_read_whole(tmp_path):
    path = sqlite_backup_file(tmp_path / "karuta.sqlite3")
    odd = path.with_name("day #1?.sqlite3")
    path.rename(odd)
    backups.check_backup(odd)  # accepted: the URI is percent-encoded


def test_restore_of_a_directory_or_a_missing_file_is_one_sentence(tmp_path):
    assert _command_message("restore", str(tmp_path), "--yes").endswith("does not exist")
    assert _command_message("restore", str(tmp_path / "none.sqlite3"), "--yes").endswith("does not exist")


def test_a_backup_file_that_cannot_be_opened_is_one_sentence(tmp_path):
    path = sqlite_backup_file(tmp_path / "karuta.sqlite3")
    with mock.patch.object(backups.Path, "open", side_effect=PermissionError(13, "Permission denied")):
        message = _command_message("restore", str(path), "--yes")
    assert message == f"{path} cannot be read (Permission denied). Nothing was changed."


def test_the_list_of_an_unreadable_folder_is_one_sentence(tmp_path, settings):
    settings.BACKUP_DIR = str(tmp_path)
    with mock.patch.object(backups.Path, "iterdir", side_effect=PermissionError(13, "Permission denied")):
        message = _command_message("backup", "--list")
    assert "cannot be read (Permission denied)" in message
