"""The room no one can abuse (docs/security.md), over a real server: the hand histories
are built once, off the event loop, in answers of bounded size and at a bounded rate per
address; a private table answers a stranger as a table that does not exist does; names
that show nothing, or pass for the room or its bots, are refused, as are chat lines with
bidirectional controls."""

from __future__ import annotations

import json
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from room_helpers import FAST, Client, Frame, RoomServer, one_hand, running_room, seated_game
from sqlalchemy import func, select

import splitpot.server.hand_cache as hand_cache
from splitpot.server.http import MAX_HANDS
from splitpot.store import Store
from splitpot.store.models import PlayerRow

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

UNKNOWN = "qqqqqqqq"  # a table id of the store's form that no table has


def played(room: RoomServer, hands: int) -> tuple[str, list[Client]]:
    """Ann (the host) and Bob at a new table, ``hands`` hands played out: its id and their
    clients."""
    table, clients = seated_game(room, ("Ann", "Bob"), 100, name="Hands", seats=2)
    for _ in range(hands):
        one_hand(clients[0], clients, table)
    return table, clients


# ---------------------------------------------------------------- hand histories


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int | None, str]]]:
    """Every document the room builds, as (hand, reader, thread name)."""
    made: list[tuple[str, int | None, str]] = []
    build = hand_cache.hand_document

    def counted(stored: Any, viewer: int | None, *args: Any, **kwargs: Any) -> Any:
        made.append((stored.id, viewer, threading.current_thread().name))
        return build(stored, viewer, *args, **kwargs)

    monkeypatch.setattr(hand_cache, "hand_document", counted)
    yield made


def test_a_list_of_hands_holds_at_most_50_and_says_so(room: RoomServer) -> None:
    """``limit`` is 1 to 50 (PROTOCOL.md's ``?limit=50`` is the most): beyond it, a 400
    that names the parameter and its maximum; nothing is clamped silently."""
    table = room.create_table(room.guest("Ann")[1], name="Few")["table"]["id"]
    with room.http() as http:
        assert http.get(f"/api/tables/{table}/hands", params={"limit": MAX_HANDS}).json() == {
            "hands": []
        }
        answer = http.get(f"/api/tables/{table}/hands", params={"limit": MAX_HANDS + 1})
    assert answer.status_code == 400
    assert answer.json() == {
        "error": {
            "code": "bad_message",
            "message": "query.limit: Input should be less than or equal to 50",
        }
    }


def test_a_finished_hand_is_built_once_for_each_reader_and_off_the_event_loop(
    room: RoomServer, builds: list[tuple[str, int | None, str]]
) -> None:
    """The list and the single hand give the same bytes every time: each document is
    built once for a watcher and once for each player of the hand, on the room's hands
    thread, never on the event loop; anyone who did not play reads the watcher's."""
    table, (ann, _) = played(room, 2)
    ann_id = int(ann.welcome["player"]["id"])
    eve = room.guest("Eve")[1]
    route = f"/api/tables/{table}/hands"
    with room.http() as anonymous, room.http(ann.token) as ann_http, room.http(eve) as eve_http:
        first = anonymous.get(route)
        hands = [doc["id"] for doc in first.json()["hands"]]
        assert len(hands) == 2
        assert builds and {thread for _, _, thread in builds} == {"hands_0"}
        assert sorted(hand for hand, _, _ in builds) == sorted(hands)  # one each, a watcher's
        assert anonymous.get(route).content == first.content
        assert eve_http.get(route).content == first.content  # Eve played none of them
        single = anonymous.get(f"/api/hands/{hands[0]}")
        assert single.headers["content-type"] == "application/json"
        assert single.content in first.content
        assert len(builds) == 2, builds
        own = ann_http.get(route)
        assert own.content != first.content and own.json()["hands"][0]["you"] == 0
        assert ann_http.get(route).content == own.content
        texts = [anonymous.get(f"/api/hands/{hands[0]}", params={"format": "phh"}) for _ in "ab"]
        assert texts[0].content == texts[1].content
        assert texts[0].headers["content-type"].startswith("text/plain")
    readers = [(hand, reader) for hand, reader, _ in builds]
    assert sorted(readers, key=str) == sorted(
        [(h, None) for h in hands] + [(h, ann_id) for h in hands] + [(hands[0], None)], key=str
    )
    assert all(thread == "hands_0" for _, _, thread in builds)


def test_hand_histories_are_rate_limited_per_address(store: Store) -> None:
    """Lists of a table's hands and single hands each have their allowance a minute from
    one address (60 and 600 by default); past it, 429 ``rate_limited``, whatever the
    table, and nothing is built; the rest of the API is not held up."""
    assert (FAST.hand_lists_per_minute, FAST.hands_per_minute) == (60, 600)
    options = replace(FAST, hand_lists_per_minute=4, hands_per_minute=6)
    with running_room(store, options) as room:
        table, _ = played(room, 1)
        with room.http() as http:
            hand = http.get(f"/api/tables/{table}/hands").json()["hands"][0]["id"]
            for _ in range(3):
                assert http.get(f"/api/tables/{table}/hands").status_code == 200
            for route in (f"/api/tables/{table}/hands", f"/api/tables/{UNKNOWN}/hands"):
                answer = http.get(route)
                assert answer.status_code == 429, answer.text
                message = "too many lists of hands asked from one address: wait a minute"
                assert answer.json() == {"error": {"code": "rate_limited", "message": message}}
            for _ in range(6):
                assert http.get(f"/api/hands/{hand}").status_code == 200
            refused = http.get(f"/api/hands/{hand}", params={"format": "pokerstars"})
            assert refused.status_code == 429
            assert refused.json()["error"]["message"] == (
                "too many hands asked from one address: wait a minute"
            )
            assert http.get(f"/api/tables/{table}").status_code == 200


# ---------------------------------------------------------------- private tables


def same_refusal(hidden: dict[str, Any], unknown: dict[str, Any], ids: dict[str, str]) -> None:
    """Two refusals alike but for the ids they name (``ids``: the unknown's -> the
    hidden's)."""
    text = str(unknown)
    for fake, real in ids.items():
        text = text.replace(fake, real)
    assert str(hidden) == text, (hidden, unknown)


def test_a_private_table_answers_a_stranger_as_no_table_at_all(room: RoomServer) -> None:
    """Every HTTP route of a table or its hands, and every WebSocket command at it, gives a
    stranger (no invite, a wrong one, another table's) the answer that an id no table has
    gets: 404 ``unknown_table`` or ``unknown_hand``, word for word; its invite opens it."""
    ann_token, bob_token, eve_token = (room.guest(name)[1] for name in ("Ann", "Bob", "Eve"))
    created = room.create_table(ann_token, name="Hidden", seats=2, private=True)
    table, invite = created["table"]["id"], created["invite"]
    other_invite = room.create_table(eve_token, name="Eves", private=True)["invite"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    ann.state(table)
    ann.send({"type": "host", "table": table, "action": "pause"})
    ann.wait(lambda f: f["type"] == "event" and f["event"]["kind"] == "host")
    bob.send({"type": "watch", "table": table, "invite": invite})
    bob.wait(lambda f: f["type"] == "table")
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    hand = one_hand(ann, [ann, bob], table)["hand"]
    fake_hand = f"{UNKNOWN}-1"
    ids = {UNKNOWN: table, fake_hand: hand}

    for token in (eve_token, None):
        with room.http(token) as http:
            for given in (None, "wrong", other_invite):
                params = {} if given is None else {"invite": given}
                for path in ("", "/hands", "/ledger.csv", "/settle"):
                    hidden = http.get(f"/api/tables/{table}{path}", params=params)
                    unknown = http.get(f"/api/tables/{UNKNOWN}{path}", params=params)
                    assert hidden.status_code == unknown.status_code == 404, hidden.text
                    assert hidden.json()["error"]["code"] == "unknown_table"
                    same_refusal(hidden.json(), unknown.json(), ids)
                for form in ("json", "pokerstars", "phh"):
                    asked = params | {"format": form}
                    hidden = http.get(f"/api/hands/{hand}", params=asked)
                    unknown = http.get(f"/api/hands/{fake_hand}", params=asked)
                    assert hidden.status_code == unknown.status_code == 404, hidden.text
                    assert hidden.json()["error"]["code"] == "unknown_hand"
                    same_refusal(hidden.json(), unknown.json(), ids)

    commands: list[Frame] = [
        {"type": "watch"},
        {"type": "watch", "invite": "wrong"},
        {"type": "watch", "invite": other_invite},
        {"type": "sit", "seat": 2, "buy_in": 100},
        {"type": "chat", "text": "anyone here?"},
        {"type": "leave"},
        {"type": "sit_out"},
        {"type": "top_up", "amount": 10},
        {"type": "act", "hand": hand, "action": "fold"},
        {"type": "host", "action": "pause"},
        {"type": "commit", "commitment": "0" * 64},
    ]
    eve, stranger = Client(room, eve_token), Client(room, None)
    for client in (eve, stranger):
        for command in commands:
            hidden = client.error(command | {"table": table})
            unknown = client.error(command | {"table": UNKNOWN})
            same_refusal(without_ref(hidden), without_ref(unknown), ids)
        assert not [f for f in client.frames if f.get("table") == table], client.frames
    assert eve.error({"type": "chat", "table": table, "text": "hi"})["code"] == "unknown_table"
    eve.send({"type": "watch", "table": table, "invite": invite})
    eve.wait(lambda f: f["type"] == "table" and f["table"] == table)


def without_ref(error: Frame) -> Frame:
    return {key: value for key, value in error.items() if key != "ref"}


# ---------------------------------------------------------------- names and chat


def players(store: Store) -> int:
    with store.engine.connect() as db:
        return int(db.scalar(select(func.count()).select_from(PlayerRow)) or 0)


def refused_name(http: httpx.Client, name: str, message: str) -> None:
    """Both a guest and an account of this name are refused with ``message``."""
    for path, body in (("/api/guests", {}), ("/api/accounts", {"password": "long enough"})):
        answer = http.post(path, json={"name": name} | body)
        assert answer.status_code == 400, (name, answer.text)
        assert answer.json() == {"error": {"code": "bad_message", "message": message}}, name


BLANK_NAMES = {
    "\u3164": "U+3164 HANGUL FILLER",
    "\u115f": "U+115F HANGUL CHOSEONG FILLER",
    "\uffa0": "U+FFA0 HALFWIDTH HANGUL FILLER",
    "\u2800\u2800": "U+2800 BRAILLE PATTERN BLANK",
    "\u200b": "U+200B ZERO WIDTH SPACE",
    "An\u200cn": "U+200C ZERO WIDTH NON-JOINER",
    "\u200d": "U+200D ZERO WIDTH JOINER",
    "\u2060": "U+2060 WORD JOINER",
    "\ufeffAnn": "U+FEFF ZERO WIDTH NO-BREAK SPACE",
    "Ann\u00ad": "U+00AD SOFT HYPHEN",
    "\u202eennA": "U+202E RIGHT-TO-LEFT OVERRIDE",
    "Ann\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE",
}


def test_a_name_that_shows_nothing_is_refused_naming_the_character(
    room: RoomServer, store: Store
) -> None:
    """Fillers, blank Braille, zero-width and other format characters (Cf), bidirectional
    controls, spaces alone, combining marks with no letter under them: refused for a
    guest and an account alike, naming the character by code point and name; no player
    is made. Japanese, Cyrillic, Korean and accented names are welcome."""
    before = players(store)
    with room.http() as http:
        for name, character in BLANK_NAMES.items():
            shown = unicodedata.normalize("NFC", name.strip())
            refused_name(http, name, f"name {shown!r} holds {character}, which does not show")
        refused_name(http, "\u3000\u00a0 ", "a name needs at least one character")
        for marks in ("\u0301", "\u0301\u0308", "\u20dd"):
            refused_name(
                http,
                marks,
                f"name {marks!r} begins with U+{ord(marks[0]):04X} "
                f"{unicodedata.name(marks[0])}, a mark that belongs on a letter before it",
            )
        assert players(store) == before
        for name in ("山田", "Иван", "김철수", "Jose\u0301", "Zoë 🂡"):
            answer = http.post("/api/guests", json={"name": name})
            assert answer.status_code == 201, answer.text
            assert answer.json()["player"]["name"] == unicodedata.normalize("NFC", name)
        account = http.post("/api/accounts", json={"name": "Иван", "password": "long enough"})
        assert account.status_code == 201, account.text


def test_a_name_that_passes_for_the_room_or_its_bots_is_refused(store: Store) -> None:
    """The room's own names (the dealer, the house, the host, the room, splitpot, and the
    titles of who runs it) and any name with the word "bot" are refused, ignoring case,
    compatibility forms, punctuation and a leading "the"; names that merely hold such
    letters are not. The room still names its own: the house (``--bots``) and its bots."""
    room_own = {
        "Dealer": "dealer",
        "THE DEALER": "dealer",
        "The house": "house",
        "the_house": "house",
        "Ｈｏｓｔ": "host",
        "D.e.a.l.e.r": "dealer",
        "Room": "room",
        "splitpot": "splitpot",
        "Admin": "admin",
        "system!": "system",
    }
    with running_room(store, bots=2) as room, room.http() as http:
        before = players(store)
        for name, key in room_own.items():
            message = f"name {name!r} passes for the room's own {key!r}: choose another"
            refused_name(http, name, message)
        for name in ("Ada (bot)", "bot", "Bot Bob", "Ann [BOT]", "ｂｏｔ_7"):
            message = f"name {name!r} holds the word 'bot', which marks the room's bots: "
            message += "choose another"
            refused_name(http, name, message)
        assert players(store) == before
        for name in ("Robot", "Dealer Dan", "Housekeeper", "Abbot", "Roomba"):
            assert http.post("/api/guests", json={"name": name}).status_code == 201, name
        tables = http.get("/api/tables").json()["tables"]
    assert [table["name"] for table in tables] == ["Bots' table"]
    with store.engine.connect() as db:
        names = set(db.scalars(select(PlayerRow.name)))
    assert "The house" in names
    assert len({name for name in names if name.endswith(" (bot)")}) == 2


def test_a_chat_line_with_a_bidirectional_control_is_refused(room: RoomServer) -> None:
    """An embedding, override or isolate (U+202A-U+202E, U+2066-U+2069) would turn the
    line around for everyone: the line is refused, naming the character, and reaches no
    one; right-to-left text, and its marks (U+200F), go through as typed."""
    ann_token, kim_token = room.guest("Ann")[1], room.guest("Kim")[1]
    table = room.create_table(ann_token, name="Talk", seats=2)["table"]["id"]
    ann, kim = Client(room, ann_token), Client(room, kim_token)
    ann.sit(table, 1, 100)
    kim.state(table)
    for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
        control = chr(code)
        line = f"I fold {control}dlof I"
        kim.skip()
        refused = kim.error({"type": "chat", "table": table, "text": line})
        assert (refused["code"], refused["message"]) == (
            "bad_message",
            f"chat.text must be free of U+{code:04X} {unicodedata.name(control)}, a "
            f"bidirectional control, not {json.dumps(line)}",
        )
    ann.skip()
    hebrew = "שלום \u200f123 ok"
    kim.send({"type": "chat", "table": table, "text": hebrew})
    said = ann.wait(lambda f: f["type"] == "chat")
    assert said["text"] == hebrew
    assert not [f for f in ann.frames if f["type"] == "chat" and f["text"] != hebrew]
