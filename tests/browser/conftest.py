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


@pytest.fixture
def new_context(browser):
    """Opens browser contexts (a tablet each: its own cookies and storage) for one test.

    ``new_context(**options)`` takes Playwright's ``Browser.new_context`` options (viewport,
    locale, java_script_enabled, ...) and returns the context. Every context it opened is
    closed after the test, with its pages, passed or failed: a page left open keeps its
    scripts polling the live server while the next test runs.
    """
    contexts = []

    def open_context(**options):
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def new_page(new_context):
    """Opens pages, each in a context of its own, closed after the test (see ``new_context``).

    ``new_page(**options)`` takes the options of ``Browser.new_page`` and returns the page.
    """

    def open_page(**options):
        return new_context(**options).new_page()

    return open_page
