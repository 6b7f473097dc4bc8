"""A player's private notes and colour tags on others over the room's HTTP API (issue 24;
docs/protocol.md "Notes"): written, read, replaced and deleted by their owner; nobody else
ever gets a byte of them, through any route or WebSocket frame; every refusal is named and
changes nothing."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from room_helpers import Client, RoomServer, play_hands

from splitpot.server.guard import NOTE_RATE
from splitpot.store import notes as notes_module

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
PALETTE = ["red", "orange", "yellow", "green", "blue", "purple", "grey"]
NO_SESSION = "this needs a session: Authorization: Bearer TOKEN"


def notes(http: httpx.Client) -> list[dict[str, Any]]:
    answer = http.get("/api/me/notes")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["colours"] == PALETTE
    found: list[dict[str, Any]] = body["notes"]
    return found


def put(http: httpx.Client, player: str, **body: Any) -> httpx.Response:
    return http.put(f"/api/me/notes/{player}", json=body)


def refusal(answer: httpx.Response) -> tuple[int, str, str]:
    error = answer.json()["error"]
    return answer.status_code, error["code"], error["message"]


def filled(path: str, ids: dict[str, str], players: list[str]) -> set[str]:
    """The route with the ids this test has (each player's in turn), or none when it
    names an id of something else."""
    try:
        return {path.format(**ids, player_id=player) for player in players}
    except KeyError:
        return set()


def test_notes_are_written_read_replaced_and_deleted(room: RoomServer) -> None:
    _, ann_token = room.guest("Ann")
    bob_id, _ = room.guest("Bob")
    cy_id, _ = room.guest("Cy")
    with room.http(ann_token) as ann:
        assert notes(ann) == []
        written = put(ann, bob_id, text="  calls too wide\nnever bluffs  ", colour="red")
        assert written.status_code == 200, written.text
        note = written.json()["note"]
        assert ISO.match(note.pop("updated"))
        assert note == {
            "player": bob_id,
            "name": "Bob",
            "text": "calls too wide\nnever bluffs",
            "colour": "red",
        }
        assert put(ann, cy_id, colour="blue").json()["note"]["text"] == ""  # a tag alone
        replaced = put(ann, bob_id, text="three-bets light", colour=None).json()["note"]
        assert (replaced["text"], replaced["colour"]) == ("three-bets light", None)
        kept = notes(ann)
        assert [(n["player"], n["name"], n["text"], n["colour"]) for n in kept] == [
            (bob_id, "Bob", "three-bets light", None),
            (cy_id, "Cy", "", "blue"),
        ]
        assert kept[0] == replaced
        gone = ann.delete(f"/api/me/notes/{bob_id}")
        assert (gone.status_code, gone.content) == (204, b"")
        assert ann.delete(f"/api/me/notes/{bob_id}").status_code == 204  # none left: the same
        assert put(ann, cy_id, text=" ", colour=None).json() == {"note": None}  # empty: deleted
        assert notes(ann) == []


def test_nobody_else_sees_a_note_through_any_route_or_frame(room: RoomServer) -> None:
    """Ann keeps a note on Bob while both play a hand and Cy watches: Bob's and Cy's
    frames, and every route they or a stranger may read (each GET of the room's OpenAPI
    document, with this table's, hand's and players' ids), hold no byte of it."""
    ann_id, ann_token = room.guest("Ann")
    bob_id, bob_token = room.guest("Bob")
    cy_id, cy_token = room.guest("Cy")
    secret = "Zq7 tells: stacks chips when strong"
    table = room.create_table(ann_token, name="Notes", seats=2)["table"]["id"]
    ann, bob, cy = Client(room, ann_token), Client(room, bob_token), Client(room, cy_token)
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    cy.state(table)
    with room.http(ann_token) as http:
        assert put(http, bob_id, text=secret, colour="purple").status_code == 200
        assert put(http, cy_id, text=secret, colour="green").status_code == 200
    play_hands([ann, bob], table, 1)
    ann.send({"type": "chat", "table": table, "text": "gg"})
    for client in (ann, bob, cy):  # every frame sent before the chat line has arrived
        client.wait(lambda f: f["type"] == "chat" and f["text"] == "gg")
        assert not [raw for raw in client.raw if "Zq7" in raw]
    hand = ann.events("hand_ended", table)[0]["hand"]
    ids = {"table_id": table, "hand_id": hand, "lang": "en"}
    with room.http() as http:
        paths = http.get("/openapi.json").json()["paths"]
    gets = [path for path, operations in paths.items() if "get" in operations]
    urls = sorted(set().union(*(filled(path, ids, [ann_id, bob_id, cy_id]) for path in gets)))
    statuses: list[tuple[str, int]] = []
    for token in (bob_token, cy_token, None):
        with room.http(token) as http:
            if token is not None:
                assert notes(http) == []
            for url in urls:
                answer = http.get(url)
                assert "Zq7" not in answer.text, url
                statuses.append((url, answer.status_code))
    answered = {url for url, status in statuses if status == 200}
    assert {f"/api/tables/{table}/hands", f"/api/hands/{hand}", "/api/tables"} <= answered
    with room.http(ann_token) as http:  # the check would see it: Ann's own list holds it
        assert http.get("/api/me/notes").text.count("Zq7") == 2
    for client in (ann, bob, cy):
        client.close()


def test_each_refusal_is_named_and_changes_nothing(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann_id, ann_token = room.guest("Ann")
    bob_id, _ = room.guest("Bob")
    cy_id, _ = room.guest("Cy")
    path = f"/api/me/notes/{bob_id}"
    with room.http() as stranger:
        for answer in (
            stranger.get("/api/me/notes"),
            put(stranger, bob_id, text="x"),
            stranger.put(path, content=b"not json"),  # no session comes first
            stranger.delete(path),
        ):
            assert refusal(answer) == (401, "unauthorized", NO_SESSION)
    with room.http("not-a-token") as forged:
        assert refusal(forged.get("/api/me/notes")) == (
            401,
            "unauthorized",
            "the token is unknown or logged out",
        )
    with room.http(ann_token) as ann:
        assert put(ann, bob_id, text="kept", colour="grey").status_code == 200
        before = notes(ann)
        bad: list[tuple[httpx.Response, tuple[int, str, str]]] = [
            (
                put(ann, "999999", text="x"),
                (404, "not_found", "there is no player 999999"),
            ),
            (
                put(ann, "bob", text="x"),
                (404, "not_found", "there is no player 'bob'"),
            ),
            (
                ann.delete("/api/me/notes/" + "9" * 40),
                (404, "not_found", f"there is no player '{'9' * 40}'"),
            ),
            (
                put(ann, ann_id, text="me"),
                (400, "bad_message", "a note is on another player, not on yourself"),
            ),
            (
                put(ann, bob_id, text="x" * 2001),
                (400, "bad_message", "the note's text has 2001 characters: at most 2000"),
            ),
            (
                put(ann, bob_id, text="a\x00b"),
                (
                    400,
                    "bad_message",
                    "the note's text holds U+0000 (a control character), which a note cannot keep",
                ),
            ),
            (
                ann.put(
                    path,
                    content=b'{"text": "a\\ud800b"}',
                    headers={"content-type": "application/json"},
                ),
                (
                    400,
                    "bad_message",
                    "the note's text holds U+D800 (category Cs), which a note cannot keep",
                ),
            ),
            (
                put(ann, bob_id, text="x", colour="pink"),
                (
                    400,
                    "bad_message",
                    "the colour 'pink' is not one of red, orange, yellow, green, blue, "
                    "purple, grey",
                ),
            ),
            (
                put(ann, bob_id, text=7),
                (400, "bad_message", "text: Input should be a valid string"),
            ),
            (
                put(ann, bob_id, text="x", color="red"),
                (400, "bad_message", "color: Extra inputs are not permitted"),
            ),
        ]
        for answer, expected in bad:
            assert refusal(answer) == expected, answer.request.url
        assert notes(ann) == before
        monkeypatch.setattr(notes_module, "NOTES_PER_PLAYER", 1)
        assert refusal(put(ann, cy_id, text="one too many")) == (
            429,
            "rate_limited",
            "a player keeps at most 1 notes: delete one first",
        )
        assert notes(ann) == before


def test_notes_are_changed_at_a_bounded_rate(room: RoomServer) -> None:
    """Each write or deletion counts; past NOTE_RATE a minute the player is refused (and
    may still read), another player is not."""
    _, ann_token = room.guest("Ann")
    bob_id, bob_token = room.guest("Bob")
    cy_id, _ = room.guest("Cy")
    with room.http(ann_token) as ann, room.http(bob_token) as bob:
        for _ in range(NOTE_RATE):
            assert ann.delete(f"/api/me/notes/{cy_id}").status_code == 204
        assert refusal(put(ann, bob_id, text="late")) == (
            429,
            "rate_limited",
            "too many notes changed: wait a minute",
        )
        assert notes(ann) == []
        assert put(bob, cy_id, text="Bob's first").status_code == 200
