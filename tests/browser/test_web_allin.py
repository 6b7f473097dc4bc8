"""An all-in before the flop on the page: Ann clicks All in and Bob calls on the wire; the
hands are turned face up on Ann's felt, each seat shows its equity as the room told it,
street by street, and the showdown ends with the room's stacks."""

from __future__ import annotations

import re
from typing import Any

from feed import command, heads_up
from player import legal
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer


def percent(value: float) -> str:
    return f"{round(value * 100)}%"


def test_an_all_in_run_out_shows_every_hand_and_its_equity(room: RoomServer, players: Any) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(room, ann.token, "Shove", structure="no-limit")
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    hand = feed.deal(1)

    def ann_shoves(turn: Frame) -> None:
        expect(ann.button("All in")).to_be_visible()
        ann.click("All in")

    def bob_calls(turn: Frame) -> Frame:
        choices = legal(turn)
        return {"action": "allin" if "allin" in choices and "call" not in choices else "call"}

    ended = feed.play(
        hand,
        {1: ann_shoves, 2: command(bob, table_id, lambda turn: bob_calls(turn))},
    )
    face_up = feed.events("face_up", hand)
    assert {event["seat"] for event in face_up} == {1, 2}, "both all in before the river"
    bob_cards = next(event["cards"] for event in face_up if event["seat"] == 2)
    for card in bob_cards:  # Bob's hand, face up on Ann's felt
        expect(ann.seat(2).locator(f'.card[data-card="{card}"]')).to_be_visible()
    told = feed.events("equity", hand)
    assert [event["street"] for event in told][-1] == "river"
    # The last figures stay on the felt until the next hand: each seat's share of the pot.
    for entry in told[-1]["seats"]:
        equity = ann.seat(entry["seat"]).locator(".equity")
        expect(equity).to_contain_text(percent(entry["equity"]))
    for entry in ended["stacks"]:
        expect(ann.stack(entry["seat"])).to_have_text(re.compile(rf"\b{entry['stack']}\b"))
    feed.close()
