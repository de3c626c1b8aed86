"""What the browser tests share: Debian's Chromium driven by Playwright, and screenshots.

The tests are skipped where Chromium or Playwright is missing, except under CI=true, where
they are required (``conftest.py`` applies that). Screenshots go to
test-artifacts/screenshots/ for people to look at.
"""

import shutil
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover
    sync_playwright = None

AVAILABLE = bool(CHROMIUM and sync_playwright)


def shot(page, name):
    """A full-page screenshot as test-artifacts/screenshots/<name>.png."""
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def go_back(page):
    """Press the browser's Back button and wait until the previous page has loaded.

    Playwright's ``page.go_back()`` first asks Chromium for the navigation history over
    CDP; right after a POST-redirect-GET that request can land while Chromium swaps the
    page's frame and fail with "Not attached to an active page" (seen once in CI). Waiting
    for the current page to finish loading and then going back from the page itself, as
    the Back button does, avoids that window.
    """
    page.wait_for_load_state("load")
    with page.expect_navigation(wait_until="load"):
        page.evaluate("setTimeout(() => history.back(), 0)")


def log_in(page, live_server, username, password, path):
    """Log in through the login page and land on ``path`` (the page's ``next``)."""
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("main button")
    assert page.url.endswith(path), page.url
