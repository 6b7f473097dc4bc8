"""What the room tells of finished hands for a page to draw, so that the page decides no
rule (issue 21): a hand as the events its reader received live (``GET /api/hands/{id}
?format=events``), field for field, and a table's session figures from its ledger
(``GET /api/tables/{id}/stats``)."""

from __future__ import annotations

import json
import random
from typing import Any

from room_helpers import (
    Choose,
    Client,
    Frame,
    RoomServer,
    bet_at_random,
    is_event,
    one_hand,
    play,
    play_hands,
    seated_game,
)
from test_room_privacy import Truth, card_lists, cards_named

from splitpot.store import Store

ROOM_KINDS = {"to_act", "equity", "hand_cancelled"}  # the room's own events, not the hand's
ROOM_MARKS = {"bot", "connected", "away", "time_bank", "muck_losing"}  # a live seat's extras
ROOM_STATE = {"deadline", "requests", "waiting_list", "offer"}  # a live table's extras
HANDS = 6  # at least; more until a hand was mucked at a showdown (the deals are random)
MOST_HANDS = 30


def live_events(client: Client, hand: str) -> list[Frame]:
    """The hand's events as the client received them, the room's own left out."""
    return [
        frame["event"]
        for frame in client.frames
        if frame["type"] == "event"
        and frame["event"]["hand"] == hand
        and frame["event"]["kind"] not in ROOM_KINDS
    ]


def as_events(room: RoomServer, hand: str, token: str | None) -> dict[str, Any]:
    with room.http(token) as http:
        answer = http.get(f"/api/hands/{hand}", params={"format": "events"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    body: dict[str, Any] = answer.json()
    return body


def without_marks(state: Frame) -> Frame:
    """A live ``table`` state without what the room adds to a table in play (the clock,
    who waits for a seat, connections, bots, away marks) and without ``paused``, which the
    host changed."""
    summary = {k: v for k, v in state["table"].items() if k != "paused"}
    seats = [{k: v for k, v in seat.items() if k not in ROOM_MARKS} for seat in state["seats"]]
    return {k: v for k, v in state.items() if k not in ROOM_STATE} | {
        "table": summary,
        "seats": seats,
    }


def seen_by_rule(events: list[Frame], seat: int | None, truth: Truth) -> int:
    """Each event holds only cards its reader may see by then: their own, the board dealt,
    the draw for the button, the hands shown or turned up, and a hand mucked at the
    showdown in its own ``mucked`` event (RULES.md 6). The cards named, counted."""
    own = truth.holes.get(seat, set()) if seat is not None else set()
    allowed = set(own)
    named = 0
    for event in events:
        kind = event["kind"]
        if kind == "hand_started":
            allowed |= {entry["card"] for entry in event["draw"]}
        if kind == "board":
            assert event["board"] == truth.board[: len(event["board"])]
            allowed |= set(event["cards"])
        if kind in ("shown", "face_up", "mucked") and "cards" in event:
            assert set(event["cards"]) == truth.holes[event["seat"]], event
            allowed |= set(event["cards"])
        raw = json.dumps(event)
        found = cards_named(raw)
        assert set(card_lists(event)) <= found
        assert found <= allowed, f"seat {seat} may not see {found - allowed}: {raw}"
        named += len(found)
    return named


def seeded(seed: int) -> Choose:
    """A player who folds now and then, raises now and then, else checks or calls: the
    hands reach the showdown often (where the room mucks a losing hand) and not always."""
    rng = random.Random(seed)

    def choose(client: Client, turn: Frame) -> Frame:
        return bet_at_random(rng, {entry["action"]: entry for entry in turn["legal"]}, 0.1)

    return choose


def test_a_finished_hand_is_the_events_each_reader_received_live(
    room: RoomServer, store: Store
) -> None:
    """Hands dealt one at a time; before each, every reader's live snapshot. Each hand as
    events equals, for a watcher without a session and for each player with their token,
    the events that reader received live, field for field (a hand mucked at the showdown
    adds its cards), after the state of the table at its start; no card beyond what the
    reader may see; and a player seated but not dealt in reads it as a watcher."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    table, clients = seated_game(room, names, 150, name="Replays", seats=5)
    host, dee = clients[0], clients[3]
    dee.send({"type": "sit_out", "table": table})
    dee.wait(is_event("sat_out"))
    players = clients[:3]
    watcher = Client(room, None)
    watcher.state(table)
    tokens = {id(client): client.token for client in clients}
    choosers = {id(client): seeded(n) for n, client in enumerate(players)}

    def choose(client: Client, turn: Frame) -> Frame:
        return choosers[id(client)](client, turn)

    readers = [(watcher, None), *((client, n) for n, client in enumerate(players, start=1))]
    checked = {"mucked": 0, "own": 0, "folded": 0, "cards": 0}
    for played in range(MOST_HANDS):
        if played >= HANDS and all(checked.values()):
            break
        before = {id(client): client.state(table) for client, _ in readers}
        hand = one_hand(host, [*players, watcher, dee], table, choose)["hand"]
        truth = Truth.of(store, hand)
        for client, seat in readers:
            answer = as_events(room, hand, tokens.get(id(client)))
            assert (answer["hand"], answer["table"]) == (hand, table)
            state = answer["state"]
            assert state["table"]["paused"] is False, "the game was going when it was dealt"
            assert not ROOM_STATE & set(state)
            assert not any(ROOM_MARKS & set(entry) for entry in state["seats"])
            assert without_marks(state) == without_marks(before[id(client)])
            checked["cards"] += seen_by_rule(answer["events"], seat, truth)
            live = live_events(client, hand)
            assert (live[0]["kind"], live[-1]["kind"]) == ("hand_started", "hand_ended")
            assert len(answer["events"]) == len(live)
            for told, got in zip(answer["events"], live, strict=True):
                if got["kind"] == "mucked":
                    cards = sorted(truth.holes[got["seat"]])
                    assert sorted(told.pop("cards")) == cards
                    shown = told["text"].removeprefix(got["text"] + " ").split(" ")
                    assert sorted(shown) == cards
                    told["text"] = got["text"]
                    checked["mucked"] += 1
                assert told == got
            dealt = [e for e in answer["events"] if e["kind"] == "dealt"]
            checked["own"] += sum(e["cards"] is not None for e in dealt)
            folded = {e["seat"] for e in live if e["kind"] == "acted" and e["action"] == "fold"}
            checked["folded"] += len(folded - {seat})
        assert as_events(room, hand, dee.token) == as_events(room, hand, None)
        assert live_events(dee, hand) == live_events(watcher, hand)
    assert all(checked.values()), checked
    assert checked["own"] == 3 * HANDS, "each player reads their own cards, a watcher none"
    with room.http() as http:
        assert http.get(f"/api/hands/{table}-99", params={"format": "events"}).status_code == 404
        refused = http.get(f"/api/hands/{table}-1", params={"format": "dance"})
        assert refused.status_code == 400


def test_a_tables_session_figures_come_from_its_ledger(room: RoomServer, store: Store) -> None:
    """Per player: hands dealt and won, chips bought in (top-ups too) and cashed out, the
    stack still at the table and the net, as the hands' events and the ledger tell them;
    ``you`` names the caller. A stranger to a private table learns nothing of it."""
    table, (ann, bob, cy) = seated_game(room, ["Ann", "Bob", "Cy"], 100, name="Figures", seats=3)
    ann.send({"type": "host", "table": table, "action": "resume"})
    play_hands([ann, bob, cy], table, 3, seeded(5))
    ann.send({"type": "host", "table": table, "action": "pause"})

    def settled() -> bool:
        """The pause is told (no hand is dealt after it) and the hand in play is over."""
        paused = any(e["action"] == "pause" for e in cy.events("host"))
        return paused and cy.hands_ended() == len(cy.events("hand_started"))

    play([ann, bob, cy], table, settled)
    cy.send({"type": "top_up", "table": table, "amount": 20})
    cy.wait(is_event("chips_added"))
    bob.send({"type": "leave", "table": table})
    left = bob.wait(is_event("player_left"))["event"]
    starts = {e["hand"]: e for e in ann.events("hand_started")}
    ends = {e["hand"]: e for e in ann.events("hand_ended")}
    assert set(starts) == set(ends) and len(ends) >= 3

    def figures(seat: int) -> tuple[int, int, int]:
        """Hands dealt, hands won and the net, from the hands' events."""
        nets = [
            next(s["stack"] for s in ends[hand]["stacks"] if s["seat"] == seat)
            - next(s["stack"] for s in start["seats"] if s["seat"] == seat)
            for hand, start in starts.items()
            if any(s["seat"] == seat for s in start["seats"])
        ]
        return len(nets), sum(net > 0 for net in nets), sum(nets)

    ids = {seat: client.welcome["player"]["id"] for seat, client in enumerate((ann, bob, cy), 1)}
    with room.http(cy.token) as http:
        answer = http.get(f"/api/tables/{table}/stats")
    assert answer.status_code == 200, answer.text
    stats = answer.json()
    assert (stats["table"], stats["hands"], stats["rake"]) == (table, len(ends), 0)
    assert stats["you"] == ids[3]
    rows = {row["player"]: row for row in stats["players"]}
    assert set(rows) == set(ids.values())
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        hands, won, net = figures(seat)
        bought = 120 if seat == 3 else 100
        cashed = left["stack"] if seat == 2 else 0
        row = rows[ids[seat]]
        assert row == {
            "player": ids[seat],
            "name": name,
            "hands": hands,
            "won": won,
            "bought_in": bought,
            "cashed_out": cashed,
            "stack": 0 if seat == 2 else bought + net,
            "net": net,
        }
    assert [row["net"] for row in stats["players"]] == sorted(
        (row["net"] for row in stats["players"]), reverse=True
    )
    assert sum(row["net"] for row in stats["players"]) == 0
    with room.http() as http:
        assert http.get(f"/api/tables/{table}/stats").json()["you"] is None
        assert http.get("/api/tables/nope/stats").status_code == 404
    private = room.create_table(ann.token, name="Hidden", private=True)["table"]["id"]
    with room.http(bob.token) as http:
        hidden = http.get(f"/api/tables/{private}/stats")
    assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "unknown_table"
    store.check_invariant()
