"""The seat's controls of issue 20: one "Away" button (the room checks or folds for a
player away at once, every watcher sees who is away) and one "I'm back"; Leave asks once
when it folds a hand; the setting to show losing hands at the showdown, kept by the room."""

from __future__ import annotations

import re
import time
from typing import Any

from feed import command, heads_up
from player import legal
from playwright.sync_api import expect
from room_helpers import Client, Frame, RoomServer, seated


def calls(turn: Frame) -> Frame:
    """Check when free, else call: Bob never folds."""
    choices = legal(turn)
    return {"action": next(a for a in ("check", "call", "show") if a in choices)}


def test_away_and_back_in_one_click_seen_by_every_watcher(room: RoomServer, players: Any) -> None:
    """Ann clicks Away in a hand: the room checks or folds for her at once (no clock), her
    page and a watcher's say she is away; after the hand "I'm back" brings her back."""
    ann, cy = players("Ann"), players("Cy")
    assert ann.token is not None
    table_id, feed, bob = heads_up(room, ann.token, "Away")
    feed.sit(1, 100)
    feed.sit(2, 100)
    for page in (ann, cy):
        page.open_table(table_id)
    hand = feed.deal(1)
    ann.page.get_by_role("button", name="Away", exact=True).click()
    back = ann.page.get_by_role("button", name="I'm back")
    expect(back).to_be_visible()
    for page in (ann, cy):
        expect(page.seat(1).locator(".marks")).to_have_text("Away")
    expect(ann.page.locator("#watching")).to_contain_text("You are away")
    asked: list[Frame] = []
    feed.play(hand, {1: asked.append, 2: command(bob, table_id, calls)}, timeout=10)
    _, out = feed.find(lambda seat, f: f.get("event", {}).get("kind") == "sat_out")
    assert (out["event"]["seat"], out["event"]["timed_out"]) == (1, False)
    assert not [t for t in asked if t["seq"] >= out["seq"]], "Ann is not asked once away"
    acted = [
        f["event"]
        for _, f in feed.frames[feed.find(lambda s, f: f is out)[0] :]
        if f.get("event", {}).get("kind") == "acted" and f["event"]["seat"] == 1
    ]
    assert {e["action"] for e in acted} <= {"check", "fold"}
    expect(cy.seat(1).locator(".marks")).to_have_text("Away")
    back.click()
    expect(ann.page.get_by_role("button", name="Away", exact=True)).to_be_visible()
    for page in (ann, cy):
        expect(page.seat(1).locator(".marks")).not_to_contain_text("Away")
    feed.close()


def test_leave_asks_once_when_it_folds_a_hand(room: RoomServer, players: Any) -> None:
    """In a hand, Leave asks first (what the fold loses); Stay keeps the seat, the second
    answer leaves: the hand is folded at Ann's turn and she goes when it ends."""
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(room, ann.token, "Leave")
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    hand = feed.deal(1)
    expect(ann.seat(1).locator(".bet")).to_have_text(re.compile(r"^[12]$"))  # her blind, drawn
    dialog = ann.page.locator("dialog#confirm-leave")
    leave = ann.page.locator("#seat-controls").get_by_role("button", name="Leave", exact=True)
    leave.click()
    expect(dialog).to_be_visible()
    lost = re.compile(r"^Leaving now folds your hand: the [12] chips? you have put in (is|are)")
    expect(dialog.locator(".confirm-leave-text")).to_have_text(lost)
    dialog.get_by_role("button", name="Stay").click()
    expect(dialog).to_be_hidden()
    assert not [m for m in ann.sent if m["type"] == "leave"], "Stay keeps the seat"
    leave.click()
    dialog.get_by_role("button", name="Leave and fold").click()
    expect(dialog).to_be_hidden()
    feed.play(hand, {1: lambda turn: None, 2: command(bob, table_id, calls)}, timeout=10)
    assert [e["action"] for e in feed.events("acted", hand) if e["seat"] == 1][-1] == "fold"
    feed.event("player_left", seat=1)
    expect(ann.seat(1).get_by_role("button", name="Sit in seat 1")).to_be_visible()
    assert len([m for m in ann.sent if m["type"] == "leave"]) == 1
    feed.close()


def test_showing_losing_hands_is_a_setting_the_room_keeps(room: RoomServer, players: Any) -> None:
    """The room mucks a losing hand by default; Ann ticks "Show my losing hands" in the
    settings and the room keeps it for her seat (another device's page shows it too)."""
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, _ = heads_up(room, ann.token, "Show")
    feed.sit(1, 100)
    ann.open_table(table_id)
    me = Client(room, ann.token)
    assert seated(me.state(table_id), 1)["muck_losing"] is True
    expect(ann.page.locator("dialog#settings input[name=show_losing]")).not_to_be_checked()
    ann.show_losing_hands()
    deadline = time.monotonic() + 10
    while seated(me.state(table_id), 1)["muck_losing"] is not False:
        assert time.monotonic() < deadline, "the room keeps Ann's choice"
        time.sleep(0.1)
    other = players("Ann", same=ann)  # a device whose page has no setting of its own
    other.open_table(table_id)
    expect(other.page.locator("dialog#settings input[name=show_losing]")).to_be_checked()
    sent = [m for m in ann.sent if m["type"] == "preferences"]
    assert [m["muck_losing"] for m in sent] == [False], "the page told the room once"
    assert not [m for m in other.sent if m["type"] == "preferences"], "the room's choice shown"
    me.close()
    feed.close()
