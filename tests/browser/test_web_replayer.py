"""The last hands' replayer (hands.js) folds the room's events of a finished hand with the
table page's own state code (issue 21: the page decides no rule): step by step, the pot,
the stacks and the board it draws are those the room's events give, and its last step is
the hand's result; the Session tab draws the room's figures (``/stats``)."""

from __future__ import annotations

import re
from typing import Any

from feed import Feed, command, showdown
from player import Player
from playwright.sync_api import expect
from room_helpers import Frame, RoomServer

STEP = """() => {
  const view = document.querySelector("#hands-dialog .replay");
  const digits = (node) => Number((node?.textContent || "").replace(/[^0-9-]/g, ""));
  return {
    text: view.querySelector(".replay-text").textContent,
    pot: view.querySelector(".replay-pot").textContent,
    board: [...view.querySelectorAll(".replay-board .card")].map((card) => card.dataset.card),
    seats: [...view.querySelectorAll(".replay-seat")].map((row) => ({
      seat: digits(row.querySelector(".replay-seat-number")),
      stack: digits(row.querySelector(".replay-stack")),
      cards: [...row.querySelectorAll(".replay-cards .card")].map((card) => card.dataset.card),
      net: row.querySelector(".net")?.textContent.replace("\\u2212", "-") ?? null,
    })),
  };
}"""


KINDS = ("hand_started", "posted", "acted", "board")  # the steps checked, by what they tell


def folds_when_asked(turn: Frame) -> Frame:
    """Check when free, else fold: Cy leaves the hand at the first bet."""
    legal = {entry["action"] for entry in turn["legal"]}
    return {"action": "check" if "check" in legal else "fold"}


def after_each_event(events: list[Frame]) -> list[tuple[list[str], dict[int, int], int]]:
    """The board, each seat's stack and the chips in the middle after each event, by the
    room's own figures: its posts, calls, bets, returns, rake and awards."""
    start = events[0]
    stacks = {entry["seat"]: entry["stack"] for entry in start["seats"]}
    board: list[str] = []
    middle = 0
    found = []
    for event in events:
        kind = event["kind"]
        moved = {"posted": "amount", "acted": "added"}.get(kind)
        if moved is not None:
            stacks[event["seat"]] -= event[moved]
            middle += event[moved]
        if kind in ("uncalled", "pot_awarded"):
            stacks[event["seat"]] += event["amount"]
            middle -= event["amount"]
        if kind == "rake":
            middle -= event["amount"]
        if kind == "board":
            board = event["board"]
        if kind == "hand_ended":
            stacks = {entry["seat"]: entry["stack"] for entry in event["stacks"]}
        found.append((list(board), dict(stacks), middle))
    return found


def replay(ann: Player, hand: str) -> list[dict[str, Any]]:
    """Open the hand in Ann's last hands and step through it to its end: what each step
    draws."""
    ann.page.get_by_role("button", name="Last hands").click()
    dialog = ann.page.locator("#hands-dialog")
    expect(dialog).to_be_visible()
    dialog.locator(f'button[data-hand="{hand}"]').click()
    counter = dialog.locator(".step-counter")
    expect(counter).to_have_text(re.compile(r"^1 / \d+$"))
    count = int(counter.inner_text().split("/")[1])
    steps = [ann.page.evaluate(STEP)]
    for at in range(2, count + 1):
        dialog.get_by_role("button", name="Next step").click()
        expect(counter).to_have_text(f"{at} / {count}")
        steps.append(ann.page.evaluate(STEP))
    expect(dialog.get_by_role("button", name="Next step")).to_be_disabled()
    return steps


def test_the_replayer_draws_the_rooms_events_step_by_step(room: RoomServer, players: Any) -> None:
    ann = players("Ann")
    assert ann.token is not None
    table = room.create_table(ann.token, name="Replays", seats=3)["table"]["id"]
    feed = Feed(room, table)
    clients = {1: feed.add(1, ann.token), 2: feed.add(2, room.guest("Bob")[1])}
    clients[3] = feed.add(3, room.guest("Cy")[1])
    feed.host(1, "pause")
    for seat, buy_in in ((1, 200), (2, 150), (3, 120)):
        feed.sit(seat, buy_in)
    ann.open_table(table)
    hand = feed.deal(1)
    plays = {seat: command(client, table, showdown) for seat, client in clients.items()}
    plays[3] = command(clients[3], table, folds_when_asked)
    ended = feed.play(hand, plays)
    own = feed.event("dealt", by=1, seat=1, hand=hand)["cards"]

    with room.http(ann.token) as http:
        events = http.get(f"/api/hands/{hand}", params={"format": "events"}).json()["events"]
        document = http.get(f"/api/hands/{hand}").json()
        stats = http.get(f"/api/tables/{table}/stats").json()
    steps = replay(ann, hand)
    expected = after_each_event(events)
    deal = next(i for i, e in enumerate(events) if e["kind"] == "dealt")
    checked = []
    for step in steps[:-1]:
        told = [i for i, e in enumerate(events) if e["text"] == step["text"]]
        if len(told) != 1 or events[told[0]]["kind"] not in KINDS:
            continue
        board, stacks, middle = expected[told[0]]
        assert step["board"] == board, step
        assert step["pot"] == f"Pot {middle}", step
        assert {s["seat"]: s["stack"] for s in step["seats"]} == stacks, step
        mine = next(s for s in step["seats"] if s["seat"] == 1)
        assert mine["cards"] == (own if told[0] > deal else []), "Ann's own cards, face up"
        checked.append(events[told[0]]["kind"])
    assert set(KINDS) - {"posted"} <= set(checked), checked
    assert len(checked) >= 5, checked

    last = steps[-1]
    result = document["result"]
    seats = [player["seat"] for player in document["players"]]
    assert last["pot"].startswith(f"Total pot {result['total_pot']}")
    final = dict(zip(seats, result["stacks"], strict=True))
    assert {s["seat"]: s["stack"] for s in last["seats"]} == final
    assert final == {entry["seat"]: entry["stack"] for entry in ended["stacks"]}
    starts = {player["seat"]: player["stack"] for player in document["players"]}
    for seat in last["seats"]:
        net = final[seat["seat"]] - starts[seat["seat"]]
        assert seat["net"] == (f"+{net}" if net > 0 else str(net)), seat
    awards = [e["text"] for e in events if e["kind"] == "pot_awarded" and e["text"]]
    assert last["text"] == "\n".join(awards)
    shown = {e["seat"]: e["cards"] for e in events if e["kind"] in ("shown", "mucked")}
    assert shown, "Ann and Bob went to the showdown"
    for seat in last["seats"]:
        if seat["seat"] in shown:
            assert seat["cards"] == shown[seat["seat"]], "a hand shown or mucked at the end"
    cy = next(seat for seat in last["seats"] if seat["seat"] == 3)
    assert not set(cy["cards"]) - {"??"}, "Cy folded: his cards are never shown"

    dialog = ann.page.locator("#hands-dialog")
    dialog.get_by_role("tab", name="Session").click()
    row = dialog.locator(".stats-table tr.you")
    mine = next(p for p in stats["players"] if p["player"] == stats["you"])
    expect(row).to_have_attribute("data-player", stats["you"])
    expect(row.locator("th")).to_have_text("Ann (you)")
    net = mine["net"]
    expect(row.locator("td").last).to_have_text(
        f"+{net}" if net > 0 else str(net).replace("-", "\u2212")
    )
    expect(dialog.locator(".stats-table tbody tr")).to_have_count(3)
    feed.close()
