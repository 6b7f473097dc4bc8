"""Tournaments in a browser (RULES.md 8, docs/protocol.md "Tournaments"): a player makes a
practice sit-and-go of two seats with a bot in the lobby's form, registers on its lobby
page, is taken to the table, where the tournament clock tells the level, its blinds and the
hands left; plays it out through the page's buttons (check, else fold) while the levels
rise each hand (the dealer's log says so); and finds the place in the tournament's lobby,
with the results and their CSV. A ``moved`` frame switches the table page to the new
table over the same WebSocket, its address with it. The form's levels are the room's
standard ladder."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
from player import Player
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import WebSocketRoute, expect
from room_helpers import RoomServer

from splitpot.tournament.levels import LevelClock, Schedule

PLAY_SECONDS = 150  # the whole sit-and-go: the blinds double about every other hand


def make_practice_sit_and_go(ann: Player) -> str:
    """Fill the lobby's "New tournament" form: two seats, one bot, a level a hand; the
    tournament's id (the page goes to its lobby)."""
    page = ann.page
    ann.open_lobby()
    page.get_by_role("button", name="New tournament").click()
    form = page.locator("form#tournament-create")
    expect(form).to_be_visible()
    form.locator("[name=name]").fill("Practice")
    form.locator("[name=kind]").select_option("sit-and-go")
    form.locator("[name=seats]").fill("2")
    form.locator("[name=starting_stack]").fill("150")
    form.locator("[name=bots]").fill("1")
    form.locator("[name=clock]").select_option("hands")
    expect(form.locator("#tournament-length-label")).to_have_text("Hands a level")
    form.locator("[name=level_length]").fill("1")
    form.locator("[name=first_big_blind]").fill("50")
    form.locator("[name=buy_in]").fill("10")
    form.locator("[name=action_seconds]").fill("10")
    form.locator("[name=time_bank_seconds]").fill("0")
    expect(form.locator("[name=start_at]")).to_be_hidden()  # a sit-and-go starts when full
    form.get_by_role("button", name="Create tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/[^/?]+$"))
    return page.url.rsplit("/", 1)[1]


def check_or_fold_until_over(ann: Player) -> int:
    """Act through the action bar whenever it is our turn: check, else fold; until the
    table closes (the tournament is over). The turns taken."""
    page = ann.page
    bar = page.locator("#actions")
    call = bar.locator("button.check-call")  # its data-action says check or call
    fold = bar.locator("button.fold")
    confirm = page.locator("dialog#confirm-fold")
    turns = 0
    deadline = time.monotonic() + PLAY_SECONDS
    while page.locator("body[data-gone]").count() == 0:
        assert time.monotonic() < deadline, "the sit-and-go did not end"
        try:
            if confirm.is_visible():  # a fold read as the bar changed: check is free
                confirm.get_by_role("button", name="Cancel").click(timeout=2000)
            elif bar.is_visible():
                if call.is_visible() and call.inner_text(timeout=2000).strip() == "Check":
                    call.click(timeout=2000)
                else:
                    fold.click(timeout=2000)
                turns += 1
        except PlaywrightError:
            pass  # the turn went meanwhile (the room acted for us, or the hand ended)
        page.wait_for_timeout(150)
    return turns


def test_a_practice_sit_and_go_from_the_lobby_form_to_the_place_in_its_lobby(
    room: RoomServer, players: Any
) -> None:
    ann = players("Ann")
    page = ann.page
    tournament = make_practice_sit_and_go(ann)
    made = page.request.get(f"{room.url}/api/tournaments/{tournament}")
    assert made.ok, made.text()  # the form's levels: the room's standard ladder, a hand each
    ladder = Schedule.standard(LevelClock.HANDS, 1, big_blind=50)
    assert made.json()["settings"]["schedule"] == ladder.to_json()

    # its lobby: the bot registered at once, Ann not yet
    expect(page.locator("#t-name")).to_have_text("Practice")
    expect(page.locator("#t-facts")).to_contain_text("Sit-and-go")
    expect(page.locator("#t-facts")).to_contain_text("Registering")
    entrants = page.locator("#t-entrant-list li")
    expect(entrants).to_have_count(1)
    expect(entrants.first).to_contain_text("Bot")
    expect(page.locator('#t-figures [data-figure="entries"]')).to_contain_text("1/2")
    expect(page.locator('#t-terms [data-figure="stack"]')).to_contain_text("150")
    expect(page.locator("#t-unregister")).to_be_hidden()

    # the lobby lists it, registering, and links to its lobby
    ann.open_lobby()
    listed = page.locator(f'#tournament-list [data-tournament="{tournament}"]')
    expect(listed).to_contain_text("Practice")
    expect(listed).to_contain_text("Registering")
    expect(listed.locator(".entries")).to_have_text("1/2")
    listed.get_by_role("link", name="Register for Practice").click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament}$"))

    # registering fills its seats: it starts, and the page takes Ann to her table
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(re.compile(r"/tables/[^/?]+$"), timeout=20_000)
    ann.wait_until_drawn()
    table = page.url.rsplit("/", 1)[1]
    clock = page.locator("#tournament-clock")
    expect(clock).to_be_visible()
    expect(clock.get_by_role("link", name="Practice")).to_have_attribute(
        "href", f"/tournaments/{tournament}"
    )
    expect(clock).to_contain_text("Table 1")
    expect(clock).to_contain_text(re.compile(r"Level \d+"))
    expect(clock).to_contain_text(re.compile(r"Blinds \d+/\d+"))
    expect(clock).to_contain_text(
        re.compile(r"hand left at this level, then \d+/\d+|from the next hand")
    )
    # a tournament seats its players: no empty seat to take, no top-up, no leaving
    expect(page.get_by_role("button", name=re.compile(r"^Sit in seat"))).to_have_count(0)
    for control in ("#top-up-open", "#leave"):
        expect(page.locator(control)).to_be_hidden()

    turns = check_or_fold_until_over(ann)
    assert turns >= 1
    out = [
        frame["event"]
        for frame in ann.received
        if frame.get("type") == "event" and frame["event"]["kind"] == "eliminated"
    ]
    assert len(out) == 1, out  # heads-up: one is out, the other wins
    if out[0]["player"] == ann.player_id:
        expect(page.locator("#tournament-notice")).to_contain_text("You are out of the tournament.")
    log = page.locator("#dealer-log")
    expect(log).to_contain_text(out[0]["text"])
    expect(log).to_contain_text(re.compile(r"Level 2: blinds 40/80"))
    # the table is closed (the winner's seat may be taken first: a ``moved`` to no table)
    expect(page.locator("#table-message")).to_have_text(
        re.compile(r"The tournament is over|You no longer play at this table")
    )
    link = page.get_by_role("link", name="The tournament's lobby")
    expect(link).to_have_attribute("href", f"/tournaments/{tournament}")
    link.click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament}$"))

    # the places: Ann's in her standing, both in the results, the prize to the winner
    expect(page.locator("#t-facts")).to_contain_text("Finished")
    standing = page.locator("#t-standing")
    expect(standing).to_contain_text(re.compile(r"You finished in place [12]\b"))
    results = page.locator("#t-result-list li")
    expect(results).to_have_count(2)
    expect(results.first).to_contain_text("20")  # heads-up: the winner takes the pool
    expect(page.locator(f'#t-result-list li[data-player="{ann.player_id}"]')).to_be_visible()
    mine = page.locator(f'#t-entrant-list li[data-player="{ann.player_id}"]')
    expect(mine).to_contain_text(re.compile(r"Place [12](?!\d)"))
    csv = page.locator("#t-results-csv")
    expect(csv).to_have_attribute("href", f"/api/tournaments/{tournament}/results.csv")
    with httpx.Client(base_url=room.url, timeout=10) as http:
        answer = http.get(f"/api/tournaments/{tournament}/results.csv")
    assert answer.status_code == 200 and "Ann" in answer.text, answer.text
    assert table not in page.url

    # on a phone, a stranger sees the same results, nothing wider than the screen
    bo = players("Bo", size="phone")
    bo.page.goto(f"{room.url}/tournaments/{tournament}")
    expect(bo.page.locator("#t-result-list li")).to_have_count(2)
    expect(bo.page.locator("#t-standing")).to_be_hidden()
    expect(bo.page.locator("#t-register")).to_be_hidden()
    wide = bo.page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the tournament's lobby is {wide} px wider than the phone"


def test_a_moved_frame_switches_the_page_to_the_new_table_on_the_same_socket(
    room: RoomServer, players: Any
) -> None:
    _, token = room.guest("Hal")
    first = room.create_table(token, name="First table")["table"]["id"]
    second = room.create_table(token, name="Second table")["table"]["id"]
    ann = players("Ann", size="phone")
    routes: list[WebSocketRoute] = []
    sent: list[dict[str, Any]] = []

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str):
                sent.append(json.loads(message))
            server.send(message)

        socket.on_message(to_server)
        routes.append(socket)

    ann.page.route_web_socket(re.compile(r"/ws$"), route)
    ann.open_table(first)
    expect(ann.page.locator("#table-name")).to_have_text("First table")
    [socket] = routes
    moved = {
        "type": "moved",
        "table": first,
        "to": second,
        "text": "The tournament moves you to another table",
    }
    socket.send(json.dumps(moved))
    expect(ann.page.locator("#table-name")).to_have_text("Second table")
    assert ann.page.url == f"{room.url}/tables/{second}"
    expect(ann.page.locator("#tournament-notice")).to_contain_text(
        "The tournament moves you to another table"
    )
    expect(ann.page.locator("#dealer-log")).to_contain_text(
        "The tournament moves you to another table"
    )
    watched = [frame["table"] for frame in sent if frame.get("type") == "watch"]
    assert watched == [first, second], watched
    assert len(routes) == 1, "the page opened another WebSocket"
    # the chat goes to the new table now
    ann.page.locator("#chat-input").fill("hello there")
    ann.page.locator("#chat-form").get_by_role("button", name="Send").click()
    expect(ann.page.locator("#chat-log")).to_contain_text("hello there")
    said = [frame for frame in sent if frame.get("type") == "chat"]
    assert said and said[-1]["table"] == second, said
