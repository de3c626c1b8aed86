"""The ``karuta`` command (ops/cli.py, issue 36): the data folder, the one-sentence troubles,
the backup before an upgrade's migrations, and the server it chooses."""

import socket
from pathlib import Path

import pytest
from django.core.management.base import CommandError

from ops import backups, cli
from ops.management.commands import serve


def test_the_data_folder_is_karuta_data_dir_when_set(monkeypatch, tmp_path):
    monkeypatch.setenv("KARUTA_DATA_DIR", str(tmp_path / "mine"))
    assert cli.data_dir() == tmp_path / "mine"


def test_the_default_data_folder_is_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("KARUTA_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert cli.data_dir() == tmp_path / "share" / "hitachi-karuta"


def test_a_data_folder_that_cannot_be_written_is_one_sentence_naming_what_to_do(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(cli.Trouble) as trouble:
        cli.check_writable(blocker / "data")
    message = str(trouble.value)
    assert str(blocker / "data") in message and "KARUTA_DATA_DIR" in message
    assert message.count(". ") == 0 and message.endswith(".")


def test_a_writable_data_folder_is_created_and_left_clean(tmp_path):
    folder = cli.check_writable(tmp_path / "new" / "data")
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_main_says_the_trouble_in_one_line_and_exits_2(monkeypatch, tmp_path, capsys):
    (tmp_path / "a-file").write_text("x")
    monkeypatch.setenv("KARUTA_DATA_DIR", str(tmp_path / "a-file" / "data"))
    assert cli.main(["backup", "--list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("karuta: The data folder") and err.count("\n") == 1


def test_a_port_in_use_is_one_sentence_naming_another_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(cli.Trouble) as trouble:
            cli.check_port("127.0.0.1", port, "run")
    assert f"Port {port} on 127.0.0.1 is already in use" in str(trouble.value)
    assert f"karuta run --port {port + 1}" in str(trouble.value)


def test_an_address_of_another_computer_is_one_sentence():
    with pytest.raises(cli.Trouble, match="--host"):
        cli.check_port("192.0.2.1", 8000, "serve")  # TEST-NET: never this machine's


def test_a_free_port_passes():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cli.check_port("127.0.0.1", port, "run")


@pytest.mark.django_db(transaction=True)
def test_an_upgrade_backs_up_before_migrating(monkeypatch, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    monkeypatch.setattr(cli, "pending_migrations", lambda: 2)
    lines = []
    cli.migrate(lines.append)
    (backup,) = Path(tmp_path / "backups").glob("karuta-*-before-upgrade.*")
    assert lines[0] == f"  Backup before migrating 2 changes of the database: {backup}"
    assert lines[1] == "  Database up to date (2 migrations applied)."


@pytest.mark.django_db
def test_no_migration_when_a_backup_before_the_upgrade_fails(monkeypatch):
    monkeypatch.setattr(cli, "pending_migrations", lambda: 1)

    def refuse(**kwargs):
        raise backups.BackupError("the disk is full")

    monkeypatch.setattr(backups, "create_backup", refuse)
    called = []
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **k: called.append(a))
    with pytest.raises(cli.Trouble, match="nothing was changed: the disk is full"):
        cli.migrate(print)
    assert called == []


@pytest.mark.django_db
def test_an_up_to_date_database_is_left_alone():
    lines = []
    cli.migrate(lines.append)
    assert lines == []


def test_the_server_is_waitress_on_windows_and_gunicorn_elsewhere_when_installed():
    assert serve.choose_server("auto", platform="win32") == "waitress"
    assert serve.choose_server("waitress", platform="linux") == "waitress"
    assert serve.choose_server("auto", platform="linux") == "gunicorn"  # installed by requirements.txt
    with pytest.raises(CommandError, match="--server waitress"):
        serve.choose_server("gunicorn", platform="win32")


def test_the_command_line_passes_management_commands_through(monkeypatch, tmp_path):
    monkeypatch.setenv("KARUTA_DATA_DIR", str(tmp_path))
    seen = []
    for word in cli.PASS_THROUGH:
        monkeypatch.setitem(cli.PASS_THROUGH, word, lambda args: seen.append((args.command, args.rest)) or 0)
    assert cli.main(["manage", "print_sheets", "demo", "-o", "x.pdf"]) == 0
    assert cli.main(["backup", "--list"]) == 0
    assert cli.main(["restore", "b.sqlite3", "--yes"]) == 0
    assert seen == [
        ("manage", ["print_sheets", "demo", "-o", "x.pdf"]),
        ("backup", ["--list"]),
        ("restore", ["b.sqlite3", "--yes"]),
    ]
    args = cli.parser().parse_args(["serve"])
    assert (args.host, args.port, args.server, args.production) == ("0.0.0.0", 8000, "auto", True)
    args = cli.parser().parse_args(["run"])
    assert (args.host, args.port, args.production) == ("127.0.0.1", 8000, False)
