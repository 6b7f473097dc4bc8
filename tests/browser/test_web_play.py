"""Two players create a table, join it and play hands to the showdown entirely through the
pages (clicks and typing), in each betting structure: the lobby's sign-in and "New table"
form, the seat's buy-in, the action bar, the host's pause and resume (one hand at a time).
Ann plays on a desktop, Bob on a phone; both chose to show their losing hands. The pages'
stacks, winners and shown cards are checked against the room's events and hand documents,
and neither page received the other's hole cards before they were shown."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from feed import Act, Feed, truth
from player import Player, legal, passive
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer
from sight import hidden_cards_received

HANDS = 2  # each player on the button once
Strategy = Callable[[Player, Frame], None]


class PotSized:
    """Pot limit: the hand's first raise and its first bet after the flop with the Pot
    button, whose amount must be the pot-limit maximum the room allows; else passive."""

    def __init__(self) -> None:
        self.bets: list[int] = []

    def __call__(self, player: Player, turn: Frame) -> None:
        choices = legal(turn)
        wager = choices.get("raise") or choices.get("bet")
        first_raise = not self.bets and "raise" in choices
        first_bet = len(self.bets) <= 1 and "bet" in choices
        if wager is None or not (first_raise or first_bet):
            return passive(player, turn)
        total = player.bet(turn, preset="pot")
        assert total == wager["max"], f"Pot bets {total}; the pot-limit maximum is {wager}"
        self.bets.append(total)
        return None


class RaiseToCap:
    """Fixed limit: raise on every turn until the cap (a bet and three raises), where the
    raise button must be gone; then passive."""

    def __init__(self) -> None:
        self.raises: list[int] = []
        self.capped = False

    def __call__(self, player: Player, turn: Frame) -> None:
        choices = legal(turn)
        if self.capped:
            return passive(player, turn)
        if "raise" in choices:
            wager = choices["raise"]
            assert wager["min"] == wager["max"], wager
            expect(player.button("Raise to")).to_have_accessible_name(
                re.compile(rf"^Raise to {wager['min']}\b")
            )
            player.click("Raise to")
            self.raises.append(wager["min"])
            return None
        assert "call" in choices and self.raises, turn
        self.capped = True
        expect(player.button("Call")).to_be_visible()
        expect(player.button("Raise to")).to_have_count(0)
        expect(player.button("Bet")).to_have_count(0)
        return passive(player, turn)


class TypeOnce:
    """No limit: the first bet or raise of the hand typed into the amount box (twice the
    least, within the stack); then passive."""

    def __init__(self) -> None:
        self.bets: list[int] = []

    def __call__(self, player: Player, turn: Frame) -> None:
        choices = legal(turn)
        wager = choices.get("raise") or choices.get("bet")
        if self.bets or wager is None:
            return passive(player, turn)
        amount = min(2 * wager["min"], wager["max"])
        self.bets.append(player.bet(turn, amount=amount))
        return None


def acting(pages: dict[int, Player], strategy: Strategy) -> dict[int, Act]:
    """Each seat's page answers its turns with the strategy."""
    return {seat: partial(strategy, page) for seat, page in pages.items()}


STRATEGIES: dict[str, Any] = {"pot-limit": PotSized, "limit": RaiseToCap, "no-limit": TypeOnce}


def award_words(award: Frame) -> str:
    """How an award's label starts: its half, or for a whole pot the halves its hands won
    ("HIGH + LOW": one hand took both), "WINS" when no hand was shown for it."""
    if award["share"] != "whole":
        return str(award["share"]).upper()
    halves = [name for name in ("high", "low") if award[name] is not None]
    return " + ".join(half.upper() for half in halves) or "WINS"


def check_hand(room: RoomServer, pages: dict[int, Player], feed: Feed, ended: Frame) -> None:
    """What each page shows once the hand is over: the stacks of the hand's end, the
    winners and their awards ("HIGH 12"), the cards shown, the cards of the winning hands
    (and no other) marked, the dealer's words for each award; and the hand document (HTTP)
    agrees."""
    hand = ended["hand"]
    winners = {award["seat"] for award in ended["awards"] if award["amount"] > 0}
    shown = feed.events("shown", hand)
    assert len(shown) == 2, f"both hands go to the showdown: {shown}"
    awarded = [event for event in feed.events("pot_awarded", hand) if event["text"]]
    winning = {
        card
        for award in ended["awards"]
        if award["amount"] > 0
        for half in (award["high"], award["low"])
        if half is not None
        for card in half["cards"]
    }
    for player in pages.values():
        for entry in ended["stacks"]:
            expect(player.stack(entry["seat"])).to_have_text(re.compile(rf"\b{entry['stack']}\b"))
        for seat in pages:
            expect(player.seat(seat)).to_have_class(
                re.compile(r"\bwinner\b") if seat in winners else re.compile(r"^(?!.*\bwinner\b)")
            )
        for award in ended["awards"]:
            if award["amount"] > 0:
                label = re.compile(rf"^{re.escape(award_words(award))} {award['amount']}\b")
                expect(
                    player.seat(award["seat"]).locator(".award", has_text=label).first
                ).to_be_visible()
        for event in shown:
            for card in event["cards"]:
                expect(
                    player.seat(event["seat"]).locator(f'.card[data-card="{card}"]')
                ).to_be_visible()
        cards = player.page.locator("#felt .card.winning, #my-cards .card.winning")
        expect(cards.first).to_be_visible()
        assert {card.get_attribute("data-card") for card in cards.all()} == winning
        for event in awarded:
            for line in event["text"].split("\n"):
                expect(player.page.locator("#dealer-log")).to_contain_text(line)
    token = next(iter(pages.values())).identity()["token"]
    with room.http(token) as http:
        answer = http.get(f"/api/hands/{hand}")
    assert answer.status_code == 200, answer.text
    document = answer.json()
    seats = [p["seat"] for p in document["players"]]
    assert dict(zip(seats, document["result"]["stacks"], strict=True)) == {
        entry["seat"]: entry["stack"] for entry in ended["stacks"]
    }
    assert "??" not in "".join(document["holes"]), "both hands were shown"


def pause(host: Player, feed: Feed) -> None:
    """The host pauses the game with the page's host controls."""
    start = len(feed.frames)
    host.page.locator("#host-controls").get_by_role("button", name="Pause", exact=True).click()
    feed.event("host", start, action="pause")


def deal(host: Player, feed: Feed) -> str:
    """The host resumes the game on the page, and pauses it again once a hand is dealt:
    that hand is played out, and the next waits. The hand's id."""
    start = len(feed.frames)
    host.page.locator("#host-controls").get_by_role("button", name="Resume", exact=True).click()
    hand: str = feed.event("hand_started", start)["hand"]
    pause(host, feed)
    return hand


@pytest.mark.parametrize("structure", ["limit", "pot-limit", "no-limit", "mixed"])
def test_two_players_create_join_and_play_to_the_showdown(
    room: RoomServer, players: Any, structure: str
) -> None:
    ann = players("Ann", signed_in=False)
    bob = players("Bob", signed_in=False, size="phone")  # each hand on both screens
    ann.open_lobby()
    ann.sign_in_as_guest()
    table = ann.create_table(name=f"Ann's {structure}", structure=structure, seats=2)
    feed = Feed(room, table)
    feed.add(1, ann.identity()["token"])
    pause(ann, feed)  # hands are dealt one at a time below
    with room.http() as http:
        summary = http.get(f"/api/tables/{table}").json()
    ann.show_losing_hands()  # every hand is shown down: the room would muck the loser's
    ann.sit(1, summary["max_buy_in"])

    bob.open_lobby()
    bob.sign_in_as_guest()
    bob.open_from_lobby(table)
    bob.show_losing_hands()
    bob.sit(2, summary["min_buy_in"])
    feed.add(2, bob.identity()["token"])

    expect(ann.page.locator("#host-controls")).to_be_visible()
    expect(bob.page.locator("#host-controls")).to_be_hidden()
    pages = {1: ann, 2: bob}
    truths = {}
    for _ in range(HANDS):
        hand = deal(ann, feed)
        played = feed.event("hand_started", hand=hand)["structure"]  # a mixed game's round
        assert played == structure or structure == "mixed"
        strategy = STRATEGIES[played]()
        ended = feed.play(hand, acting(pages, strategy))
        check_hand(room, pages, feed, ended)
        truths[hand] = truth(room, hand)
        if played == "limit":
            assert len(strategy.raises) == 3 and strategy.capped, strategy.raises
        if played == "pot-limit":
            assert len(strategy.bets) == 2, f"a pot-sized raise and bet: {strategy.bets}"
    feed.close()

    for seat, page in pages.items():
        assert hidden_cards_received(page.raw, seat, truths) == []
        # not a blind check: the page's own cards would count, were they another's
        assert hidden_cards_received(page.raw, 3 - seat, truths) != []
