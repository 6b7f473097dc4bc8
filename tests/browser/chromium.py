"""Debian's Chromium for Playwright, headless, with the flags these machines need
(Playwright's own browser download does not work on them): for the tests and the
screenshots alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright: Any) -> Any:
    """The browser (``playwright`` is what ``sync_playwright()`` gives)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
