"""The browser (Debian's Chromium through Playwright) for every test in tests/browser/."""

import os

import pytest

from tests.browser.support import ARGS, AVAILABLE, CHROMIUM, SHOTS, sync_playwright

if not AVAILABLE and os.environ.get("CI") == "true":
    raise RuntimeError("CI needs Chromium and Playwright for the browser tests (.ci/run installs them)")


def pytest_collection_modifyitems(config, items):
    if AVAILABLE:
        return
    skip = pytest.mark.skip(reason="Chromium or Playwright is not installed")
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(skip)


@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
