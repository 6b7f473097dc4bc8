"""The home game's options on the page (issue 23, RULES.md 7), at tables made over HTTP with
them: the options named in the lobby and the table's header; the vote to run it twice
answered by a click, both runs drawn and labelled, every share named ("run 2, low half of
the main pot"), on a phone's width too; the rabbit hunt's cards drawn as never dealt; the
host's bomb pot called by a click, its bombs posted, its two boards labelled and shared;
the player's straddle choice and the host's options form, as the room answers them."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from typing import Any

from feed import Act, Feed, command, heads_up, showdown
from player import Player, legal, passive
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

PHONE = {"width": 375, "height": 812}


def play_hand(feed: Feed, hand: str, acts: dict[int, Act], vote: Any = None) -> Frame:
    """Answer each turn of ``hand`` with the seat's ``Act``, and the question to run it
    twice (once, when the room asks it) with ``vote(event)``, until the hand ends: its
    ``hand_ended``, once every player followed has it."""
    answered: set[tuple[int, int]] = set()
    asked = False
    deadline = time.monotonic() + 60
    while True:
        seat, frame = feed.next(deadline - time.monotonic())
        assert frame["type"] != "error", frame
        if frame["type"] == "turn" and frame["hand"] == hand:
            if (seat, frame["seq"]) not in answered:
                answered.add((seat, frame["seq"]))
                acts[seat](frame)
        elif frame["type"] == "event" and frame["event"]["hand"] == hand:
            event = frame["event"]
            if event["kind"] == "run_it" and not asked:
                assert vote is not None, f"asked to run it twice: {event}"
                asked = True
                vote(event)
            if event["kind"] == "hand_ended":
                for follower in feed.clients:  # every follower has it
                    feed.find(lambda s, f, w=follower, e=event: s == w and f.get("event") == e)
                return event


def boards_of(feed: Feed, hand: str) -> dict[int, list[str]]:
    """Each board's cards as the room last said them (board_number -> cards)."""
    boards: dict[int, list[str]] = {}
    for event in feed.events("board", hand):
        boards[event.get("board_number", 1)] = event["board"]
    return boards


def shows_boards(page: Player, boards: dict[int, list[str]], name: str) -> None:
    """Two rows on the felt, "Run 1" / "Board 1" ..., each with its board's cards in order."""
    rows = page.page.locator("#board .board-row")
    expect(rows).to_have_count(len(boards))
    for number, cards in boards.items():
        row = page.page.locator(f'#board .board-row[data-board="{number}"]')
        expect(row.locator(".board-name")).to_have_text(f"{name} {number}")
        expect(row.locator(".card:not(.rabbit)")).to_have_count(len(cards))
        for index, card in enumerate(cards):
            expect(row.locator(".card").nth(index)).to_have_attribute("data-card", card)


def shows_shares(page: Player, feed: Feed, hand: str, word: str) -> None:
    """Every share paid, in the list under the felt, with its board or run and its part
    of the pot; and on the winner's seat."""
    awards = [event for event in feed.events("pot_awarded", hand) if event["amount"] > 0]
    assert awards
    items = page.page.locator("#shares li")
    expect(items).to_have_count(len(awards))
    names = {1: "Ann", 2: "Bob"}
    for index, award in enumerate(awards):
        if award["high"] is None and award["low"] is None:
            where = "the main pot" if award["pot"] == 0 else f"side pot {award['pot']}"
        else:
            part = {"high": "high half of", "low": "low half of"}.get(
                award["share"], "all of its part of"
            )
            pot = "the main pot" if award["pot"] == 0 else f"side pot {award['pot']}"
            where = f"{word} {award['board_number']}, {part} {pot}"
        expect(items.nth(index)).to_have_text(
            f"{names[award['seat']]} wins {award['amount']}: {where}"
        )
        chip = page.seat(award["seat"]).locator(".award", has_text=str(award["amount"]))
        expect(chip.first).to_be_visible()


def fits_a_phone(page: Player) -> None:
    """At 375 px wide nothing runs off the side: the page, the boards, the shares."""
    page.page.set_viewport_size(PHONE)
    expect(page.page.locator("#felt")).to_have_class(re.compile(r"\bportrait\b"))
    width = page.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
    for selector in ("#board .board-row", "#shares", "#table-options"):
        for box in page.page.locator(selector).all():
            if box.is_visible():
                edge = box.evaluate("node => node.getBoundingClientRect().right")
                assert edge <= PHONE["width"] + 0.5, f"{selector} runs off a phone: {edge}"


def shoves(player: Player) -> Callable[[Frame], None]:
    """A page's player who goes all in when it is their turn."""

    def shove(turn: Frame) -> None:
        player.click("All in")

    return shove


def calls(turn: Frame) -> Frame:
    """Call the all-in (or, short, go all in)."""
    return {"action": "call" if "call" in legal(turn) else "allin"}


def test_a_board_run_twice_after_a_vote(room: RoomServer, players: Any) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(
        room, ann.token, "Twice", structure="no-limit", run_it_twice=True, ante=1
    )
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    header = ann.page.locator("#table-options")
    expect(header).to_contain_text("Run it twice")
    expect(header).to_contain_text("Ante 1")
    expect(ann.page.locator("#table-info")).to_contain_text("Run it twice")
    hand = feed.deal(1)

    def both_say_twice(event: Frame) -> None:
        assert sorted(event["seats"]) == [1, 2]
        question = ann.page.locator("#run-it")
        expect(question).to_be_visible()
        expect(question.locator(".run-it-clock")).to_have_text(re.compile(r"^\d+ s$"))
        expect(ann.page.locator("#run-it-status")).to_contain_text("Run it twice?")
        question.get_by_role("button", name="Twice").click()
        expect(question).to_be_hidden()
        bob.send({"type": "run_it", "table": table_id, "hand": hand, "yes": True})

    ended = play_hand(
        feed,
        hand,
        {1: shoves(ann), 2: command(bob, table_id, calls)},
        vote=both_say_twice,
    )
    sent = [frame for frame in ann.sent if frame.get("type") == "run_it"]
    assert sent and sent[0]["yes"] is True and sent[0]["hand"] == hand
    assert [event["times"] for event in feed.events("runs", hand)] == [2]
    boards = boards_of(feed, hand)
    assert sorted(boards) == [1, 2] and all(len(cards) == 5 for cards in boards.values())
    shows_boards(ann, boards, "Run")
    shows_shares(ann, feed, hand, "run")
    for entry in ended["stacks"]:
        expect(ann.stack(entry["seat"])).to_have_text(re.compile(rf"\b{entry['stack']}\b"))
    replays_both_runs(ann, hand, boards)
    fits_a_phone(ann)
    feed.close()


def replays_both_runs(page: Player, hand: str, boards: dict[int, list[str]]) -> None:
    """The last hands panel replays the hand to its end with both runs, labelled."""
    page.page.get_by_role("button", name="Last hands").click()
    dialog = page.page.locator("#hands-dialog")
    dialog.locator(f'button[data-hand="{hand}"]').click()
    dialog.get_by_role("button", name="Last step").click()
    for number, cards in boards.items():
        row = dialog.locator(f'.replay-board-row[data-board="{number}"]')
        expect(row.locator(".board-name")).to_have_text(f"Run {number}")
        expect(row.locator(".card")).to_have_count(len(cards))
        for index, card in enumerate(cards):
            expect(row.locator(".card").nth(index)).to_have_attribute("data-card", card)
    dialog.get_by_role("button", name="Close").click()


def altered_record(route: Any) -> None:
    """The hand's record with two card commitments swapped: no longer the deck committed."""
    record = route.fetch().json()
    commitments = record["fairness"]["commitments"]
    commitments[0], commitments[-1] = commitments[-1], commitments[0]
    route.fulfill(json=record)


def test_the_rabbit_a_bomb_pot_on_two_boards_and_the_options(
    room: RoomServer, players: Any
) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(
        room,
        ann.token,
        "Bombs",
        rabbit_hunt=True,
        straddle=True,
        bomb_pot=2,
        double_board="bomb-pots",
    )
    ann.open_lobby()
    badges = ann.page.locator(f'#tables [data-table="{table_id}"] .badges')
    for words in ("Straddle", "Rabbit hunt", "Bomb pot of 2 BB when called"):
        expect(badges).to_contain_text(words)
    expect(badges).to_contain_text("Double board in bomb pots")
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)

    # the straddle choice, as the room keeps it
    choice = ann.page.locator("#straddle")
    expect(choice).to_be_visible()
    choice.select_option("always")
    feed.event("straddle_chosen", seat=1, straddle="always")
    expect(choice).to_have_value("always")

    # a hand folded before the flop, then the rabbit hunt: the board that would have come
    hand = feed.deal(1)

    def ann_folds(turn: Frame) -> None:
        ann.click("Fold")  # the small blind's, facing the big blind: no free check

    # the page checks the hand's record at its end (Ann was dealt in); the rabbit's cards
    # are held against it too: a record altered since fails them, loudly
    with ann.page.expect_response(lambda response: f"/api/hands/{hand}" in response.url):
        play_hand(
            feed,
            hand,
            {1: ann_folds, 2: command(bob, table_id, lambda turn: {"action": "fold"})},
        )
    ann.page.route(f"**/api/hands/{hand}*", altered_record)
    hunt = ann.page.locator("#rabbit-hunt")
    expect(hunt).to_be_visible()
    start = len(feed.frames)
    hunt.click()
    rabbit = feed.event("rabbit", start)
    unseen = [card for street in rabbit["streets"] for card in street["cards"]]
    assert len(unseen) == 5, rabbit
    assert rabbit["fairness"]["hand_id"] == hand, rabbit
    warnings = ann.page.locator("#fair-warnings")
    expect(warnings).to_contain_text(f"The rabbit hunt of hand {hand} is not the cards")
    ann.page.unroute(f"**/api/hands/{hand}*")
    cards = ann.page.locator("#board .card.rabbit")
    expect(cards).to_have_count(5)
    for index, card in enumerate(unseen):
        expect(cards.nth(index)).to_have_attribute("data-card", card)
        expect(cards.nth(index)).to_have_accessible_name(re.compile(r"never dealt$"))
    expect(ann.page.locator("#rabbit-note")).to_contain_text("never dealt")

    # the host calls a bomb pot: everyone's bomb, no blinds, two boards
    ann.page.get_by_role("button", name="Bomb pot next hand").click()
    feed.event("bomb_pot_called")
    expect(ann.page.locator("#hand-tags")).to_contain_text("Bomb pot next hand")
    start = len(feed.frames)
    hand = feed.deal(1)
    for seat in (1, 2):  # each one's bomb
        assert feed.event("posted", start, seat=seat, hand=hand)["post"] == "bomb"
    expect(ann.page.locator("#hand-tags")).to_have_text("Bomb pot")
    play_hand(
        feed,
        hand,
        {
            1: lambda turn: passive(ann, turn),
            2: command(bob, table_id, showdown),
        },
    )
    assert {event["post"] for event in feed.events("posted", hand)} == {"bomb"}, "no blind"
    boards = boards_of(feed, hand)
    assert sorted(boards) == [1, 2], boards
    shows_boards(ann, boards, "Board")
    shows_shares(ann, feed, hand, "board")
    helper = ann.page.locator("#hand-helper")  # each board's best hands, a line each
    expect(helper).to_contain_text("Board 1: ")
    expect(helper).to_contain_text("Board 2: ")

    # the host's options form: an ante from the next hand, in the header
    ann.page.locator("#host-options-box summary").click()
    form = ann.page.locator("form#host-options")
    expect(form.locator("input[name=bomb_pot]")).to_have_value("2")
    form.locator("input[name=ante]").fill("2")
    start = len(feed.frames)
    form.get_by_role("button", name="Set the options").click()
    feed.find(lambda seat, f: f.get("type") == "event" and f["event"]["kind"] == "host", start)
    expect(ann.page.locator("#table-options")).to_contain_text("Ante 2")
    expect(ann.page.locator("#host-error")).to_be_empty()
    feed.close()


def test_an_all_in_on_two_boards_shows_each_boards_equity(room: RoomServer, players: Any) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table_id, feed, bob = heads_up(
        room, ann.token, "Doubles", structure="no-limit", double_board="always"
    )
    feed.sit(1, 100)
    feed.sit(2, 100)
    ann.open_table(table_id)
    hand = feed.deal(1)

    play_hand(feed, hand, {1: shoves(ann), 2: command(bob, table_id, calls)})
    told = feed.events("equity", hand)
    # the last figures (the river's, on both boards) stay until the next hand: the whole
    # pot's, then each board's
    last = told[-1]
    assert [board["street"] for board in last.get("boards", [])] == ["river", "river"], told
    for entry in last["seats"]:
        line = ann.seat(entry["seat"]).locator(".equity .equity-boards")
        for board in last["boards"]:
            own = next(s for s in board["seats"] if s["seat"] == entry["seat"])
            share = f"{math.floor(own['equity'] * 100 + 0.5)}%"
            expect(line).to_contain_text(f"B{board['board_number']} {share}")
    fits_a_phone(ann)
    feed.close()
