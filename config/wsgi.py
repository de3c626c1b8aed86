"""WSGI entry point (gunicorn config.wsgi, waitress on Windows).

Each server process imports this module before it takes its first request (gunicorn: every
worker it starts, including the one that replaces a worker after ``--max-requests``). So the
work every first request would do is done here, once, before any tablet or phone waits: the
root URLconf with every view module it imports (reportlab, openpyxl: about a second), and
the translation catalogs of every language. Under a full hall (``bench/load.py --shape day``)
a worker's first requests took 0.8–1.3 s (issue 31, item 3). No database is opened here.
"""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver
from django.utils import translation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def warm_up():
    """Load the URLconf (and so every view module) and every language's catalog now."""
    get_resolver().url_patterns  # noqa: B018 (a cached property: loading it is the point)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Japanese")


warm_up()
