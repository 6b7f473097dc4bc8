"""Keyboard, screen reader and high contrast on the table page (issue 20): the player's turn
brings the focus to the action bar (Enter answers it) but never takes it from the chat box
while the player types; with forced colours (Windows' high contrast, emulated) the cards,
the buttons, the pressed bet size, the seat on the clock and the dealer button are still
told apart by their borders and outlines."""

from __future__ import annotations

from typing import Any

from feed import command, heads_up
from player import Player, legal, passive
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

# Where the focus is: the element's id, or the text of a button.
FOCUSED = """() => {
  const node = document.activeElement;
  return {id: node.id, text: node.textContent.trim(), inBar: Boolean(node.closest("#actions"))};
}"""


def calls(turn: Frame) -> Frame:
    choices = legal(turn)
    return {"action": next(a for a in ("check", "call", "show") if a in choices)}


def test_the_turn_brings_the_focus_to_the_bar_but_not_from_the_chat(
    room: RoomServer, players: Any
) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(room, ann.token, "Keys")
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    hand = feed.deal(1)
    chat = ann.page.locator("#chat-input")
    steps: list[str] = []  # "entered" (the first turn), "typing" (the chat), "kept"

    def ann_acts(turn: Frame) -> None:
        if not steps:  # the focus is on Check (or Call): Enter answers the turn
            choice = "check" if "check" in legal(turn) else "call"
            ann.page.wait_for_function("() => document.activeElement.closest('#actions')")
            focused = ann.page.evaluate(FOCUSED)
            assert focused["text"].lower().startswith(choice), focused
            ann.page.keyboard.press("Enter")
            steps.append("entered")
            return
        if steps[-1] == "typing":  # the turn came while Ann typed: the focus stays there
            expect(ann.page.locator("#actions")).to_be_visible()
            expect(chat).to_be_focused()
            ann.page.keyboard.type("flop")
            expect(chat).to_have_value("nice flop")
            steps.append("kept")
        passive(ann, turn)

    def bob_acts(turn: Frame) -> None:
        if steps == ["entered"]:  # Ann starts a chat line while Bob thinks
            chat.click()
            ann.page.keyboard.type("nice ")
            steps.append("typing")
        command(bob, table_id, calls)(turn)

    feed.play(hand, {1: ann_acts, 2: bob_acts})
    assert steps == ["entered", "typing", "kept"], steps
    acted = [e for e in feed.events("acted", hand) if e["seat"] == 1]
    assert acted[0]["action"] in ("check", "call"), "Enter answered the first turn"
    feed.close()


# The styles that tell things apart without colour, as the browser draws them.
LOOKS = """() => {
  const look = (node) => {
    const s = getComputedStyle(node);
    return {border: parseFloat(s.borderTopWidth), borderStyle: s.borderTopStyle,
            borderColor: s.borderTopColor, background: s.backgroundColor,
            image: s.backgroundImage, outline: s.outlineStyle, color: s.color};
  };
  const visible = (node) => node.getClientRects().length > 0;
  const all = (selector) => [...document.querySelectorAll(selector)].filter(visible).map(look);
  return {
    buttons: all("#actions button, .header-buttons button, #seat-controls button"),
    faceUp: all(".card:not(.back)"),
    backs: all(".card.back"),
    pressed: all(".presets button[aria-pressed='true']"),
    unpressed: all(".presets button[aria-pressed='false']"),
    onClock: all(".seat.to-act .plate"),
    offClock: all(".seat:not(.to-act):not(.empty) .plate"),
    dealer: all(".dealer-button"),
  };
}"""


def told_apart(player: Player) -> list[str]:
    """What forced colours leave indistinguishable on the page now."""
    looks: dict[str, list[dict[str, Any]]] = player.page.evaluate(LOOKS)
    found: list[str] = []
    for kind in ("buttons", "faceUp", "backs", "dealer"):
        assert looks[kind], f"no {kind} on the page"
        for look in looks[kind]:
            if look["border"] < 1 or look["borderStyle"] == "none":
                found.append(f"a {kind} without a border: {look}")
            elif look["borderColor"] == look["background"]:
                found.append(f"a {kind} whose border is its background: {look}")
    face, back = looks["faceUp"][0], looks["backs"][0]
    if (face["background"], face["image"]) == (back["background"], back["image"]):
        found.append(f"a face-down card looks like a face-up one: {back}")
    for kind, other in (("pressed", "unpressed"), ("onClock", "offClock")):
        assert looks[kind] and looks[other], f"no {kind} or {other} on the page"
        if looks[kind][0] == looks[other][0] or looks[kind][0]["outline"] == "none":
            found.append(f"{kind} looks like {other}: {looks[kind][0]}")
    return found


def test_forced_colours_keep_cards_and_buttons_apart(room: RoomServer, players: Any) -> None:
    ann = players("Ann", forced_colors=True)
    assert ann.token is not None
    table_id, feed, bob = heads_up(room, ann.token, "Contrast")
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    assert ann.page.evaluate("matchMedia('(forced-colors: active)').matches")
    hand = feed.deal(1)
    found: list[str] = []

    def ann_looks(turn: Frame) -> None:
        if "bet" in legal(turn) and not found:  # after the flop: the board, a bet to size
            expect(ann.page.locator("#board .card")).not_to_have_count(0)
            expect(ann.page.locator(".presets button[aria-pressed='true']").first).to_be_visible()
            found.extend(told_apart(ann) or ["ok"])
        passive(ann, turn)

    feed.play(hand, {1: ann_looks, 2: command(bob, table_id, calls)})
    assert found == ["ok"], "\n".join(found)
    feed.close()
