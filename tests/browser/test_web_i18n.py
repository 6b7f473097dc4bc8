"""The pages in Japanese and Russian: a whole table played to a showdown with a split pot
in a browser whose locale is ja-JP, and again in ru-RU, where the page shows no English
word outside names, cards and numbers (its visible text walked), and the dealer speaks the
page's language (its ``hello`` says ``lang``); the language menu, which switches the
language and is remembered by the browser. The pages' words come from web.po
(src/splitpot/locale/*/LC_MESSAGES), loaded from GET /api/languages/{lang}."""

from __future__ import annotations

import re
from typing import Any

import pytest
from feed import Feed, command, showdown
from player import Player, open_player
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

# Each language's own script: a dealer's line or a label in it has at least one of these.
SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
TABLE_NAMES = {"ja": "金曜の卓", "ru": "Пятничный стол"}
PLAYERS = {1: "Aiko", 2: "Boris", 3: "Cy"}  # Aiko plays in the browser, the others by commands
# Latin words a page may show in every language: the room's name, a language named in
# itself in the language menu. Names, cards ("A", "Kd"), numbers are allowed besides.
ALLOWED = {"splitpot", "English"}
FORMATS = {"PokerStars", "PHH", "OHH", "JSON"}  # the hand history formats' own names
UNSEEN = "code, pre, kbd, script, style"  # commands and code are not words to translate
CARDS = re.compile(r"^(?:[AKQJT2-9]|[AKQJT2-9][shdc])+$")
HANDS = 30  # hands dealt at most until one ends in a split pot (most do with three players)

# The visible text of the page: each text node shown (not in a closed dialog, nor hidden),
# the placeholders of the inputs shown, and the words a countdown draws from data-bank.
VISIBLE_TEXT = """(unseen) => {
  const shown = (node) => node.checkVisibility({ visibilityProperty: true });
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(unseen) || !shown(parent)) continue;
    if (parent.closest("select") && !parent.selected) continue; // a closed menu shows its choice
    if (node.textContent.trim()) found.push(node.textContent.trim());
  }
  for (const input of document.querySelectorAll("input[placeholder]")) {
    if (shown(input) && !input.value) found.push(input.placeholder);
  }
  for (const ring of document.querySelectorAll(".countdown[data-bank]")) {
    if (shown(ring) && ring.dataset.bank) found.push(ring.dataset.bank);
  }
  return found;
}"""


def open_localised(
    browser: Any,
    url: str,
    name: str,
    guest: tuple[str, str] | None,
    locale: str,
    phone: bool = False,
) -> tuple[Any, Player]:
    """A new browser context (a desktop's, or with ``phone`` a phone's) whose locale is
    ``locale`` (its navigator.languages and Accept-Language), and its page for ``name``,
    signed in as ``guest`` (id, token) when given. The context is the caller's to close."""
    size = "phone" if phone else "desktop"
    return open_player(browser, url, name, guest, size, locale=locale)


def english_words(texts: list[str], names: set[str]) -> list[str]:
    """The Latin words of ``texts`` that are neither a name, a card nor allowed."""
    found = []
    for text in texts:
        for word in re.findall(r"[A-Za-z]{2,}", text):
            if word not in names and word not in ALLOWED and not CARDS.match(word):
                found.append(f"{word!r} in {text!r}")
    return found


def visible_text(page: Any, skip: str = "") -> list[str]:
    """The page's visible text (VISIBLE_TEXT), leaving out code and ``skip`` (selectors)."""
    found: list[str] = page.evaluate(VISIBLE_TEXT, ", ".join(filter(None, [UNSEEN, skip])))
    return found


def play_in_the_page(player: Player) -> Any:
    """Answer a turn on the page: the check-or-call button, whatever its words."""

    def act(turn: Frame) -> None:
        button = player.page.locator("#actions button.check-call")
        expect(button).to_be_visible()
        button.click()

    return act


def split_pot(ended: Frame) -> bool:
    """A pot shared between halves (high to one hand, low to another)."""
    return any(award["share"] != "whole" and award["amount"] > 0 for award in ended["awards"])


def play_to_a_split_pot(
    room: RoomServer, browser: Any, locale: str
) -> tuple[Any, Player, Feed, str]:
    """A three-seat Omaha Hi/Lo table (host Boris), Aiko at it in a browser of ``locale``,
    hands dealt one at a time and checked down until one ends in a split pot; the page's
    context, Aiko, the feed and the hand."""
    lang = locale[:2]
    guests = {seat: room.guest(name) for seat, name in PLAYERS.items()}
    created = room.create_table(guests[2][1], name=TABLE_NAMES[lang], seats=3, variant="o8")
    table = created["table"]["id"]
    feed = Feed(room, table)
    for seat, (_, token) in guests.items():
        feed.add(seat, token)
    feed.host(2, "pause")
    for seat in guests:
        feed.sit(seat, 200, post_now=True)
    context, aiko = open_localised(browser, room.url, "Aiko", guests[1], locale)
    aiko.open_table(table)
    expect(aiko.page.locator("html")).to_have_attribute("lang", lang)
    hello = next(frame for frame in aiko.sent if frame.get("type") == "hello")
    assert hello.get("lang") == lang, hello
    players = {
        1: play_in_the_page(aiko),
        2: command(feed.clients[2], table, showdown),
        3: command(feed.clients[3], table, showdown),
    }
    for _ in range(HANDS):
        hand = feed.deal(2)
        ended = feed.play(hand, players)
        if split_pot(ended):
            return context, aiko, feed, hand
    raise AssertionError(f"no split pot in {HANDS} hands")


@pytest.mark.parametrize("locale", ["ja-JP", "ru-RU"])
def test_a_split_pot_showdown_speaks_the_browsers_language(
    room: RoomServer, browser: Any, locale: str
) -> None:
    lang = locale[:2]
    context, aiko, feed, hand = play_to_a_split_pot(room, browser, locale)
    try:
        page = aiko.page
        awarded = [event for event in feed.events("pot_awarded", hand) if event["text"]]
        expect(page.locator("#felt .award").first).to_be_visible()
        lines = page.locator("#dealer-log li")
        # the dealer's words for the awards, as the room said them to this page, in its language
        for award in awarded:
            if award["amount"]:
                seat = page.locator(f'.seat[data-seat="{award["seat"]}"]')
                expect(seat.locator(".award").first).to_be_visible()
        expect(lines.last).to_contain_text(SCRIPTS[lang])
        said = [line for line in lines.all_inner_texts() if line.strip()]
        assert said and all(SCRIPTS[lang].search(line) for line in said), said
        assert awarded, "the awards were told"
        names = set(PLAYERS.values())
        expect(page.locator("#hand-helper")).to_contain_text(SCRIPTS[lang])  # the room's words
        english = english_words(visible_text(page, ""), names)
        assert english == [], "English left on the table page:\n" + "\n".join(english)
        # the last hands window and its replayer, at the showdown step
        page.locator("#open-hands").click()
        item = page.locator(f'#hands-panel [data-hand="{hand}"]')
        item.click()
        page.locator("#hands-panel .street[data-street=showdown]").click()
        narration = page.locator("#hands-panel .replay-text")
        expect(narration).to_contain_text(SCRIPTS[lang])  # the finished hand's events, worded
        english = english_words(visible_text(page, ""), names | FORMATS)
        assert english == [], "English left in the replayer:\n" + "\n".join(english)
        # the same table on a phone: the longer Russian words and the Japanese ones fit
        phone, pocket = open_localised(
            browser, room.url, "Aiko", (aiko.player_id, aiko.token), locale, phone=True
        )
        try:
            pocket.open_table(feed.table)
            expect(pocket.page.locator("#seat-controls button").first).to_be_visible()
            assert pocket.page.evaluate(OVERFLOWING) == [], "cut or wider than the phone"
        finally:
            phone.close()
    finally:
        feed.close()
        context.close()
    assert aiko.problems == [], aiko.problems


# What of the page is wider than the screen, or a button or label whose words are cut.
OVERFLOWING = """() => {
  const found = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push("the page");
  for (const node of document.querySelectorAll("button, label, th, .marks, h1, h2")) {
    const r = node.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || getComputedStyle(node).visibility === "hidden") continue;
    if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflow !== "visible")
      found.push(node.textContent.trim());
    if (r.right > window.innerWidth + 1 || r.left < -1) found.push(node.textContent.trim());
  }
  return found;
}"""


@pytest.mark.parametrize("locale", ["ja-JP", "ru-RU"])
def test_the_lobby_and_the_fairness_page_speak_the_browsers_language(
    room: RoomServer, browser: Any, locale: str
) -> None:
    lang = locale[:2]
    _, token = room.guest("Sam")
    room.create_table(token, name=TABLE_NAMES[lang], seats=6, bots=2)
    room.create_table(token, name="2/4", structure="mixed", seats=4)
    guest = room.guest("Maya")
    context, maya = open_localised(browser, room.url, "Maya", guest, locale)
    try:
        maya.open_lobby()
        expect(maya.page.locator("#tables [data-table]")).to_have_count(2)
        expect(maya.page.locator("html")).to_have_attribute("lang", lang)
        names = {"Sam", "Maya"}
        english = english_words(visible_text(maya.page), names)
        assert english == [], "English left in the lobby:\n" + "\n".join(english)
        maya.page.locator("#new-table").click()
        expect(maya.page.locator("#create-dialog")).to_be_visible()
        english = english_words(visible_text(maya.page), names)
        assert english == [], "English left in the new table form:\n" + "\n".join(english)
        maya.page.goto(room.url + "/fairness")
        expect(maya.page.locator("html")).to_have_attribute("lang", lang)
        # the scheme's and the checker's names stay as they are written
        kept = {"JSON", "FAIRNESS", "md", "Python", "deal", "v1"}
        english = english_words(visible_text(maya.page), names | kept)
        assert english == [], "English left on the fairness page:\n" + "\n".join(english)
    finally:
        context.close()
    assert maya.problems == [], maya.problems


def test_the_language_menu_switches_and_is_remembered(room: RoomServer, browser: Any) -> None:
    context, eve = open_localised(browser, room.url, "Eve", None, "ja-JP")
    try:
        page = eve.page
        eve.open_lobby()
        title = page.locator("#tables-title")
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        expect(title).to_have_text("テーブル")
        menu = page.locator("select#language")
        expect(menu).to_have_value("ja")
        assert menu.locator("option").all_inner_texts() == ["English", "日本語", "Русский"]
        with page.expect_navigation():
            menu.select_option("ru")
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        expect(title).to_have_text("Столы")
        assert page.evaluate("localStorage.getItem('splitpot.lang')") == "ru"
        page.reload()
        expect(title).to_have_text("Столы")  # remembered over the browser's own ja-JP
        page.goto(room.url + "/fairness")
        expect(page.locator("h1")).to_have_text("Почему сдача честная")
        with page.expect_navigation():
            page.locator("select#language").select_option("en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("h1")).to_have_text("How the deal is fair")
    finally:
        context.close()
    assert eve.problems == [], eve.problems
