"""The table page's controls in a hand against a player on the wire: the dealer button in
the button's seat, the pot and the hand helper as the room has them, the question before
folding a free check, a pre-action that acts by itself on the turn, the keyboard's "c" to
check, the last hands with a download, the settings kept across a reload, and leaving
with the stack."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from feed import command, heads_up, showdown, table_state
from player import Player, legal
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer


def check_felt(room: RoomServer, ann: Player, table: str, cards: list[str]) -> None:
    """The pot total and the hand helper's words are the room's."""
    hand = table_state(room, table)["hand"]
    expect(ann.page.locator("#pot-total")).to_have_text(re.compile(rf"\b{hand['total']}\b"))
    pots = ann.page.locator("#pots .pot")
    expect(pots).to_have_count(len(hand["pots"]))
    for index, pot in enumerate(hand["pots"]):
        expect(pots.nth(index)).to_have_attribute("data-amount", str(pot["amount"]))
    query = {"variant": "o8", "hole": "".join(cards), "board": "".join(hand["board"])}
    with room.http() as http:
        words = http.get("/api/helper", params=query).json()["text"]
    expect(ann.page.locator("#hand-helper")).to_have_text(words)


def check_hands_panel(
    room: RoomServer, ann: Player, hand: str, ended: Frame, cards: list[str]
) -> None:
    """The last hands: the hand is listed with its pot; its PokerStars text downloads as
    the room writes it for Ann, her cards dealt to her."""
    ann.page.get_by_role("button", name="Last hands").click()
    hands = ann.page.locator("#hands-dialog")
    expect(hands).to_be_visible()
    pot = sum(award["amount"] for award in ended["awards"])
    pick = hands.locator(f'button[data-hand="{hand}"]')
    expect(pick).to_have_accessible_name(re.compile(rf"^Hand #1, pot {pot}\b"))
    pick.click()
    with ann.page.expect_download() as got:
        hands.get_by_role("button", name=re.compile(r"^Download PokerStars")).click()
    text = Path(got.value.path()).read_text()
    assert f"Dealt to Ann [{' '.join(cards)}]" in text
    with room.http(ann.token) as http:
        assert text == http.get(f"/api/hands/{hand}", params={"format": "pokerstars"}).text
    hands.get_by_role("button", name="Close", exact=True).click()
    expect(hands).to_be_hidden()


def test_the_table_pages_controls_in_a_hand(room: RoomServer, players: Any) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table, feed, bob = heads_up(room, ann.token, "Controls")
    feed.sit(1, 200)
    feed.sit(2, 200)
    ann.open_table(table)

    ann.page.get_by_role("button", name="Settings").click()
    settings = ann.page.locator("dialog#settings")
    settings.get_by_label("Keyboard shortcuts").check()
    settings.get_by_role("button", name="Done").click()
    expect(settings).to_be_hidden()

    hand = feed.deal(1)
    button = feed.event("hand_started", hand=hand)["button"]
    expect(ann.seat(button).locator(".dealer-button")).to_be_visible()
    expect(ann.page.locator(".dealer-button")).to_have_count(1)
    cards = feed.event("dealt", by=1, seat=1, hand=hand)["cards"]
    # Bob acts first in the round (so Ann still has to act) on his first turn when he is
    # the button (preflop), else on his second (the flop)
    pre_turn = 1 if button == 2 else 2
    seen: dict[str, Any] = {"bob": 0, "confirmed": False, "pre": None, "pre-acted": False}
    seen["keyed"] = None

    def bob_acts(turn: Frame) -> None:
        seen["bob"] += 1
        if seen["bob"] == pre_turn:
            box = ann.page.locator('#pre-actions input[data-pre="check"]')
            expect(box).to_be_visible()
            box.check()
            seen["pre"] = len(feed.frames)
        command(bob, table, showdown)(turn)

    def ann_acts(turn: Frame) -> None:
        if seen["pre"] is not None:  # the page checks by itself
            acted = feed.event("acted", seen["pre"], hand=hand, seat=1)
            assert acted["action"] == "check", acted
            seen["pre"], seen["pre-acted"] = None, True
            return
        check_felt(room, ann, table, cards)
        if "check" in legal(turn) and not seen["confirmed"]:
            seen["confirmed"] = True
            ann.click("Fold")
            dialog = ann.page.locator("dialog#confirm-fold")
            expect(dialog).to_be_visible()
            dialog.get_by_role("button", name="Cancel").click()
            expect(dialog).to_be_hidden()
        elif "check" in legal(turn) and not seen["keyed"]:  # the shortcut for check/call
            seen["keyed"] = len(feed.frames)
            expect(ann.button("Check")).to_be_visible()
            ann.page.keyboard.press("c")
            assert feed.event("acted", seen["keyed"], hand=hand, seat=1)["action"] == "check"
            return
        ann.click("Check" if "check" in legal(turn) else "Call")

    ended = feed.play(hand, {1: ann_acts, 2: bob_acts})
    assert seen["confirmed"], "Ann had a free check"
    assert seen["pre-acted"], "Ann's page checked by itself"
    assert seen["keyed"], "Ann checked with the keyboard"
    assert all(event["action"] != "fold" for event in feed.events("acted", hand))

    check_hands_panel(room, ann, hand, ended, cards)

    ann.page.get_by_role("button", name="Settings").click()
    settings.get_by_label("Four-colour deck").uncheck()
    settings.get_by_role("button", name="Done").click()
    expect(ann.page.locator("body")).to_have_class(re.compile(r"\btwo-colour\b"))
    ann.page.reload()
    ann.wait_until_drawn()
    expect(ann.page.locator("body")).to_have_class(re.compile(r"\btwo-colour\b"))

    stack = next(entry["stack"] for entry in ended["stacks"] if entry["seat"] == 1)
    ann.page.locator("#seat-controls").get_by_role("button", name="Leave").click()
    left = feed.event("player_left", seat=1)
    assert left["stack"] == stack
    expect(ann.page.get_by_role("button", name="Sit in seat 1", exact=True)).to_be_visible()
    feed.close()


def test_a_private_table_without_its_invite_and_an_unknown_table_say_so(
    room: RoomServer, players: Any
) -> None:
    _, host = room.guest("Holly")
    table = room.create_table(host, name="Secret", private=True)["table"]["id"]
    eve = players("Eve")
    eve.page.goto(f"{room.url}/tables/{table}")
    expect(eve.page.get_by_text(re.compile(r"private.*invite", re.I)).first).to_be_visible()
    expect(eve.page.locator(".seat.me")).to_have_count(0)
    eve.page.goto(f"{room.url}/tables/no-such-table")
    expect(eve.page.get_by_text(re.compile(r"no table", re.I)).first).to_be_visible()
