"""A watcher's page: every WebSocket frame it receives (read with Playwright's websocket
events) holds no hole card of a player before that player's hand is shown, in hands won
without a showdown, shown down, and run out with a player all in (``face_up``); the page
shows the cards once they are shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from feed import Feed, command, showdown, truth
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer
from sight import hidden_cards_received

Choose = Callable[[Frame], Frame]


def names(turn: Frame) -> dict[str, Frame]:
    return {entry["action"]: entry for entry in turn["legal"]}


def raise_then_fold() -> Choose:
    """The first to act raises; everyone else folds to it: no showdown."""
    raised: list[Frame] = []

    def choose(turn: Frame) -> Frame:
        legal = names(turn)
        if not raised and "raise" in legal:
            raised.append(turn)
            return {"action": "raise", "amount": legal["raise"]["min"]}
        return {"action": "check" if "check" in legal else "fold"}

    return choose


def all_in(turn: Frame) -> Frame:
    """Raise the most the structure allows until all in is allowed, then go all in (or
    call it): the hands are turned face up."""
    legal = names(turn)
    if "allin" in legal:
        return {"action": "allin"}
    wager = legal.get("raise") or legal.get("bet")
    if wager is not None:
        return {"action": "raise" if "raise" in legal else "bet", "amount": wager["max"]}
    return showdown(turn)


HANDS: list[Callable[[], Choose]] = [raise_then_fold, lambda: showdown, lambda: all_in]


def test_a_watchers_page_receives_no_hole_card_before_it_is_shown(
    room: RoomServer, players: Any
) -> None:
    tokens = {seat: room.guest(name)[1] for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"))}
    table = room.create_table(tokens[1], name="Glass walls", seats=3)["table"]["id"]
    feed = Feed(room, table)
    for seat, token in tokens.items():
        feed.add(seat, token)
    feed.host(1, "pause")
    for seat in tokens:
        feed.sit(seat, 80 + 20 * seat)

    watcher = players("Watcher", signed_in=False)
    watcher.page.goto(f"{room.url}/tables/{table}")
    watcher.page.locator("dialog#signin").get_by_role("button", name="Just watch").click()
    watcher.wait_until_drawn()

    truths = {}
    for strategy in HANDS:
        hand, choose = feed.deal(1), strategy()
        feed.play(hand, {seat: command(c, table, choose) for seat, c in feed.clients.items()})
        truths[hand] = truth(room, hand)
        expect(watcher.page.locator("#dealer-log")).to_contain_text(f"Hand #{len(truths)}")
    # the watcher's page shows the hands turned face up in the last hand
    face_up = feed.events("face_up", hand)
    assert face_up, "the all-in hand turns the hands face up"
    for event in face_up:
        for card in event["cards"]:
            expect(
                watcher.seat(event["seat"]).locator(f'.card[data-card="{card}"]')
            ).to_be_visible()
    feed.close()

    assert sum(f.get("type") == "event" for f in watcher.received) > 20
    assert hidden_cards_received(watcher.raw, None, truths) == []
