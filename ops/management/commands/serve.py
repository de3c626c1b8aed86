"""Serve the venue: gunicorn on the LAN, the address printed with a QR code for the tablets.

``make serve`` runs this after migrate and collectstatic. It finds the laptop's LAN
address without the internet (a UDP socket "connected" to a private address sends no
packet but tells which local address the route uses; then ``hostname -I``), sets
SITE_URL to ``http://<address>:<port>`` unless SITE_URL is already set (so court links
and the QR codes on the recording sheets point at the laptop), prints the URL and a QR
code of it in the terminal, and replaces itself by gunicorn.

``--server`` chooses the WSGI server: ``gunicorn`` (several processes; not on Windows),
``waitress`` (pure Python, one process with threads: Windows, and any laptop without
gunicorn), or ``auto`` (the default: gunicorn where it is installed and runs, else waitress).
gunicorn is never imported here: it runs as its own program, so this module loads on Windows.
"""

from __future__ import annotations

import importlib.util
import io
import ipaddress
import os
import secrets
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import segno
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.db.models import Q

from ops import sessions

WEBHOOK_SENDER_ENV = "KARUTA_SEND_WEBHOOKS"  # webhooks.apps.SENDER_ENV

DEMO_PASSWORD = "karuta-demo"  # what `make run` / ensure_organiser set by default

LAN_NETWORKS = [ipaddress.IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")]

# Routes to these are looked up, never used: connect() on a UDP socket sends nothing.
PROBES = ("10.255.255.255", "172.16.255.255", "192.168.255.255")


def _usable(address):
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _route_source(target):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((target, 9))
            return s.getsockname()[0]
        except OSError:
            return None


def _hostname_addresses():
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [a for a in out.split() if _usable(a)]


def lan_addresses():
    """The machine's usable IPv4 addresses, the one the routing table prefers first; private ones before others."""
    found = []
    for target in PROBES:
        address = _route_source(target)
        if address and _usable(address) and address not in found:
            found.append(address)
    for address in _hostname_addresses():
        if _usable(address) and address not in found:
            found.append(address)
    if not found:
        try:
            address = socket.gethostbyname(socket.gethostname())
            if _usable(address):
                found.append(address)
        except OSError:
            pass
    # A private address (the venue's Wi-Fi router) is what tablets reach; keep the routing order otherwise.
    return sorted(found, key=lambda a: not any(ipaddress.IPv4Address(a) in net for net in LAN_NETWORKS))


def lan_ipv4():
    addresses = lan_addresses()
    return addresses[0] if addresses else "127.0.0.1"


def site_url_for(host, port):
    """The URL tablets use: the LAN address when serving every interface, else the given host."""
    if host in ("0.0.0.0", "", "::"):
        host = lan_ipv4()
    return f"http://{host}:{port}"


def usable_cores():
    """The cores this process may run on: its CPU affinity where the system has one (Linux:
    ``taskset`` or a container's limit), else every core of the machine."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # Windows, macOS
        return os.cpu_count() or 1


def default_workers():
    """gunicorn's advice: 2 × the usable cores + 1 worker processes."""
    return 2 * usable_cores() + 1


def gunicorn_argv(host, port, workers, threads, timeout):
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        # A writer may wait up to SQLite's 20 s busy timeout; the worker must outlive it.
        "--timeout",
        str(timeout),
        "--graceful-timeout",
        "30",
        # A worker is replaced after this many requests (a leak cannot grow for ever). 2,000 meant
        # a new worker every 20 s per worker at a full hall's peak (bench/load.py --shape day:
        # 90 requests/s on one core; py-spy: 7% of a worker's time in starting again).
        "--max-requests",
        "20000",
        "--max-requests-jitter",
        "2000",
        # No access log unless ACCESS_LOG names a file: gunicorn formats every line even for
        # /dev/null (py-spy, bench/load.py --shape day: 6% of the workers' time).
        *(["--access-logfile", os.environ["ACCESS_LOG"]] if os.environ.get("ACCESS_LOG") else []),
        # The access log without the court links' tokens (common/logmask.py).
        "--logger-class",
        "ops.gunicorn_logging.MaskingLogger",
        "--error-logfile",
        "-",
        "--no-control-socket",
    ]


SERVERS = ("auto", "gunicorn", "waitress")


def choose_server(requested="auto", platform=None):
    """``"gunicorn"`` or ``"waitress"`` for ``requested`` (one of :data:`SERVERS`).

    ``auto``: gunicorn when it is installed and the platform is not Windows (gunicorn needs
    ``fork`` and ``fcntl``), else waitress. Asking for gunicorn where it cannot run raises
    ``CommandError`` saying to use waitress.
    """
    platform = platform or sys.platform
    usable = platform != "win32" and importlib.util.find_spec("gunicorn") is not None
    if requested == "waitress" or (requested == "auto" and not usable):
        return "waitress"
    if not usable:
        raise CommandError("gunicorn does not run here (Windows, or not installed): use --server waitress.")
    return "gunicorn"


def serve_waitress(host, port, threads):
    """Serve the project's WSGI application (as ``config.wsgi``) with waitress in this process
    until Ctrl+C (pure Python)."""
    from django.core.wsgi import get_wsgi_application  # noqa: PLC0415 - what config.wsgi serves
    from waitress import serve  # noqa: PLC0415 - only this server needs it

    serve(get_wsgi_application(), host=host, port=port, threads=threads, ident="karuta")


def qr_text(url):
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


class Command(BaseCommand):
    help = "Serve on the LAN with gunicorn or waitress (production settings), printing the address and its QR code."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST") or "0.0.0.0")
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS") or default_workers()))
        parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS") or 4))
        parser.add_argument("--timeout", type=int, default=60)
        parser.add_argument("--server", choices=SERVERS, default=os.environ.get("KARUTA_SERVER") or "auto")
        parser.add_argument("--no-qr", action="store_true")
        parser.add_argument(
            "--dry-run", action="store_true", help="print the address and the gunicorn command, do not serve"
        )

    def check_accounts(self):
        """A first organiser with a random password on an empty database; warn about the demo password.

        Everybody on the hall's Wi-Fi reaches this server, so the demo login that
        `make run` prints (organiser / karuta-demo) must not stay.
        """
        User = get_user_model()
        if not User.objects.filter(is_active=True).exists():
            password = secrets.token_urlsafe(9)
            call_command("ensure_organiser", username="organiser", password=password, stdout=self.stdout)
            self.stdout.write("  Write this login down; change it with: python manage.py changepassword organiser")
            return
        candidates = User.objects.filter(is_active=True).filter(Q(username="organiser") | Q(is_superuser=True))[:10]
        weak = [u.username for u in candidates if u.check_password(DEMO_PASSWORD)]
        if weak:
            self.stdout.write(
                self.style.WARNING(
                    f"  WARNING: {', '.join(weak)} still has the demo password {DEMO_PASSWORD!r}; anyone on the Wi-Fi "
                    f"could log in. Change it: python manage.py changepassword {weak[0]}"
                )
            )

    def clear_sessions(self):
        """Expired sessions deleted now, and by each server process on a timer
        (``ops.sessions``, every ``SESSION_CLEAR_SECONDS``): the table cannot grow without end."""
        try:
            count = sessions.clear_expired()
        except DatabaseError as error:
            self.stdout.write(self.style.WARNING(f"  Expired sessions could not be cleared now: {error}"))
        else:
            if count:
                self.stdout.write(f"  {count} expired sessions cleared.")
        os.environ[sessions.TIMER_ENV] = "1"

    def handle(self, host, port, workers, threads, timeout, no_qr, dry_run, server="auto", **options):
        server = choose_server(server)
        self.check_accounts()
        self.clear_sessions()
        # Each server process sends the outgoing webhook's messages on a timer (webhooks/apps.py;
        # a run is one query while no event's webhook is on).
        os.environ[WEBHOOK_SENDER_ENV] = "1"
        url = os.environ.get("SITE_URL", "").rstrip("/") or site_url_for(host, port)
        os.environ["SITE_URL"] = url
        os.environ["DEBUG"] = "false"
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(f"  Karuta tournament server: {url}/"))
        self.stdout.write(f"  Organiser pages: {url}/manage/   (court links and sheet QR codes use {url})")
        others = [a for a in lan_addresses() if a != urlsplit(url).hostname]
        if host in ("0.0.0.0", "") and others:
            self.stdout.write(f"  Also reachable at: {', '.join(f'http://{a}:{port}/' for a in others)}")
        if not no_qr:
            self.stdout.write(qr_text(url + "/"))
        if server == "waitress":
            self.stdout.write(f"  waitress, {threads} threads on {host}:{port}; Ctrl+C stops the server.")
            if dry_run:
                return
            sys.stdout.flush()
            django_apps.get_app_config("webhooks").start_sender()  # this process serves: its own timer
            serve_waitress(host, port, threads)
            return
        argv = gunicorn_argv(host, port, workers, threads, timeout)
        self.stdout.write(f"  {workers} workers × {threads} threads on {host}:{port}; Ctrl+C stops the server.")
        if dry_run:
            self.stdout.write(" ".join(argv))
            return
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(argv[0], argv)
