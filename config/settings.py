"""Settings for the karuta tournament manager, all driven by environment variables.

One module for every place the app runs: a laptop at the venue (SQLite, the default),
a server (PostgreSQL through DATABASE_URL), and the tests. Nothing secret lives in the
repository: the secret key comes from SECRET_KEY or is generated on first run into the
data directory (KARUTA_DATA_DIR, default ./var in a checkout, ignored by git; the user's data
folder when installed as a package, see ``_default_data_dir``).
"""

import datetime
import importlib.util
import os
import secrets
import sys
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
# The templates, static files, translations and fixtures: beside the packages in a checkout;
# under karuta_files/ when the app runs from an installed wheel (setup.py, docs/packaging.md).
RESOURCE_DIR = BASE_DIR / "karuta_files" if (BASE_DIR / "karuta_files").is_dir() else BASE_DIR
INSTALLED_PACKAGE = RESOURCE_DIR != BASE_DIR


def envbool(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def _default_data_dir() -> Path:
    """./var in a checkout (``make``); installed, the user's data folder (platformdirs):
    %LOCALAPPDATA%\\hitachi-karuta on Windows, ~/Library/Application Support/hitachi-karuta on
    macOS, ~/.local/share/hitachi-karuta (or $XDG_DATA_HOME) elsewhere."""
    if not INSTALLED_PACKAGE:
        return BASE_DIR / "var"
    import platformdirs  # noqa: PLC0415 - only the installed package needs it

    return platformdirs.user_data_path("hitachi-karuta", appauthor=False)


DATA_DIR = Path(os.environ["KARUTA_DATA_DIR"]) if os.environ.get("KARUTA_DATA_DIR") else _default_data_dir()
# The test suite on several processes (pytest -n): each process its own data folder, so their
# file caches (the page cache, rate limits, kept forms) are not shared or cleared by another.
# Inside pytest only: a command the tests start in a process of its own keeps the folder given.
if os.environ.get("PYTEST_XDIST_WORKER") and "pytest" in sys.modules:
    DATA_DIR = DATA_DIR / os.environ["PYTEST_XDIST_WORKER"]
    DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key():
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = DATA_DIR / "secret_key"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = envbool("DEBUG", False)
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "*").split(",") if h.strip()]
# The address printed on court links and in the QR codes of the recording sheets, e.g.
# http://192.168.1.10:8000 at the venue (`make serve` sets it to the laptop's LAN address).
# Empty: the address the request came in on.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")

# --- Security -------------------------------------------------------------------------
# Two deployments. The venue (the default): a laptop serving tablets over plain HTTP on
# the hall's Wi-Fi, with no domain name and so no certificate. A server with TLS
# (KARUTA_HTTPS=1, behind a proxy that terminates TLS or not): redirect to https, HSTS,
# cookies only over https.
KARUTA_HTTPS = envbool("KARUTA_HTTPS", False)
# Behind nginx or Caddy: the client's address is the right-most X-Forwarded-For entry
# (login throttling, config/client_ip.py) and, with KARUTA_HTTPS, X-Forwarded-Proto is trusted.
KARUTA_BEHIND_PROXY = envbool("KARUTA_BEHIND_PROXY", False)
# The proxies' own addresses (comma-separated addresses or networks, e.g. 10.0.0.5,10.1.0.0/24):
# X-Forwarded-For is read only on a request whose connection comes from one of them, so a
# client reaching gunicorn directly cannot pick its own address (issue 28, item 5).
# Default: loopback only, the proxy on the same machine.
KARUTA_TRUSTED_PROXIES = [
    p.strip() for p in os.environ.get("KARUTA_TRUSTED_PROXIES", "127.0.0.0/8,::1").split(",") if p.strip()
]

# A club's entry link (docs/security.md): at most this many teams per link, and this many
# changes saved per minute through one link (issue 28, item 3).
KARUTA_CLUB_LINK_MAX_TEAMS = envint("KARUTA_CLUB_LINK_MAX_TEAMS", 20)
KARUTA_CLUB_LINK_WRITES_PER_MINUTE = envint("KARUTA_CLUB_LINK_WRITES_PER_MINUTE", 20)

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Origins trusted for forms besides the page's own host, e.g. https://karuta.example.org
# when a proxy changes the Host header; SITE_URL is always trusted.
CSRF_TRUSTED_ORIGINS = [
    o.strip().rstrip("/") for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
if SITE_URL.startswith(("http://", "https://")) and SITE_URL not in CSRF_TRUSTED_ORIGINS:
    CSRF_TRUSTED_ORIGINS.append(SITE_URL)

# Content-Security-Policy (django-csp): everything from this site only, no inline script
# (the pages' scripts are static files; inline handlers became data attributes read by
# static/js/page.js) and no inline style (layout helpers are classes of static/css/app.css;
# scripts that size text set element.style, which the policy does not cover).
# Images may be data: URLs (the empty favicon). No page may be framed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

if KARUTA_HTTPS:
    SECURE_SSL_REDIRECT = envbool("KARUTA_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Start small: a browser that saw HSTS refuses plain http to this host for this long.
    SECURE_HSTS_SECONDS = envint("KARUTA_HSTS_SECONDS", 60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("KARUTA_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = envbool("KARUTA_HSTS_PRELOAD", False)
    if KARUTA_BEHIND_PROXY:
        # The proxy terminates TLS and says so; without this every request looks like http.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Preloading into browsers is a decision for the owner of the domain, not for this
    # app: KARUTA_HSTS_PRELOAD=1 opts in, and then the check is not silenced.
    SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
else:
    # Plain http on the venue's LAN: there is no certificate, so the HTTPS-only deployment
    # checks cannot be satisfied and are silenced, each for the same documented reason:
    #   W004 HSTS, W008 SSL redirect: there is no https to redirect to or to pin;
    #   W012 SESSION_COOKIE_SECURE, W016 CSRF_COOKIE_SECURE: a Secure cookie is never sent
    #   back over http, so iPad Safari loses the CSRF cookie and every form answers 403
    #   (docs/rules/field-faults.md, 20). Never turn these cookies on without KARUTA_HTTPS.
    # Every other deployment check (DEBUG, SECRET_KEY, X-Frame-Options, …) stays on.
    SESSION_COOKIE_SECURE = False
    CSRF_COOKIE_SECURE = False
    SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008", "security.W012", "security.W016"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "axes",
    "csp",
    "common",
    "ops",
    "tournament",
    "judging",
    "hanafuda",
    "dosai",
    "awards",
    "series",
    "club_entry",
    "reader",
    "people",
    "webhooks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # gzip for the API and the public pages only, never a page with a CSRF token (BREACH).
    "config.middleware.SafeGZipMiddleware",
    # Every error under /api/ (400, 405, 500, 503 …) in JSON.
    "config.middleware.ApiErrorsMiddleware",
    # Content-Security-Policy (django-csp; CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # no-store on pages behind a login or a court token, noindex everywhere.
    "config.middleware.PrivacyHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A form sent after the login expired comes back after the login, ready to send again.
    "config.middleware.KeptFormMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # "Busy, try again: your values are kept" (503) instead of a 500 when the database is
    # locked, read-only, full or unreachable.
    "config.middleware.DatabaseTroubleMiddleware",
    # Login throttling: last, as django-axes asks.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after 5 wrong passwords for one login name from one
# address, that pair waits 15 minutes: the attacker's address is locked, never the login
# name everywhere, so the real organiser on another device still logs in. The address is
# the client's (behind a proxy: from X-Forwarded-For, config/client_ip.py), never the
# proxy's. A court link needs no login and is not affected.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = envbool("KARUTA_LOGIN_THROTTLE", True)
AXES_FAILURE_LIMIT = envint("KARUTA_LOGIN_ATTEMPTS", 5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=envint("KARUTA_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.client_ip.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [RESOURCE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite by default, set up for many writers at once: WAL lets readers run beside the
# writer, the busy timeout makes a writer wait instead of failing at once, and IMMEDIATE
# transactions take the write lock at BEGIN so two writers never deadlock on upgrade.
SQLITE_OPTIONS = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
}
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # PostgreSQL (psycopg 3): postgres://user:password@host:5432/dbname. Each server worker
    # keeps its connection for a minute and checks it before reuse: Django's backend with a
    # check that asks the server only when the socket says something happened
    # (config/postgresql/base.py).
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=envint("CONN_MAX_AGE", 60), conn_health_checks=True)
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "config.postgresql"
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = dict(SQLITE_OPTIONS)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "karuta.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
            # Each server thread keeps its connection for a minute, as with PostgreSQL: opening
            # one (the file, the PRAGMAs above) was 8 % of the server's time under a full hall's
            # polls (issue 31, item 3). A restore writes into the same file, so kept
            # connections see it.
            "CONN_MAX_AGE": envint("CONN_MAX_AGE", 60),
            "CONN_HEALTH_CHECKS": True,
        }
    }
# The test suite's SQLite database is a file in the test process's data folder (WAL and the
# busy timeout as at the venue), not Django's shared-cache in-memory database: with that, a
# write from a test meeting a read by the live server's thread fails at once with "database
# table is locked" instead of waiting.
if "pytest" in sys.modules and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ----------------------------------------------------------------------------
# One cache shared by every worker of `make serve` (public pages and the API, see
# common/page_cache.py): SQLite files under DATA_DIR/page-cache by default; Redis when KARUTA_REDIS_URL
# is set (redis://host:6379/0; needs the `redis` package: pip install redis).
REDIS_URL = os.environ.get("KARUTA_REDIS_URL", "")
if REDIS_URL:
    if importlib.util.find_spec("redis") is None:
        raise ImproperlyConfigured("KARUTA_REDIS_URL is set but the redis package is not installed (pip install redis)")
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    # diskcache: SQLite files (one per shard) under DATA_DIR/page-cache, safe across processes
    # and threads. Django's file-based cache wrote a file per entry and listed the whole
    # directory at every write to cull it: under a full hall's polls (issue 31, item 3) its
    # writes were a fifth of the server's time (py-spy), and its culling dropped a random third
    # of the entries, the hot ones too. A read that meets a busy shard (DATABASE_TIMEOUT
    # seconds) is a miss; a write retries. Oldest-stored entries go first past KARUTA_CACHE_MB.
    # Its connections stay open across requests (common/cache_backend.py).
    CACHES = {
        "default": {
            "BACKEND": "common.cache_backend.KeptOpenDiskCache",
            "LOCATION": str(DATA_DIR / "page-cache"),
            "SHARDS": 4,
            "DATABASE_TIMEOUT": 0.05,
            "OPTIONS": {"size_limit": envint("KARUTA_CACHE_MB", 256) * 2**20},
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
# A rejected form (lost cookie, expired page) shows what was typed instead of losing it.
CSRF_FAILURE_VIEW = "config.views.csrf_failure"
LOGIN_REDIRECT_URL = "tournament:event_list"
LOGOUT_REDIRECT_URL = "tournament:public_home"
# A tournament day is long: stay logged in for 14 hours.
SESSION_COOKIE_AGE = 14 * 60 * 60

LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
LOCALE_PATHS = [RESOURCE_DIR / "locale"]
TIME_ZONE = "Asia/Tokyo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [RESOURCE_DIR / "static"]
# `collectstatic` writes here: ./staticfiles in a checkout, the data folder when installed
# (site-packages may be read-only and is shared by every user).
STATIC_ROOT = DATA_DIR / "staticfiles" if INSTALLED_PACKAGE else BASE_DIR / "staticfiles"
# The test suite links and serves static files as a fresh checkout does, never from what a
# `make serve` (or a bench) of this checkout collected: that manifest gave the pages hashed names.
if "pytest" in sys.modules:
    STATIC_ROOT = DATA_DIR / "staticfiles"
# Static files come from the app itself (no CDN, no separate web server at the venue).
WHITENOISE_USE_FINDERS = True
# Hashed names (collectstatic) cached for ten years by WhiteNoise; plain names while no manifest
# exists (common/static_storage.py). Plain names in DEBUG, so an edited file shows at once.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "common.static_storage.HashedStaticStorage"
    },
}
# Without collectstatic (development, tests) the finders serve the files; no warning then.
warnings.filterwarnings("ignore", message="No directory at")

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Uploads (entry sheets) stay small.
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# --- Backups --------------------------------------------------------------------------
# `manage.py backup` and the automatic backup taken before make_schedule, seed_knockout
# and an entry import go to DATA_DIR/backups; the newest KARUTA_BACKUP_KEEP automatic
# ones are kept. KARUTA_AUTO_BACKUP=0 turns the automatic ones off.
BACKUP_DIR = (
    Path(os.environ["KARUTA_BACKUP_DIR"]) if os.environ.get("KARUTA_BACKUP_DIR") else None
)  # None: DATA_DIR/backups
AUTO_BACKUP = envbool("KARUTA_AUTO_BACKUP", True)
BACKUP_KEEP = envint("KARUTA_BACKUP_KEEP", 20)

# Court tokens (the referees' credentials) are masked in every message (common/logmask.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_court_tokens": {"()": "common.logmask.MaskCourtTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_court_tokens"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Django's own loggers (its warnings, runserver's request lines) through the same
    # filtered handler instead of Django's default ones.
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
