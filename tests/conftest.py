import os
import tempfile

# Tests never touch the developer's database or secret: a throwaway data directory.
os.environ.setdefault("KARUTA_DATA_DIR", tempfile.mkdtemp(prefix="karuta-test-"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A request through the test client leaves its language active: reset it."""
    yield
    from django.conf import settings

    if not settings.configured:  # pure-module runs with -p no:django
        return
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
