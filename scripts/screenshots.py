"""The README's pictures: the lobby, a hand in play and a showdown, on a phone (390x844)
and a desktop (1366x768), taken from a real room in Debian's Chromium into docs/images/;
and the lobby and a split pot's showdown in Japanese and in Russian (a desktop browser
whose locale is ja-JP or ru-RU: lobby-ja.png, showdown-ja.png, ...). Japanese needs a CJK
font installed (Debian: fonts-noto-cjk), else its glyphs are drawn as boxes.

    .venv/bin/python scripts/screenshots.py [--languages]   (--languages: those alone)

The browser tests' helpers (tests/browser) drive the pages; the room runs on a SQLite
file of its own in a temporary folder."""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from chromium import launch  # noqa: E402
from feed import Feed, command, showdown  # noqa: E402
from player import Player, open_player, passive  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from room_helpers import FAST, Frame, RoomServer, running_room  # noqa: E402
from store_fixtures import cheap_hasher  # noqa: E402
from test_web_i18n import TABLE_NAMES, open_localised, play_to_a_split_pot  # noqa: E402

from splitpot.store import open_store  # noqa: E402

IMAGES = ROOT / "docs" / "images"
SIZES = ("desktop", "phone")
# Hands wait long enough between them for the showdown to be taken.
OPTIONS = dataclasses.replace(FAST, hand_pause=8.0, bot_delay=0.2, seed=11)
# The split pot's hands are dealt one at a time (the table paused between them).
LANGUAGE_OPTIONS = dataclasses.replace(FAST, bot_delay=0.2)


def snap(pages: dict[str, Player], what: str) -> None:
    for size, player in pages.items():
        path = IMAGES / f"{what}-{size}.png"
        player.page.screenshot(path=str(path))
        print(f"wrote {path.relative_to(ROOT)}")


def lobby(room: RoomServer, browser: object, host: tuple[str, str]) -> None:
    """A lobby with a few tables, some with bots playing."""
    room.create_table(host[1], name="Friday Omaha", seats=6, bots=4)
    room.create_table(host[1], name="Fixed 2/4", structure="limit", seats=9, bots=3)
    room.create_table(host[1], name="Big O night", variant="bigo", structure="no-limit", seats=8)
    room.create_table(host[1], name="Mixed doubles", structure="mixed", seats=4, bots=2)
    guest = room.guest("Maya")
    pages = {}
    for size in SIZES:
        _, pages[size] = open_player(browser, room.url, "Maya", guest, size)
        pages[size].open_lobby()
        expect(pages[size].page.locator("#tables [data-table]")).to_have_count(4)
    snap(pages, "lobby")


def table(room: RoomServer, browser: object, host: tuple[str, str]) -> None:
    """Maya (both sizes show her page) plays a friend and two bots: a hand on the flop,
    then its showdown."""
    settings = {"name": "Kitchen table", "seats": 6, "bots": 2, "private": True}
    created = room.create_table(host[1], **settings)
    table_id, invite = created["table"]["id"], created["invite"]
    maya = room.guest("Maya")
    feed = Feed(room, table_id, invite)
    feed.add(1, host[1])
    feed.host(1, "pause")  # until everyone sits and looks
    feed.add(4, maya[1])
    feed.sit(1, 200, post_now=True)
    feed.sit(4, 200, post_now=True)
    pages = {}
    for size in SIZES:
        _, pages[size] = open_player(browser, room.url, "Maya", maya, size)
        pages[size].open_table(table_id, invite)
    start = len(feed.frames)
    feed.host(1, "resume")
    hand = feed.event("hand_started", start)["hand"]
    flop: list[Frame] = []

    def maya_acts(turn: Frame) -> None:
        if not flop and feed.events("board", hand):
            flop.append(turn)
            for player in pages.values():
                expect(player.button("Fold")).to_be_visible()
            snap(pages, "hand")
        passive(pages["desktop"], turn)

    feed.play(hand, {1: command(feed.clients[1], table_id, showdown), 4: maya_acts})
    for player in pages.values():
        expect(player.page.locator(".card.winning").first).to_be_visible()
    snap(pages, "showdown")
    feed.close()


def in_language(room: RoomServer, browser: object, locale: str) -> None:
    """The lobby and a split pot's showdown in a desktop browser of ``locale``."""
    lang = locale[:2]
    _, token = room.guest("Sam")
    room.create_table(token, name=TABLE_NAMES[lang], seats=6, bots=4)
    room.create_table(token, name="2/4", structure="limit", seats=9, bots=3)
    room.create_table(token, name="Big O", variant="bigo", structure="no-limit", seats=8)
    context, maya = open_localised(browser, room.url, "Maya", room.guest("Maya"), locale)
    maya.open_lobby()
    expect(maya.page.locator("#tables [data-table]")).to_have_count(3)
    shoot(maya, f"lobby-{lang}")
    context.close()
    context, aiko, feed, _ = play_to_a_split_pot(room, browser, locale)
    expect(aiko.page.locator(".card.winning").first).to_be_visible()
    shoot(aiko, f"showdown-{lang}")
    feed.close()
    context.close()


def shoot(player: Player, what: str) -> None:
    path = IMAGES / f"{what}.png"
    player.page.screenshot(path=str(path))
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    languages_only = "--languages" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/room.sqlite3", password_hasher=cheap_hasher())
        with running_room(store, OPTIONS) as room, sync_playwright() as playwright:
            browser = launch(playwright)
            if not languages_only:
                host = room.guest("Sam")
                lobby(room, browser, host)
                table(room, browser, host)
            browser.close()
        store.close()
    for locale in ("ja-JP", "ru-RU"):  # each in a room of its own: its own lobby
        with tempfile.TemporaryDirectory() as folder:
            store = open_store(f"sqlite:///{folder}/room.sqlite3", password_hasher=cheap_hasher())
            with running_room(store, LANGUAGE_OPTIONS) as room, sync_playwright() as playwright:
                browser = launch(playwright)
                in_language(room, browser, locale)
                browser.close()
            store.close()


if __name__ == "__main__":
    main()
