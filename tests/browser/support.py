"""What the browser tests share: Debian's Chromium driven by Playwright, and screenshots.

The tests are skipped where Chromium or Playwright is missing, except under CI=true, where
they are required (``conftest.py`` applies that). Screenshots go to
test-artifacts/screenshots/ for people to look at.
"""

import shutil
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover
    sync_playwright = None

AVAILABLE = bool(CHROMIUM and sync_playwright)


def shot(page, name):
    """A full-page screenshot as test-artifacts/screenshots/<name>.png."""
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
