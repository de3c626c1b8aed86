"""The ``karuta`` command of the installed package (issue 36): the app without make or apt.

``karuta run``                 migrate (a backup first when there is data), load the demo once,
                               print the organiser login, serve on 127.0.0.1:8000 (``make run``);
``karuta serve``               the venue server: DEBUG off, static files collected, the deployment
                               check, the LAN address and its QR code, gunicorn where it runs,
                               else waitress (``--server``; ``make serve``);
``karuta backup [--list]``     a backup of the database now;
``karuta restore FILE --yes``  replace the database by a backup;
``karuta manage COMMAND …``    any management command (``manage.py`` of a checkout).

The data folder is ``KARUTA_DATA_DIR`` when set, else the user's data folder
(:func:`default_data_dir`); it is shown on start. Troubles a person can fix (a port in use, a
data folder that cannot be written) are one sentence naming what to do and exit status 2.
``make run`` calls ``python -m ops.cli run`` with ``KARUTA_DATA_DIR=./var``. No Django import
before the data folder is checked (the settings write the secret key there).
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
from pathlib import Path

APP_NAME = "hitachi-karuta"
DEMO_LOGIN = ("organiser", "karuta-demo")  # what ensure_organiser sets for the demo


class Trouble(Exception):
    """Something the person at the laptop can fix; the message is one sentence saying how."""


def default_data_dir() -> Path:
    """The user's data folder (platformdirs): ``%LOCALAPPDATA%\\hitachi-karuta`` on Windows,
    ``~/Library/Application Support/hitachi-karuta`` on macOS, ``~/.local/share/hitachi-karuta``
    (or ``$XDG_DATA_HOME/hitachi-karuta``) elsewhere."""
    import platformdirs  # noqa: PLC0415 - loaded by the command only

    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def data_dir() -> Path:
    """``KARUTA_DATA_DIR`` when set, else :func:`default_data_dir`."""
    value = os.environ.get("KARUTA_DATA_DIR", "").strip()
    return Path(value).expanduser() if value else default_data_dir()


def check_writable(folder: Path) -> Path:
    """Create ``folder`` if needed and write and delete a small file in it.

    Out: the folder, absolute. Raises :class:`Trouble` (one sentence) when it cannot be written.
    """
    folder = Path(folder).absolute()
    probe = folder / ".karuta-write-test"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as error:
        reason = error.strerror or str(error)
        raise Trouble(
            f"The data folder {folder} cannot be written ({reason}): fix its permissions or free some space, "
            f"or choose another folder with KARUTA_DATA_DIR (for example KARUTA_DATA_DIR={Path.home() / 'karuta'})."
        ) from None
    return folder


def check_port(host: str, port: int, command: str) -> None:
    """Raise :class:`Trouble` when nothing can listen on ``host:port`` (a port in use, an
    address that is not this machine's); the socket is closed again at once."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        if sys.platform != "win32":  # as the servers do; on Windows it would allow a second server
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as error:
            if error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1), 10048):
                raise Trouble(
                    f"Port {port} on {host} is already in use (another karuta, or another program, is serving "
                    f"there): stop it, or start on another port with `karuta {command} --port {port + 1}`."
                ) from None
            raise Trouble(
                f"Cannot listen on {host}:{port} ({error.strerror or error}): give an address of this computer "
                f"with --host (127.0.0.1, or 0.0.0.0 for every network)."
            ) from None


def prepare(*, production: bool) -> Path:
    """The data folder checked and shown, the environment set for Django, Django set up."""
    folder = check_writable(data_dir())
    os.environ["KARUTA_DATA_DIR"] = str(folder)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if production:
        os.environ["DEBUG"] = "false"
    import django  # noqa: PLC0415 - after KARUTA_DATA_DIR is set: the settings read it

    django.setup()
    return folder


def pending_migrations() -> int:
    """How many migrations the database lacks (0: up to date)."""
    from django.db import connection  # noqa: PLC0415 - Django is set up by prepare()
    from django.db.migrations.executor import MigrationExecutor  # noqa: PLC0415

    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def has_data() -> bool:
    """True when the database already has applied migrations (an earlier version's data)."""
    from django.db import connection  # noqa: PLC0415
    from django.db.migrations.recorder import MigrationRecorder  # noqa: PLC0415

    recorder = MigrationRecorder(connection)
    return recorder.has_table() and recorder.migration_qs.exists()


def migrate(out) -> None:
    """Bring the database up to date; when it holds data (an upgrade), back it up first.

    Raises :class:`Trouble` when that backup fails: nothing is migrated then.
    """
    from django.core.management import call_command  # noqa: PLC0415

    from ops import backups  # noqa: PLC0415

    missing = pending_migrations()
    if not missing:
        return
    if has_data():
        try:
            path = backups.create_backup(reason="before-upgrade")
        except backups.BackupError as error:
            raise Trouble(f"No backup could be taken before migrating, so nothing was changed: {error}") from None
        out(f"  Backup before migrating {missing} changes of the database: {path}")
    call_command("migrate", verbosity=0, interactive=False)
    out(f"  Database up to date ({missing} migrations applied).")


def prepare_font(out) -> None:
    """Choose the PDF font now, not at the first print (the packaged one is prepared once,
    about 20 s), and say which; when none can be embedded, the one sentence saying what to do."""
    from common.pdf import fonts  # noqa: PLC0415

    fonts.japanese_font()  # common.pdf.packaged logs "Preparing the PDF font …" when it makes one
    out(f"  PDF font: {fonts.describe_font()}")
    if not fonts.font_is_embedded():
        out(f"  {fonts.NO_FONT_MESSAGE}")


def _print(text: str) -> None:
    print(text, flush=True)


def cmd_run(args) -> int:
    from django.core.management import call_command  # noqa: PLC0415

    child = os.environ.get("RUN_MAIN") == "true"  # the reloader's server process: all done already
    if not child:
        check_port(args.host, args.port, "run")
        migrate(_print)
        call_command("load_demo")
        call_command("ensure_organiser", event="demo")
        prepare_font(_print)
        user, password = DEMO_LOGIN
        _print(
            f"  Open http://{args.host}:{args.port}/  (organiser pages: http://{args.host}:{args.port}/manage/, "
            f"demo login {user} / {password} unless you changed it)"
        )
    call_command("runserver", f"{args.host}:{args.port}", use_reloader=args.reload)
    return 0


def cmd_serve(args) -> int:
    from django.core.management import call_command  # noqa: PLC0415
    from django.core.management.base import SystemCheckError  # noqa: PLC0415

    check_port(args.host, args.port, "serve")
    migrate(_print)
    call_command("collectstatic", interactive=False, verbosity=0)
    prepare_font(_print)
    try:
        call_command("check", deploy=True, fail_level="WARNING")
    except SystemCheckError as error:
        raise Trouble(f"The deployment check failed, so the server did not start: {error}") from None
    options = {"host": args.host, "port": args.port, "server": args.server, "threads": args.threads}
    if args.workers:
        options["workers"] = args.workers
    call_command("serve", no_qr=args.no_qr, **options)
    return 0


def cmd_backup(args) -> int:
    from django.core.management import call_command  # noqa: PLC0415

    call_command("backup", *args.rest)
    return 0


def cmd_restore(args) -> int:
    from django.core.management import call_command  # noqa: PLC0415

    call_command("restore", *args.rest)
    return 0


def cmd_manage(args) -> int:
    from django.core.management import execute_from_command_line  # noqa: PLC0415

    execute_from_command_line(["karuta manage", *args.rest])
    return 0


PASS_THROUGH = {"backup": cmd_backup, "restore": cmd_restore, "manage": cmd_manage}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="karuta",
        description="Hitachi folk karuta tournament manager. Data folder: KARUTA_DATA_DIR, else the user's data "
        "folder (shown on start).",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="the demo on this computer: http://127.0.0.1:8000/")
    run.add_argument("--host", default="127.0.0.1")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--reload", action="store_true", help="restart when the code changes (developers)")
    run.set_defaults(handler=cmd_run, production=False)

    serve = sub.add_parser("serve", help="the venue server on the LAN (DEBUG off, QR code of the address)")
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--server", choices=("auto", "gunicorn", "waitress"), default="auto")
    serve.add_argument("--threads", type=int, default=4)
    serve.add_argument("--workers", type=int, default=0, help="gunicorn's processes (default 2 × cores + 1)")
    serve.add_argument("--no-qr", action="store_true")
    serve.set_defaults(handler=cmd_serve, production=True)

    backup = sub.add_parser("backup", help="back up the database now (--list: the backups)")
    backup.add_argument("rest", nargs=argparse.REMAINDER)
    backup.set_defaults(handler=cmd_backup, production=False)

    restore = sub.add_parser("restore", help="replace the database by a backup: karuta restore FILE --yes")
    restore.add_argument("rest", nargs=argparse.REMAINDER)
    restore.set_defaults(handler=cmd_restore, production=False)

    manage = sub.add_parser("manage", help="any management command, e.g. karuta manage help", add_help=False)
    manage.add_argument("rest", nargs=argparse.REMAINDER)
    manage.set_defaults(handler=cmd_manage, production=False)
    return top


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``karuta`` console script. Out: the exit status (2: a trouble
    explained in one sentence on standard error)."""
    for stream in (sys.stdout, sys.stderr):  # a console or file that cannot show Japanese or the QR code's blocks
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in PASS_THROUGH:
        # Everything after the word goes to the management command as it is (argparse would
        # take a leading option such as --list or --help for its own).
        args = argparse.Namespace(command=argv[0], rest=argv[1:], handler=PASS_THROUGH[argv[0]], production=False)
    else:
        args = parser().parse_args(argv)
    try:
        folder = prepare(production=args.production)
        if args.command in ("run", "serve") and os.environ.get("RUN_MAIN") != "true":
            _print(f"  Data folder: {folder}")
        return args.handler(args)
    except Trouble as trouble:
        print(f"karuta: {trouble}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
