"""Production settings: the deployment checks, cookies and headers, SQLite's pragmas, `serve`.

The settings module is read once per process, so each deployment is checked in a fresh
``manage.py`` process with its own environment.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

BASE = Path(__file__).resolve().parents[2]


def manage(*args, env=None, data_dir):
    # Never the developer's database: these processes use SQLite in their own folder.
    # (DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests for their own process only.)
    dropped = ("DEBUG", "KARUTA_HTTPS", "SITE_URL", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    environment.update({"KARUTA_DATA_DIR": str(data_dir), "DJANGO_SETTINGS_MODULE": "config.settings"})
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE, env=environment, capture_output=True, text=True, timeout=120
    )


def settings_in(data_dir, env, *names):
    code = "from django.conf import settings; " + "; ".join(f"print(repr(settings.{n}))" for n in names)
    result = manage("shell", "-c", code, env=env, data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    return [eval(line) for line in result.stdout.strip().splitlines()[-len(names) :]]


def test_check_deploy_is_quiet_for_the_venue_on_plain_http(tmp_path):
    result = manage("check", "--deploy", "--fail-level", "WARNING", env={"DEBUG": "false"}, data_dir=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (4 silenced)." in result.stdout


def test_check_deploy_is_quiet_with_https(tmp_path):
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", env={"DEBUG": "false", "KARUTA_HTTPS": "1"}, data_dir=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # Only preloading into browsers' HSTS lists is left to the domain's owner.
    assert "System check identified no issues (1 silenced)." in result.stdout


def test_check_deploy_still_catches_debug(tmp_path):
    result = manage("check", "--deploy", "--fail-level", "WARNING", env={"DEBUG": "true"}, data_dir=tmp_path)
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr


def test_only_https_only_checks_are_silenced_on_plain_http(tmp_path):
    silenced, session_secure, csrf_secure, redirect = settings_in(
        tmp_path,
        {"DEBUG": "false"},
        "SILENCED_SYSTEM_CHECKS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_SSL_REDIRECT",
    )
    assert sorted(silenced) == ["security.W004", "security.W008", "security.W012", "security.W016"]
    # docs/rules/field-faults.md, 20: a Secure cookie over http is dropped by iPad Safari and every form answers 403.
    assert session_secure is False and csrf_secure is False and redirect is False


def test_https_turns_on_redirect_hsts_and_secure_cookies(tmp_path):
    values = settings_in(
        tmp_path,
        {"DEBUG": "false", "KARUTA_HTTPS": "1", "KARUTA_BEHIND_PROXY": "1"},
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_PROXY_SSL_HEADER",
        "SILENCED_SYSTEM_CHECKS",
    )
    assert values[:3] == [True, True, True]
    assert values[3] > 0 and values[4] is True
    assert values[5] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert values[6] == ["security.W021"]


def test_site_url_is_a_trusted_origin(tmp_path):
    (origins,) = settings_in(tmp_path, {"SITE_URL": "http://192.168.1.10:8000/"}, "CSRF_TRUSTED_ORIGINS")
    assert origins == ["http://192.168.1.10:8000"]


def test_cookie_and_header_settings():
    assert settings.SESSION_COOKIE_HTTPONLY is True
    assert settings.CSRF_COOKIE_SAMESITE == "Lax" and settings.SESSION_COOKIE_SAMESITE == "Lax"
    assert settings.X_FRAME_OPTIONS == "DENY"
    assert settings.SECURE_CONTENT_TYPE_NOSNIFF is True
    assert settings.SECURE_REFERRER_POLICY == "same-origin"


@pytest.mark.django_db
def test_every_response_carries_the_security_headers(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_a_bad_boolean_is_refused(tmp_path):
    result = manage("check", env={"KARUTA_HTTPS": "maybe"}, data_dir=tmp_path)
    assert result.returncode != 0 and "KARUTA_HTTPS must be true or false" in result.stderr


def test_every_setting_read_from_the_environment_is_documented():
    source = (BASE / "config" / "settings.py").read_text() + (
        BASE / "ops" / "management" / "commands" / "serve.py"
    ).read_text()
    import re

    names = set(re.findall(r"""(?:envbool|envint|os\.environ\.get|os\.environ\[)\(?\s*["']([A-Z_]+)["']""", source))
    documented = (BASE / ".env.example").read_text()
    missing = sorted(n for n in names if n not in documented and n != "DJANGO_SETTINGS_MODULE")
    assert names and missing == []


# --- SQLite ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_sqlite_connections_use_wal_a_busy_timeout_and_immediate_transactions(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    # The test database lives in memory, where WAL does not apply: open a real file with
    # the production settings dictionary, as the server does.
    from django.db.backends.sqlite3.base import DatabaseWrapper

    settings_dict = {**connection.settings_dict, "NAME": str(tmp_path / "venue.sqlite3"), "TEST": {}}
    settings_dict["OPTIONS"] = dict(settings.DATABASES["default"]["OPTIONS"])
    wrapper = DatabaseWrapper(settings_dict, alias="wal-check")
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"
            cursor.execute("PRAGMA busy_timeout")
            assert cursor.fetchone()[0] == 20000
            cursor.execute("PRAGMA foreign_keys")
            assert cursor.fetchone()[0] == 1
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == 1  # NORMAL: safe with WAL, and fast
        assert wrapper.transaction_mode == "IMMEDIATE"
    finally:
        wrapper.close()


def test_the_worker_timeout_outlives_the_busy_timeout():
    from ops.management.commands.serve import gunicorn_argv

    argv = gunicorn_argv("0.0.0.0", 8000, 5, 4, 60)
    timeout = int(argv[argv.index("--timeout") + 1])
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        assert timeout > settings.DATABASES["default"]["OPTIONS"]["timeout"]
    assert argv[argv.index("--bind") + 1] == "0.0.0.0:8000"
    assert "--workers" in argv and "--threads" in argv


# --- `make serve`'s address and QR code --------------------------------------------------


def test_the_lan_address_is_an_ipv4_address_without_the_internet():
    import ipaddress

    from ops.management.commands import serve

    address = serve.lan_ipv4()
    ipaddress.IPv4Address(address)
    assert serve.site_url_for("0.0.0.0", 8000) == f"http://{address}:8000"
    assert serve.site_url_for("127.0.0.1", 8001) == "http://127.0.0.1:8001"


def test_the_lan_address_prefers_a_private_address(monkeypatch):
    from ops.management.commands import serve

    monkeypatch.setattr(serve, "_route_source", lambda target: "203.0.113.5")
    monkeypatch.setattr(serve, "_hostname_addresses", lambda: ["127.0.0.1", "192.168.10.4", "169.254.1.1"])
    assert serve.lan_addresses() == ["192.168.10.4", "203.0.113.5"]
    monkeypatch.setattr(serve, "_route_source", lambda target: None)
    monkeypatch.setattr(serve, "_hostname_addresses", lambda: [])
    monkeypatch.setattr(serve.socket, "gethostbyname", lambda name: "127.0.1.1")
    assert serve.lan_ipv4() == "127.0.0.1"


def test_the_qr_code_of_the_address_is_printed():
    from ops.management.commands.serve import qr_text

    text = qr_text("http://192.168.1.10:8000/")
    assert len(text.splitlines()) > 10 and "█" in text


def test_serve_dry_run_prints_the_url_and_the_gunicorn_command(tmp_path):
    assert manage("migrate", "-v0", data_dir=tmp_path).returncode == 0
    result = manage(
        "serve",
        "--dry-run",
        "--host",
        "127.0.0.1",
        "--port",
        "8765",
        "--workers",
        "3",
        env={"DEBUG": "false"},
        data_dir=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "http://127.0.0.1:8765/" in result.stdout
    assert "gunicorn config.wsgi:application --bind 127.0.0.1:8765 --workers 3" in result.stdout
    # An empty database gets a first organiser with a random password, never the demo one.
    assert "Organiser login: organiser / " in result.stdout and "karuta-demo" not in result.stdout


def test_a_server_process_loads_the_urls_and_catalogs_before_its_first_request(tmp_path):
    # config/wsgi.py: a worker's first request no longer imports every view module (~1 s).
    code = (
        "import config.wsgi; from django.urls import get_resolver; import sys; "
        "print('url_patterns' in get_resolver().__dict__, 'tournament.views.public' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE,
        env={**os.environ, "KARUTA_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == ["True", "True"]
