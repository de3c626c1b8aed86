import os
import tempfile

# Tests never touch the developer's database or secret: a throwaway data directory.
os.environ.setdefault("KARUTA_DATA_DIR", tempfile.mkdtemp(prefix="karuta-test-"))


import pytest


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A request through the test client leaves its language active: reset it."""
    yield
    from django.conf import settings

    if not settings.configured:  # pure-module runs with -p no:django
        return
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _private_data_dir(request, tmp_path):
    """Uploads and backups of a test go to its own folder, never to ./var."""
    if "settings" not in request.fixturenames and not _django_configured():
        yield
        return
    from django.conf import settings

    old = settings.DATA_DIR
    settings.DATA_DIR = tmp_path
    yield
    settings.DATA_DIR = old


def _django_configured():
    try:
        from django.conf import settings

        return settings.configured
    except Exception:
        return False


@pytest.fixture(autouse=True)
def _empty_cache():
    """Public pages are cached for a few seconds: each test starts with an empty cache."""
    if _django_configured():
        from django.core.cache import cache

        cache.clear()
    yield
