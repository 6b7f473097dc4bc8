"""Real browser tests: Playwright (sync API) driving Debian's Chromium against a real room
on SQLite. One browser for the browser tests; one context per player (``players``), whose
console errors, uncaught errors and failed requests fail the test at its end.

Without /usr/bin/chromium the tests are skipped, unless SPLITPOT_REQUIRE_BROWSER=1, which
makes them fail instead (``make test`` installs Chromium when it is missing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, launch
from player import Player, open_player
from room_helpers import FAST, RoomServer, running_room
from services import missing
from store_fixtures import cheap_hasher, fresh_sqlite_database

from splitpot.store import open_store


class Chromium:
    """One browser for the browser tests, started by the first and stopped after the last
    of them: Playwright's sync API keeps an event loop marked as running in the main
    thread while it is open, which would break the later tests that call asyncio.run."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def start(self) -> Any:
        if self.browser is None:
            from playwright.sync_api import expect, sync_playwright

            expect.set_options(timeout=10_000)
            self.playwright = sync_playwright().start()
            self.browser = launch(self.playwright)
        return self.browser

    def stop(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.playwright.stop()
            self.browser = self.playwright = None


CHROMIUM_SESSION = Chromium()
HERE = Path(__file__).parent


@pytest.fixture
def browser() -> Any:
    if not CHROMIUM.exists():
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium; make test does)"
        missing(reason, "SPLITPOT_REQUIRE_BROWSER")
    return CHROMIUM_SESSION.start()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """After the last browser test in a row (its fixtures torn down), stop the browser."""
    result = yield
    if nextitem is None or HERE not in nextitem.path.parents:
        CHROMIUM_SESSION.stop()
    return result


@pytest.fixture
def room(tmp_path: Path) -> Iterator[RoomServer]:
    """A room on a SQLite file of the test's own (the browser tests are not store tests)."""
    url = fresh_sqlite_database(tmp_path / "room.sqlite3")
    store = open_store(url, password_hasher=cheap_hasher())
    try:
        with running_room(store, FAST) as server:
            yield server
    finally:
        store.close()


Players = Callable[..., Player]


@pytest.fixture
def players(browser: Any, room: RoomServer) -> Iterator[Players]:
    """``players(name, signed_in=True, size="desktop", same=None, forced_colors=False)``: a
    page in a context of its own (high contrast with ``forced_colors``). Signed in, the
    player is a new guest of that name already (the identity in the pages' localStorage),
    or the same guest as the Player ``same`` (a second device); else the page starts as a
    stranger's. At the end every page must have met no error: console, uncaught, failed
    request or HTTP error status."""
    made: list[tuple[Any, Player]] = []

    def make(
        name: str,
        *,
        signed_in: bool = True,
        size: str = "desktop",
        same: Player | None = None,
        forced_colors: bool = False,
    ) -> Player:
        guest = room.guest(name) if signed_in and same is None else None
        if same is not None:
            assert same.player_id is not None and same.token is not None
            guest = (same.player_id, same.token)
        context, player = open_player(browser, room.url, name, guest, size, forced_colors)
        made.append((context, player))
        return player

    yield make
    problems = [f"{p.name}: {text}" for _, p in made for text in p.problems]
    for context, _ in made:
        context.close()
    assert not problems, "the pages met errors:\n" + "\n".join(problems)
