"""A watcher's page: every WebSocket frame it receives (read with Playwright's websocket
events) holds no hole card of a player before that player's hand is shown, in hands won
without a showdown, shown down, with a side pot, and run out with everyone all in
(``face_up``); the page marks the seat to act, draws the side pot as the room has it, and
the cards once shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from feed import Act, Feed, command, showdown, table_state, truth
from player import Player
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer
from sight import hidden_cards_received

Choose = Callable[[Frame], Frame]


def both(first: Act, then: Act) -> Act:
    def act(turn: Frame) -> None:
        first(turn)
        then(turn)

    return act


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


def side_pot() -> Choose:
    """Seat 1 (the shortest stack) goes all in, the others call; on the flop seat 2 bets
    and seat 3 calls: a side pot. Then checked down."""
    bets: list[Frame] = []

    def choose(turn: Frame) -> Frame:
        legal = names(turn)
        if turn["seat"] == 1 and "allin" in legal:
            return {"action": "allin"}
        if turn["seat"] == 2 and "bet" in legal and not bets:
            bets.append(turn)
            return {"action": "bet", "amount": legal["bet"]["min"]}
        return showdown(turn)

    return choose


HANDS: list[Callable[[], Choose]] = [raise_then_fold, lambda: showdown, side_pot, lambda: all_in]


def to_act_marked(watcher: Player, unmarked: list[str]) -> Act:
    """An ``Act`` wrapper's check: the watcher's page marks the seat whose turn it is (and
    no other) with the clock. The first turn it does not is kept in ``unmarked`` (and no
    later one is checked), so that the rest of the test still runs."""

    def check(turn: Frame) -> None:
        if unmarked:
            return
        try:
            expect(watcher.seat(turn["seat"])).to_have_class(re.compile(r"\bto-act\b"))
            expect(watcher.page.locator(".seat.to-act")).to_have_count(1)
            expect(watcher.seat(turn["seat"]).locator(".countdown")).to_be_visible()
        except AssertionError as error:
            unmarked.append(f"seat {turn['seat']} to act in {turn['hand']}: {error}")

    return check


def pots_drawn(watcher: Player, room: RoomServer, table: str, seen: list[Frame]) -> Act:
    """An ``Act`` wrapper's check: once the room has two pots, the page draws both."""

    def check(turn: Frame) -> None:
        hand = table_state(room, table)["hand"]
        if seen or len(hand["pots"]) < 2:
            return
        seen.append(hand)
        pots = watcher.page.locator("#pots .pot")
        expect(pots).to_have_count(len(hand["pots"]))
        for index, pot in enumerate(hand["pots"]):
            expect(pots.nth(index)).to_have_attribute("data-amount", str(pot["amount"]))
        expect(watcher.page.locator("#pot-total")).to_have_text(re.compile(rf"\b{hand['total']}\b"))

    return check


def test_a_watchers_page_receives_no_hole_card_before_it_is_shown(
    room: RoomServer, players: Any
) -> None:
    tokens = {seat: room.guest(name)[1] for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"))}
    settings = {"name": "Glass walls", "seats": 3, "structure": "no-limit"}
    table = room.create_table(tokens[1], **settings)["table"]["id"]
    feed = Feed(room, table)
    for seat, token in tokens.items():
        feed.add(seat, token)
    feed.host(1, "pause")
    for seat in tokens:
        feed.sit(seat, 20 + 60 * seat)  # 80, 140, 200: seat 1 the shortest

    watcher = players("Watcher", signed_in=False)
    watcher.page.goto(f"{room.url}/tables/{table}")
    watcher.page.locator("dialog#signin").get_by_role("button", name="Just watch").click()
    watcher.wait_until_drawn()

    truths = {}
    side_pots: list[Frame] = []
    unmarked: list[str] = []
    look, marked = pots_drawn(watcher, room, table, side_pots), to_act_marked(watcher, unmarked)
    for strategy in HANDS:
        hand, choose = feed.deal(1), strategy()
        acts = {seat: command(c, table, choose) for seat, c in feed.clients.items()}
        feed.play(hand, {seat: both(marked, both(look, act)) for seat, act in acts.items()})
        truths[hand] = truth(room, hand)
        expect(watcher.page.locator("#dealer-log")).to_contain_text(f"Hand #{len(truths)}")
    assert side_pots, "a hand had a side pot"
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
    assert not unmarked, unmarked[0]
