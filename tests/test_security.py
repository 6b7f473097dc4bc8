"""The room's defences, proved over a real server on SQLite and PostgreSQL
(docs/security.md): nobody acts for another seat or sits twice, a private table shows
nothing without its invite, no API gives away another player's hole cards, a logged-out
token is dead, passwords are argon2id and nowhere else, logins are rate-limited, secrets
are compared in constant time, a browser's WebSocket must come from the room's origin, and
request and frame sizes are bounded. Frames are checked card by card in
tests/test_room_privacy.py, markup in names and chat in tests/browser/test_web_escape.py."""

from __future__ import annotations

import ast
import hashlib
import json
import socket
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from room_helpers import (
    FAST,
    Client,
    Frame,
    RoomServer,
    chips_kept,
    is_event,
    ledger,
    paused_table,
    play,
    running_room,
    seated_game,
)
from room_process import Serve
from sqlalchemy import inspect, text
from store_fixtures import StoreFactory
from test_room_privacy import Truth, cards_named
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import splitpot
import splitpot.server.guard as guard_module
from splitpot.cli import main
from splitpot.protocol import MAX_FRAME
from splitpot.server.app import MAX_BODY
from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

SOURCE = Path(splitpot.__file__).parent
LOGGED_OUT = "the token is unknown or logged out"


def refused(client: Client, message: Frame, code: str, text: str) -> None:
    """The room answers ``message`` with this error, word for word."""
    error = client.error(message)
    assert (error["code"], error["message"]) == (code, text), error


def http_refused(answer: httpx.Response, status: int, code: str, message: str) -> None:
    """An HTTP refusal: the status and the room's JSON error, nothing else in the body."""
    assert answer.status_code == status, answer.text
    assert answer.json() == {"error": {"code": code, "message": message}}


def deal_one(host: Client, table: str) -> str:
    """Deal one hand at a paused table and pause again (the hand is played out by the
    test): the hand's id, once its cards are dealt."""
    host.skip()
    host.send({"type": "host", "table": table, "action": "resume"})
    hand: str = host.wait(is_event("hand_started"))["event"]["hand"]
    host.wait(lambda f: is_event("dealt")(f) and f["event"]["hand"] == hand)
    host.send({"type": "host", "table": table, "action": "pause"})
    host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    return hand


def ended(client: Client, hand: str) -> bool:
    return any(event["hand"] == hand for event in client.events("hand_ended"))


# ---------------------------------------------------------------- seats


def test_no_one_acts_for_another_seat(room: RoomServer, store: Store) -> None:
    """The player not to act naming the seat to act, a player of another table naming
    it, a watcher, and a player who is not the host removing the host: each refused, and
    the hand goes on as if nothing was sent. (A player naming another seat on their own
    turn, and acting out of turn, are in test_room_errors.)"""
    table, (ann, bob) = seated_game(room, ("Ann", "Bob"), 100, name="Mine", seats=2)
    eve_token = room.guest("Eve")[1]
    elsewhere = room.create_table(eve_token, name="Other", seats=2)["table"]["id"]
    eve = Client(room, eve_token)
    eve.sit(elsewhere, 1, 100)
    watcher = Client(room, None)
    watcher.state(table)
    hand = deal_one(ann, table)
    before = watcher.state(table)
    to_act = before["hand"]["to_act"]
    waiting, other = (bob, 2) if to_act == 1 else (ann, 1)
    act = {"type": "act", "table": table, "hand": hand, "action": "fold", "seat": to_act}
    refused(waiting, act, "forbidden", f"seat {to_act} is not yours: you sit in seat {other}")
    refused(eve, act, "not_seated", f"Eve does not sit at table {table}")
    at_her_table = {"type": "act", "table": elsewhere, "hand": hand, "action": "fold"}
    refused(eve, at_her_table, "not_your_turn", "no hand is being played")
    refused(watcher, act, "forbidden", "a watcher may only watch: say hello with a token")
    refused(
        bob,
        {"type": "host", "table": table, "action": "remove", "seat": 1},
        "forbidden",
        f"only the host of table {table} may do that",
    )
    after = watcher.state(table)
    assert after == before, "nothing changed: no action, no event"
    assert not [e for e in watcher.events("acted") if e["hand"] == hand]
    play([ann, bob], table, lambda: ended(ann, hand))
    assert not [e for e in watcher.events("acted") if e["action"] == "fold"]
    chips_kept(store)


def test_one_seat_per_player_even_from_a_second_connection(room: RoomServer, store: Store) -> None:
    """A second seat is refused to the same player on the same connection, on a second
    connection with the same token, and when both connections ask at the same moment:
    one seat, one buy-in."""
    ann_token = room.guest("Ann")[1]
    table, first = paused_table(room, ann_token, name="Once", seats=4)
    second = Client(room, ann_token)
    first.sit(table, 1, 100)
    for client in (first, second):
        refused(
            client,
            {"type": "sit", "table": table, "seat": 2, "buy_in": 100},
            "already_seated",
            "Ann already sits in seat 1",
        )
    racing = room.create_table(ann_token, name="Race", seats=4)["table"]["id"]
    for client in (first, second):
        client.send({"type": "watch", "table": racing})
        client.wait(lambda f: f["type"] == "table" and f["table"] == racing)
        client.skip()
    for seat, client in ((1, first), (2, second)):  # not waiting for the first answer
        client.send({"type": "sit", "table": racing, "seat": seat, "buy_in": 100, "ref": seat})
    answers = [
        client.wait(lambda f, s=seat: f["type"] == "table" or f.get("ref") == s)
        for seat, client in ((1, first), (2, second))
    ]
    errors = [a for a in answers if a["type"] == "error"]
    assert len(errors) == 1 and errors[0]["code"] == "already_seated", answers
    sat = first.events("player_sat", racing)
    assert len(sat) == 1, sat
    assert [s.seat for s in store.seats(racing)] == [sat[0]["seat"]]
    buy_ins = [e for e in ledger(room, ann_token)["entries"] if e["kind"] == "buy_in"]
    assert [(e["table"], e["amount"]) for e in buy_ins] == [(table, -100), (racing, -100)]
    chips_kept(store)


# ---------------------------------------------------------------- private tables


def test_a_private_table_shows_nothing_without_its_invite(room: RoomServer) -> None:
    """Every HTTP route that shows a table or its hands, and watch, sit and chat, refuse a
    stranger and a caller without a session as for a table that does not exist: no
    invite, a wrong one, another private table's. The invite, the host and the seated
    players see it. (The lobby leaving it out, and watch and sit without an invite, are
    also in test_room_host; the refusals word for word against an unknown id's in
    test_security_abuse.)"""
    ann_token, bob_token, eve_token = (room.guest(n)[1] for n in ("Ann", "Bob", "Eve"))
    created = room.create_table(ann_token, name="Friends", seats=2, private=True)
    table, invite = created["table"]["id"], created["invite"]
    other_invite = room.create_table(eve_token, name="Eves", private=True)["invite"]
    ann = Client(room, ann_token)
    ann.state(table)
    ann.send({"type": "host", "table": table, "action": "pause"})
    ann.wait(is_event("host"))
    bob = Client(room, bob_token)
    bob.send({"type": "watch", "table": table, "invite": invite})
    bob.wait(lambda f: f["type"] == "table")
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    hand = deal_one(ann, table)
    play([ann, bob], table, lambda: ended(ann, hand))

    routes = [
        f"/api/tables/{table}",
        f"/api/tables/{table}/hands",
        f"/api/tables/{table}/ledger.csv",
        f"/api/tables/{table}/settle",
        f"/api/hands/{hand}",
        f"/api/hands/{hand}?format=pokerstars",
        f"/api/hands/{hand}?format=phh",
    ]
    for token in (eve_token, None):
        with room.http(token) as http:
            assert table not in [t["id"] for t in http.get("/api/tables").json()["tables"]]
            for route in routes:
                for invite_given in (None, "wrong", other_invite):
                    params = {} if invite_given is None else {"invite": invite_given}
                    answer = http.get(route, params=params)
                    if route.startswith("/api/hands/"):
                        http_refused(answer, 404, "unknown_hand", f"there is no hand {hand!r}")
                    else:
                        http_refused(answer, 404, "unknown_table", f"there is no table {table!r}")
                    assert "Ann" not in answer.text  # the body is the refusal, no more
                assert http.get(route, params={"invite": invite}).status_code == 200, route
    for token in (ann_token, bob_token):  # the host and a player need no invite
        with room.http(token) as http:
            for route in routes:
                assert http.get(route).status_code == 200, route

    eve, stranger = Client(room, eve_token), Client(room, None)
    for client in (eve, stranger):
        for given in (None, "wrong", other_invite):
            watch: Frame = {"type": "watch", "table": table}
            asked = watch | ({} if given is None else {"invite": given})
            refused(client, asked, "unknown_table", f"there is no table {table!r}")
    sit = {"type": "sit", "table": table, "seat": 2, "buy_in": 100}
    refused(eve, sit, "unknown_table", f"there is no table {table!r}")
    chat = {"type": "chat", "table": table, "text": "hi"}
    refused(eve, chat, "unknown_table", f"there is no table {table!r}")
    ann.send({"type": "chat", "table": table, "text": "only for friends"})
    bob.wait(lambda f: f["type"] == "chat" and f["text"] == "only for friends")
    time.sleep(0.2)
    for client in (eve, stranger):
        assert not [f for f in client.frames if f.get("table") == table], client.frames


# ---------------------------------------------------------------- hole cards


def test_no_api_gives_away_another_players_hole_cards(room: RoomServer, store: Store) -> None:
    """A hand in play has no history for anyone, not even its players; once it is over,
    the cards of the player who folded appear in no format (splitpot JSON, PHH,
    PokerStars), in the table's list or in the deal's revealed salts, for another player
    or for a caller without a session; the folder's own reading holds them (the check can
    fail). Every frame of many hands is checked in test_room_privacy."""
    names = ("Ann", "Bob", "Cy")
    tokens = [room.guest(name)[1] for name in names]
    table, host = paused_table(room, tokens[0], name="Cards", seats=3)
    clients = [host, Client(room, tokens[1]), Client(room, tokens[2])]
    for seat, client in enumerate(clients, start=1):
        client.sit(table, seat, 100)
    ann, bob = clients[0], clients[1]
    hand = deal_one(host, table)
    ann_cards = set(next(e["cards"] for e in ann.events("dealt") if e["cards"]))
    assert len(ann_cards) == 4

    readers: list[str | None] = [*tokens, None]
    for token in readers:
        with room.http(token) as http:
            for form in ("json", "pokerstars", "phh"):
                http_refused(
                    http.get(f"/api/hands/{hand}", params={"format": form}),
                    404,
                    "unknown_hand",
                    f"hand {hand} is still being played",
                )
            assert http.get(f"/api/tables/{table}/hands").json() == {"hands": []}

    raised: set[int] = set()

    def choose(client: Client, turn: Frame) -> Frame:
        legal = {entry["action"]: entry for entry in turn["legal"]}
        if client is ann:
            return {"action": "fold" if "fold" in legal else "check"}
        if client is bob and not raised and "raise" in legal:
            raised.add(1)
            return {"action": "raise", "amount": legal["raise"]["min"]}
        for name in ("check", "call", "show"):
            if name in legal:
                return {"action": name}
        raise AssertionError(turn)

    play(clients, table, lambda: ended(host, hand), choose)
    assert [e["seat"] for e in host.events("acted") if e["action"] == "fold"] == [1]
    truth = Truth.of(store, hand)
    assert truth.holes[1] == ann_cards

    for token in readers:
        own = token == tokens[0]
        with room.http(token) as http:
            texts = [http.get(f"/api/tables/{table}/hands").text]
            for form in ("json", "pokerstars", "phh"):
                answer = http.get(f"/api/hands/{hand}", params={"format": form})
                assert answer.status_code == 200, answer.text
                texts.append(answer.text)
            document = http.get(f"/api/hands/{hand}").json()
        for written in texts:
            named = cards_named(written)
            if own:
                assert ann_cards <= named
            else:
                assert not ann_cards & named, (token, ann_cards & named, written)
        assert set(document) & {"deal_secret", "player_ids"} == set()
        revealed = {entry["card"] for entry in document["fairness"]["revealed"]}
        shown = truth.holes[2] | truth.holes[3] | set(truth.board)
        assert revealed == shown | (ann_cards if own else set())
    chips_kept(store)


# ---------------------------------------------------------------- sessions and passwords


def test_a_logged_out_token_is_refused_everywhere(room: RoomServer) -> None:
    """After DELETE /api/sessions the token gets 401 over HTTP and its WebSocket hello is
    refused; the account's other session lives on."""
    with room.http() as http:
        made = http.post("/api/accounts", json={"name": "Lou", "password": "correct horse"})
        assert made.status_code == 201, made.text
        again = http.post("/api/sessions", json={"name": "Lou", "password": "correct horse"})
        assert again.status_code == 200, again.text
    token, other = made.json()["token"], again.json()["token"]
    assert token != other
    with room.http(token) as http:
        assert http.get("/api/me/ledger").status_code == 200
        assert http.delete("/api/sessions").status_code == 204
        http_refused(http.get("/api/me/ledger"), 401, "unauthorized", LOGGED_OUT)
        http_refused(http.delete("/api/sessions"), 401, "unauthorized", LOGGED_OUT)
        http_refused(http.post("/api/tables", json={"name": "x"}), 401, "unauthorized", LOGGED_OUT)
    client = Client(room, token)
    assert client.welcome == {
        "type": "error",
        "code": "unauthorized",
        "message": LOGGED_OUT,
    }
    client.send({"type": "watch", "table": "x"})  # not let in: hello is still to come
    assert client.wait(lambda f: True)["message"] == "the first message is hello"
    with room.http(other) as http:
        assert http.get("/api/me/ledger").status_code == 200
    assert Client(room, other).welcome["player"]["name"] == "Lou"


def test_a_logout_ends_the_connections_opened_with_that_token(room: RoomServer) -> None:
    """A WebSocket that said hello with a token is closed when that token logs out, so a
    stolen token's live connection cannot play on; the same player's other session's
    connection stays."""
    ann_token = room.guest("Ann")[1]
    table = room.create_table(ann_token, name="Gone", seats=2)["table"]["id"]
    opened = Client(room, ann_token)
    opened.sit(table, 1, 100)
    with room.http(ann_token) as http:
        assert http.delete("/api/sessions").status_code == 204
    assert opened.closed.wait(2), "the connection of the logged-out token is still open"
    assert opened.socket.close_code in (1000, 1008)


def test_passwords_are_argon2id_hashes_and_nowhere_else(
    room: RoomServer, store: Store, make_store: StoreFactory
) -> None:
    """The stored hash is argon2id; the password, the session tokens and the invite are
    in no column of any table (tokens and invites are kept as their SHA-256); a store
    opened without a hasher uses argon2id at the library's default cost."""
    password = "Tr0ub4dor&3-unique-pw"
    with room.http() as http:
        made = http.post("/api/accounts", json={"name": "Pat", "password": password})
        logged = http.post("/api/sessions", json={"name": "Pat", "password": password})
        guest = http.post("/api/guests", json={"name": "Gil"})
    tokens = [made.json()["token"], logged.json()["token"], guest.json()["token"]]
    invite = room.create_table(tokens[0], name="Hush", private=True)["invite"]
    secrets = [password, *tokens, invite]

    with store.engine.connect() as connection:
        dump = []
        for name in inspect(connection).get_table_names():
            for row in connection.execute(text(f'SELECT * FROM "{name}"')):
                dump.extend(str(value) for value in row)
        hashes = {
            name: hashed
            for name, hashed in connection.execute(text("SELECT name, password_hash FROM players"))
        }
        sessions = set(connection.execute(text("SELECT token_hash FROM sessions")).scalars())
        invites = set(connection.execute(text("SELECT invite_hash FROM card_tables")).scalars())
    whole = "\n".join(dump)
    for secret in secrets:
        assert secret not in whole
    assert hashes["Pat"].startswith("$argon2id$v=19$") and hashes["Gil"] is None
    assert {hashlib.sha256(t.encode()).hexdigest() for t in tokens} <= sessions
    assert hashlib.sha256(invite.encode()).hexdigest() in invites

    default = make_store(password_hasher=None)  # as `splitpot serve` opens it
    default.create_account("Quin", password)
    with default.engine.connect() as connection:
        stored = connection.execute(
            text("SELECT password_hash FROM players WHERE name = 'Quin'")
        ).scalar_one()
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$"), stored
    assert password not in stored


def test_login_attempts_are_rate_limited_per_name_and_address(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten tries a minute for one name from one address: the eleventh is 429 even with
    the right password (a guesser learns nothing from it), another name is not held up,
    and once the minute has passed the right password works. (The first ten wrong ones,
    and thirty a minute from one address, are in test_room_errors.)"""
    minutes = SimpleNamespace(offset=0.0)
    clock = SimpleNamespace(monotonic=lambda: time.monotonic() + minutes.offset)
    monkeypatch.setattr(guard_module, "time", clock)  # the room's login window only
    with room.http() as http:
        for name in ("Kim", "Lee"):
            answer = http.post("/api/accounts", json={"name": name, "password": "right-one"})
            assert answer.status_code == 201, answer.text
        for _ in range(guard_module.LOGIN_RATE - 1):  # the sign-up was the first try
            http_refused(
                http.post("/api/sessions", json={"name": "kim", "password": "wrong-one"}),
                401,
                "unauthorized",
                "unknown name or wrong password",
            )
        for password in ("wrong-one", "right-one"):
            answer = http.post("/api/sessions", json={"name": "Kim", "password": password})
            http_refused(answer, 429, "rate_limited", "too many login attempts: wait a minute")
            assert answer.headers["content-type"] == "application/json"
        assert http.post("/api/sessions", json={"name": "Lee", "password": "right-one"}).is_success
        minutes.offset = 59.0
        answer = http.post("/api/sessions", json={"name": "Kim", "password": "right-one"})
        assert answer.status_code == 429, "still inside the minute"
        minutes.offset = 61.0 + 59.0  # a minute after the last try
        answer = http.post("/api/sessions", json={"name": "Kim", "password": "right-one"})
        assert answer.status_code == 200, answer.text
    with room.http(answer.json()["token"]) as http:
        assert http.get("/api/me/ledger").status_code == 200


def test_new_guests_are_limited_per_address(store: Store) -> None:
    """Each guest is a player and a session in the database: one address makes at most
    ``guests_per_minute`` a minute; the next is 429, and nothing is written for it."""
    with running_room(store, replace(FAST, guests_per_minute=3)) as room, room.http() as http:
        for n in range(3):
            assert http.post("/api/guests", json={"name": f"G{n}"}).status_code == 201
        http_refused(
            http.post("/api/guests", json={"name": "G3"}),
            429,
            "rate_limited",
            "too many new guests from one address: wait a minute",
        )
    with store.engine.connect() as db:
        names = set(db.scalars(text("SELECT name FROM players")))
    assert {"G0", "G1", "G2"} <= names and "G3" not in names


# Where the room compares something with == that involves a secret's name, and why that is
# not a timing leak. Any other such comparison fails the test below until it is looked at.
COMPARED = {
    # the SQL lookup of a session: equality on the token's SHA-256, not on the token
    ("store/players.py", "SessionRow.token_hash == token_hash(token)"),
    # a revealed entropy against the player's commitment, which is public (hand_started)
    ("room/deal.py", "fair.player_commitment(entropy) != commitment"),
    # which seats have revealed: seat numbers, no secret
    ("room/deal.py", "set(self.entropy) == set(self.players)"),
}
SECRET_WORDS = ("token", "invite", "password", "secret", "salt", "seed", "entropy")


def test_secrets_are_compared_in_constant_time(room: RoomServer) -> None:
    """Invites are checked with hmac.compare_digest on their SHA-256 (spied on while a
    watch with an invite goes through); no == or != in the room's code compares a token,
    invite, password or secret, but the reviewed lookups in COMPARED."""
    import splitpot.store.players as players

    calls: list[tuple[str, str]] = []
    real = players.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    ann_token = room.guest("Ann")[1]
    created = room.create_table(ann_token, name="Spied", private=True)
    table, invite = created["table"]["id"], created["invite"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(players.hmac, "compare_digest", spy)
        stranger = Client(room, None)
        stranger.send({"type": "watch", "table": table, "invite": invite})
        stranger.wait(lambda f: f["type"] == "table")
    digest = hashlib.sha256(invite.encode()).hexdigest()
    assert (digest, digest) in calls

    found = set()
    folders = ("room", "server", "store")
    for path in sorted(path for folder in folders for path in (SOURCE / folder).glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            if not any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops):
                continue
            written = ast.unparse(node)
            if any(word in written.lower() for word in SECRET_WORDS):
                found.add((str(path.relative_to(SOURCE)), written))
    assert found == COMPARED, found - COMPARED


# ---------------------------------------------------------------- the WebSocket's origin


def test_a_browser_websocket_must_come_from_the_rooms_origin(store: Store) -> None:
    """A foreign Origin is refused at the handshake (the room closes before accepting:
    HTTP 403, no welcome); the room's own origin, a listed one and no Origin at all (a
    terminal client) say hello."""
    listed = "https://cards.example"
    with running_room(store, replace(FAST, origins=(listed,))) as room:
        own = f"http://127.0.0.1:{room.port}"

        def opens(origin: str | None) -> bool:
            extra = {} if origin is None else {"origin": origin}
            try:
                with connect(room.ws_url, open_timeout=5, **extra) as socket_:  # type: ignore[arg-type]
                    socket_.send(json.dumps({"type": "hello"}))
                    answer = json.loads(socket_.recv(timeout=5))
                    return bool(answer == {"type": "welcome", "player": None, "lang": "en"})
            except InvalidStatus as error:
                assert error.response.status_code == 403
                return False

        for origin in (own, None, listed, own.replace("http:", "https:")):
            assert opens(origin), origin
        for origin in (
            "https://evil.example",
            "null",
            f"http://localhost:{room.port}",  # the same machine by another name
            f"http://127.0.0.1:{room.port + 1}",
            f"http://127.0.0.1:{room.port}.evil.example",
            "https://cards.example.evil",
        ):
            assert not opens(origin), origin


def test_serve_origin_lets_a_listed_origins_pages_open_the_websocket(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``splitpot serve --origin URL`` (the page served from another host, e.g. a CDN):
    that origin's WebSocket says hello, others are still refused; a bad URL exits 2."""
    room = Serve(
        f"sqlite:///{tmp_path / 'room.sqlite3'}", tmp_path, "--origin", "https://cards.example"
    )
    room.start()
    try:
        for origin, welcome in (("https://cards.example", True), ("https://evil.example", False)):
            try:
                with connect(room.ws_url, open_timeout=5, origin=origin) as socket_:  # type: ignore[arg-type]
                    socket_.send(json.dumps({"type": "hello"}))
                    assert json.loads(socket_.recv(timeout=5))["type"] == "welcome"
                assert welcome, origin
            except InvalidStatus as error:
                assert (error.response.status_code, welcome) == (403, False), origin
    finally:
        room.kill()
    for bad in ("cards.example", "https://cards.example/page", "ftp://cards.example"):
        with pytest.raises(SystemExit) as stopped:
            main(["serve", "--origin", bad])
        assert stopped.value.code == 2
        assert f"an origin is http(s)://host[:port] with nothing after, not {bad!r}" in (
            capsys.readouterr().err
        )


# ---------------------------------------------------------------- sizes


def raw_request(room: RoomServer, head: bytes, timeout: float = 5) -> bytes:
    """Send ``head`` (and nothing more) on a socket of its own; what the room answers
    before the timeout."""
    with socket.create_connection(("127.0.0.1", room.port), timeout=timeout) as raw:
        raw.sendall(head)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer


def test_a_request_body_over_the_limit_is_refused_unread(room: RoomServer) -> None:
    """A body announced bigger than MAX_BODY is answered at once with the room's JSON
    error, before a byte of it is sent."""
    head = (
        "POST /api/guests HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nContent-Length: {10**9}\r\n\r\n"
    ).encode()
    answer = raw_request(room, head)  # the body never comes: an answer means it was not awaited
    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 400 "), answer
    assert json.loads(body) == {
        "error": {"code": "bad_message", "message": f"a request body is at most {MAX_BODY} bytes"}
    }


def test_a_chunked_body_over_the_limit_is_refused(room: RoomServer) -> None:
    """A body sent in chunks (no Content-Length) is held to MAX_BODY as well."""

    def chunks() -> Any:
        for _ in range(4):
            yield b" " * MAX_BODY  # JSON whitespace: 256 KiB the room should not read

        yield b'{"name": "Chunky"}'

    with room.http() as http:
        answer = http.post(
            "/api/guests", content=chunks(), headers={"content-type": "application/json"}
        )
    assert answer.status_code in (400, 413), answer.text
    assert answer.json()["error"]["code"] == "bad_message"


def test_a_websocket_frame_over_the_limit_closes_the_connection(room: RoomServer) -> None:
    """A frame of exactly MAX_FRAME bytes is read (and refused as a bad chat line); one
    byte more closes the connection with 1009, before hello as after it, text or binary."""
    token = room.guest("Ann")[1]
    table = room.create_table(token, name="Sizes")["table"]["id"]
    ann = Client(room, token)
    ann.state(table)
    padding = MAX_FRAME - len(json.dumps({"type": "chat", "table": table, "text": ""}))
    exact = json.dumps({"type": "chat", "table": table, "text": "x" * padding})
    assert len(exact.encode()) == MAX_FRAME
    ann.send_text(exact)
    error = ann.wait(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message" and "chat" in error["message"], error
    assert not ann.closed.is_set()

    for first in (True, False):
        for payload in ("x" * (MAX_FRAME + 1), b"x" * (MAX_FRAME + 1)):
            client = Client(room, None if first else token, hello=not first)
            client.socket.send(payload)
            assert client.closed.wait(5)
            assert client.socket.close_code == 1009
            with pytest.raises(ConnectionClosed):
                client.socket.send(json.dumps({"type": "hello"}))
    assert Client(room, token).welcome["type"] == "welcome", "the room took no harm"
