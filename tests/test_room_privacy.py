"""No card reaches a client that may not see it (PROTOCOL.md "Hole cards", RULES.md 6
"Last hands"), checked on the bytes the room sends: every WebSocket frame to every player
and to a watcher in a game of many hands, and every hand history over HTTP, against the
whole hands the store keeps."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from room_helpers import (
    Choose,
    Client,
    Frame,
    RoomServer,
    bet_at_random,
    is_event,
    play,
    play_hands,
    running_room,
)

from splitpot.store import Store

CARD = "[2-9TJQKA][cdhs]"
# A run of cards written together ("As", "AsKd????", "[As Kd]" holds two runs), as a
# whole word: a card inside a longer word (a table id) is not a card.
RUN = re.compile(rf"(?<![A-Za-z0-9?])((?:{CARD}|\?\?)+)(?![A-Za-z0-9?])")
HANDS = 8
SEATS = (1, 2, 4)


def cards_named(text: str) -> set[str]:
    """Every card a text names: in JSON strings, in the dealer's words, in histories."""
    return {run[i : i + 2] for run in RUN.findall(text) for i in range(0, len(run), 2)} - {"??"}


def card_lists(value: object) -> Iterator[str]:
    """The cards of every ``cards`` and ``board`` list and every ``card`` of a frame."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in ("cards", "board") and isinstance(inner, list):
                yield from (str(card) for card in inner)
            elif key == "card":
                yield str(inner)
            else:
                yield from card_lists(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from card_lists(inner)


def split(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


@dataclass(frozen=True)
class Truth:
    """A whole hand as the store keeps it: every seat's hole cards and the board."""

    holes: dict[int, set[str]]  # wire seat -> cards
    board: list[str]
    player_ids: dict[int, int]  # wire seat -> room player id

    @classmethod
    def of(cls, store: Store, hand_id: str) -> Truth:
        record = store.hand(hand_id).record
        assert record is not None, f"hand {hand_id} is over"
        seats = [p["seat"] for p in record["players"]]
        return cls(
            {seat: set(split(hole)) for seat, hole in zip(seats, record["holes"], strict=True)},
            split(record["board"]),
            dict(zip(seats, record["player_ids"], strict=True)),
        )


@dataclass
class Sight:
    """What one client may see of the hand of its frames so far."""

    seat: int | None
    hand: str | None = None
    board: set[str] = field(default_factory=set)
    shown: set[int] = field(default_factory=set)
    draw: set[str] = field(default_factory=set)

    def allowed(self, truth: Truth | None) -> set[str]:
        if truth is None:
            return set()
        own = truth.holes.get(self.seat, set()) if self.seat is not None else set()
        shown = {card for seat in self.shown for card in truth.holes[seat]}
        return own | shown | self.board | self.draw


def hand_of(frame: Frame) -> str | None:
    if frame["type"] == "event":
        return frame["event"]["hand"]  # type: ignore[no-any-return]
    if frame["type"] == "turn":
        return frame["hand"]  # type: ignore[no-any-return]
    if frame["type"] == "table" and frame["state"]["hand"] is not None:
        return frame["state"]["hand"]["id"]  # type: ignore[no-any-return]
    return None


def check_frames(raws: list[str], seat: int | None, truths: dict[str, Truth]) -> int:
    """Every frame a client received (its raw text) holds only cards it may see: its
    own, the board dealt so far, those of seats shown in that hand, the draw for the
    button in the hand's start. Returns how many frames held a card."""
    sight = Sight(seat)
    with_cards = 0
    for raw in raws:
        frame = json.loads(raw)
        hand = hand_of(frame)
        event: dict[str, Any] = frame.get("event") or {}
        if event.get("kind") == "hand_started":
            sight = Sight(seat, hand, draw={d["card"] for d in event["draw"]})
        elif hand is not None:
            assert hand == sight.hand, f"a frame of hand {hand} during {sight.hand}"
            sight.draw = set()
        truth = truths.get(hand) if hand is not None else None
        if event.get("kind") == "board":
            assert truth is not None and event["board"] == truth.board[: len(event["board"])]
            sight.board |= set(event["cards"])
        if event.get("kind") in ("shown", "face_up"):  # shown, or turned up for a run-out
            assert truth is not None and set(event["cards"]) == truth.holes[event["seat"]]
            sight.shown.add(event["seat"])
        found = cards_named(raw)
        assert set(card_lists(frame)) <= found
        allowed = sight.allowed(truth) if hand is not None else set()
        assert found <= allowed, f"seat {seat} may not see {found - allowed}: {raw}"
        with_cards += bool(found)
    return with_cards


def mixed(seed: int, watcher: Client, table: str) -> Choose:
    """A player who folds, calls, raises, shows and mucks at random (seeded), and now
    and then asks for the table again mid-hand (and has the watcher ask too)."""
    rng = random.Random(seed)

    def choose(client: Client, turn: Frame) -> Frame:
        legal = {entry["action"]: entry for entry in turn["legal"]}
        if rng.random() < 0.2:
            for who in (client, watcher):
                who.send({"type": "watch", "table": table})
        if "show" in legal:
            return {"action": "muck" if "muck" in legal and rng.random() < 0.7 else "show"}
        return bet_at_random(rng, legal, 0.2)

    return choose


@dataclass
class Game:
    room: RoomServer
    table: str
    players: list[Client]
    tokens: list[str]
    watcher: Client
    truths: dict[str, Truth]


@pytest.fixture
def game(store: Store) -> Iterator[Game]:
    """Three players and a watcher, HANDS hands at a table of four seats and on until a
    hand was folded, one shown and one mucked (8 hands had no muck once); then the host
    pauses the table, the hand in play ends, and every client hangs up."""
    with running_room(store) as room:
        tokens = [room.guest(name)[1] for name in ("Ann", "Bob", "Cy")]
        table = room.create_table(tokens[0], name="Privacy", seats=4)["table"]["id"]
        watcher = Client(room, None)
        watcher.state(table)
        players = [Client(room, token) for token in tokens]
        for seat, client in zip(SEATS, players, strict=True):
            client.sit(table, seat, 150)
        choosers = {id(client): mixed(i, watcher, table) for i, client in enumerate(players)}

        def choose(client: Client, turn: Frame) -> Frame:
            return choosers[id(client)](client, turn)

        everyone = [*players, watcher]
        play_hands(everyone, table, HANDS, choose)

        def varied() -> bool:  # the deck is the room's: on until the checks' cases came
            folded = any(e["action"] == "fold" for e in watcher.events("acted"))
            return folded and bool(watcher.events("shown") and watcher.events("mucked"))

        play(everyone, table, varied, choose, timeout=60)
        players[0].send({"type": "host", "table": table, "action": "pause"})

        def settled() -> bool:
            paused = any(e["action"] == "pause" for e in watcher.events("host"))
            ended = watcher.hands_ended()
            return paused and ended == len(watcher.events("hand_started"))

        play(everyone, table, settled, choose)
        for client in everyone:
            client.close()
        hands = {e["hand"] for e in watcher.events("hand_ended")}
        truths = {hand: Truth.of(store, hand) for hand in hands}
        yield Game(room, table, players, tokens, watcher, truths)


def test_no_card_reaches_a_client_that_may_not_see_it(game: Game) -> None:
    """One game (it takes a while to play) checked twice: the frames, the histories."""
    frames_hold_only_what_their_receiver_may_see(game)
    histories_show_what_their_reader_may_see(game)


def frames_hold_only_what_their_receiver_may_see(game: Game) -> None:
    receivers = [*zip(game.players, SEATS, strict=True), (game.watcher, None)]
    counted = {seat: check_frames(client.raw, seat, game.truths) for client, seat in receivers}
    assert all(count > 20 for count in counted.values()), counted
    watcher = game.watcher
    folds = [e for e in watcher.events("acted") if e["action"] == "fold"]
    assert folds and watcher.events("shown") and watcher.events("mucked")
    snapshots = [f for f in watcher.frames if f["type"] == "table" and f["state"]["hand"]]
    assert snapshots, "the watcher asked for the table in the middle of hands"
    # The check can fail: Ann's deal sent to the watcher, or her cards in the dealer's
    # words to Bob, are caught.
    ann = next(f for f in game.players[0].frames if is_event("dealt")(f) and f["event"]["cards"])
    hand = ann["event"]["hand"]
    spoken = {
        "type": "event",
        "table": game.table,
        "seq": 0,
        "event": {
            "kind": "x",
            "hand": hand,
            "text": "Ann holds " + " ".join(ann["event"]["cards"]),
        },
    }
    for client, seat, planted in ((watcher, None, ann), (game.players[1], 2, spoken)):
        at = next(i for i, raw in enumerate(client.raw) if hand_of(json.loads(raw)) == hand)
        with pytest.raises(AssertionError, match=f"seat {seat} may not see"):
            check_frames([*client.raw[: at + 1], json.dumps(planted)], seat, game.truths)


def showdown_seats(watcher: Client, hand: str) -> tuple[set[int], set[int]]:
    """The seats that showed, and that mucked at the showdown, in ``hand``."""
    shown = {e["seat"] for e in watcher.events("shown") if e["hand"] == hand}
    mucked = {e["seat"] for e in watcher.events("mucked") if e["hand"] == hand}
    return shown, mucked


def histories_show_what_their_reader_may_see(game: Game) -> None:
    """Each hand over HTTP, in splitpot JSON, PokerStars text and PHH, for each player
    and for a caller without a session: the reader's own cards, every hand shown or
    mucked at the showdown, never a folded hand, never a card of the deck not dealt."""
    readers: list[tuple[str | None, int | None]] = [*zip(game.tokens, SEATS, strict=True)]
    readers.append((None, None))
    checked = {"own": 0, "mucked": 0, "folded": 0}
    for token, seat in readers:
        with game.room.http(token) as http:
            listed = http.get(f"/api/tables/{game.table}/hands", params={"limit": 50})
            assert listed.status_code == 200
            by_id = {doc["id"]: doc for doc in listed.json()["hands"]}
            assert set(by_id) == set(game.truths)
            for hand, truth in game.truths.items():
                shown, mucked = showdown_seats(game.watcher, hand)
                visible = shown | mucked | ({seat} if seat in truth.holes else set())
                seen = {card for s in visible for card in truth.holes[s]} | set(truth.board)
                answer = http.get(f"/api/hands/{hand}")
                assert answer.status_code == 200
                document = answer.json()
                assert document == by_id[hand]
                for player, hole in zip(document["players"], document["holes"], strict=True):
                    cards = truth.holes[player["seat"]]
                    if player["seat"] in visible:
                        assert set(split(hole)) == cards
                    else:
                        assert hole == "?" * len(hole)
                        checked["folded"] += bool(player["seat"] not in shown | mucked)
                assert cards_named(answer.text) <= seen, (seat, hand)
                for form in ("pokerstars", "phh"):
                    text = http.get(f"/api/hands/{hand}", params={"format": form}).text
                    named = cards_named(text)
                    assert named <= seen, (form, seat, hand, named - seen)
                    for s in visible:
                        assert truth.holes[s] <= named, (form, s)
                checked["own"] += seat in truth.holes
                checked["mucked"] += bool(mucked - {seat})
    assert all(checked.values()), checked
