"""The room's transport, proved over real sockets (docs/security.md): every answer carries
the room's Content-Security-Policy and none loads another site's script; a Host that is
not the room's is refused (DNS rebinding); silent connections, half-sent heads and
WebSockets that answer no ping are let go; a text frame that is not UTF-8 is one line in
the log; X-Forwarded-For is believed only from the proxies named; one account's logins
are limited across addresses; the password's length is one figure."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import sqlite3
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from room_helpers import RoomServer
from room_process import Serve
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import splitpot.server.guard as guard_module
from splitpot.store.players import PASSWORD_LENGTHS

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

DOCS = Path(__file__).resolve().parent.parent / "docs"
DEADLINE = 20.0  # seconds the room may take to let a connection go (its time-outs: 1 s)
LISTED_URL = "https://cards.example"  # the room's public address, given with --url
NO_MORE_LOGINS = "too many login attempts: wait a minute"


def served(tmp_path: Path, *flags: str) -> Iterator[Serve]:
    """A real ``splitpot serve`` with ``flags``, on a database of its own."""
    room = Serve(f"sqlite:///{tmp_path / 'room.sqlite3'}", tmp_path, *flags)
    room.start()
    try:
        yield room
    finally:
        room.kill()  # which fails the test if the log holds a traceback


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """The room with its public address given (--url) and no proxy named."""
    yield from served(tmp_path_factory.mktemp("listed"), "--url", LISTED_URL)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """The room behind a proxy on this machine: --forwarded-allow-ips 127.0.0.1."""
    yield from served(tmp_path_factory.mktemp("proxied"), "--forwarded-allow-ips", "127.0.0.1")


@pytest.fixture(scope="module", params=["h11", "httptools"])
def timed(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Serve]:
    """The room with time-outs of a second, on each HTTP parser (``--http``)."""
    flags = ("--http-timeout", "1", "--ws-ping", "1", "--http", request.param)
    yield from served(tmp_path_factory.mktemp(f"timed-{request.param}"), *flags)


def error_of(answer: httpx.Response, status: int, code: str) -> str:
    """The room's JSON error (nothing else in the body): its message."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


# ---------------------------------------------------------------- one policy, no CDN


def policy_sources(policy: str) -> set[str]:
    """Every source that a Content-Security-Policy allows, over all its directives."""
    return {
        source
        for directive in policy.split(";")
        if directive.strip()
        for source in directive.split()[1:]
    }


def test_every_answer_carries_the_policy_and_no_page_loads_another_sites_script(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages, static files, the API's JSON, /openapi.json, a 404, a 405, a refused body
    and a 500: each answer has the room's policy (the room itself only: 'self', 'none',
    data: images), nosniff and no referrer to other sites. /docs and /redoc (whose pages
    loaded Swagger's and ReDoc's scripts and fonts from a CDN) are gone: 404, JSON;
    no HTML the room serves names a script, style or font elsewhere."""
    app_room = room.server.config.app.state.room

    async def broken() -> list[dict[str, Any]]:
        raise RuntimeError("a bug in the lobby")

    with room.http() as http:
        for gone in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            assert error_of(http.get(gone), 404, "not_found") == "Not Found", gone
        answers = {
            path: http.get(path)
            for path in (
                "/docs",
                "/redoc",
                "/",
                "/tables/abc",
                "/fairness",
                "/favicon.ico",
                "/static/js/dom.js",
                "/static/css/nothing-here.css",
                "/api/health",
                "/api/tables",
                "/openapi.json",
                "/no/such/page",
            )
        }
        answers["DELETE /api/tables"] = http.delete("/api/tables")
        answers["POST /api/guests (bad)"] = http.post("/api/guests", json={"name": ""})
        monkeypatch.setattr(app_room, "lobby", broken)
        answers["GET /api/tables (a bug)"] = http.get("/api/tables")
    assert answers["/openapi.json"].json()["info"]["title"] == "splitpot room"
    assert answers["GET /api/tables (a bug)"].status_code == 500
    assert answers["DELETE /api/tables"].status_code == 405
    for what, answer in answers.items():
        headers = answer.headers
        policy = headers.get("content-security-policy")
        assert policy is not None, what
        assert len(headers.get_list("content-security-policy")) == 1, what
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, what
        assert policy_sources(policy) <= {"'self'", "'none'", "data:"}, (what, policy)
        assert headers["x-content-type-options"] == "nosniff", what
        assert headers["referrer-policy"] == "same-origin", what
        if headers["content-type"].startswith("text/html"):
            elsewhere = re.findall(r"""(?:src|href)\s*=\s*["']?(?:[a-z]+:)?//""", answer.text)
            assert not elsewhere, (what, elsewhere)
    assert answers["/"].headers["content-type"].startswith("text/html")


# ---------------------------------------------------------------- the room's own hosts


def raw_socket(room: Serve) -> socket.socket:
    return socket.create_connection(("127.0.0.1", room.port), timeout=DEADLINE)


def hello_through(room: Serve, host: str, origin: str | None = None) -> dict[str, Any]:
    """A WebSocket to the room's port whose handshake names ``host``: the room's answer to
    hello, or the HTTP status and body of a refused handshake."""
    try:
        with connect(
            f"ws://{host}/ws",
            sock=raw_socket(room),
            origin=origin,  # type: ignore[arg-type]
            open_timeout=10,
        ) as client:
            client.send(json.dumps({"type": "hello"}))
            answer: dict[str, Any] = json.loads(client.recv(timeout=10))
            return answer
    except InvalidStatus as refused:
        response = refused.response
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        return {"status": response.status_code, "body": json.loads(response.body or b"{}")}


def test_only_the_rooms_own_hosts_are_answered(listed: Serve) -> None:
    """DNS rebinding: a site's name made to point at the room's address sends the room
    that name in Host. POST /api/guests, GET /api/tables and a WebSocket that name
    another host (with that site's Origin) are refused (403, the room's JSON error; the
    WebSocket before it opens) and no guest is made; the address the request came in on,
    its loopback names (any port: a proxy's may differ) and the host that --url names
    are answered."""
    evil = f"evil.example:{listed.port}"
    foreign = (
        evil,
        "evil.example",
        f"127.0.0.1.evil.example:{listed.port}",
        "cards.example.evil",
        "[::1",
        "",
    )
    own = (
        f"127.0.0.1:{listed.port}",
        "127.0.0.1",
        f"localhost:{listed.port}",
        f"LocalHost:{listed.port}",
        f"[::1]:{listed.port}",
        f"127.0.0.1:{listed.port + 1}",
        "cards.example",
        "cards.example:443",
    )
    with httpx.Client(base_url=listed.url, timeout=10) as http:
        for host in foreign:
            for method, path in (("POST", "/api/guests"), ("GET", "/api/tables")):
                answer = http.request(
                    method,
                    path,
                    json={"name": "Rebound"} if method == "POST" else None,
                    headers={"host": host, "origin": f"http://{evil}"},
                )
                message = error_of(answer, 403, "forbidden")
                assert message == (
                    f"the room does not answer to the host {host!r} (splitpot serve --url)"
                ), message
                assert answer.headers["content-security-policy"].startswith("default-src")
        for host in own:
            answer = http.get("/api/tables", headers={"host": host})
            assert answer.status_code == 200, (host, answer.text)
    for host in (evil, "evil.example"):
        refused = hello_through(listed, host, origin=f"http://{evil}")
        assert refused["status"] == 403, refused
        assert refused["body"]["error"]["code"] == "forbidden", refused
    for host in (f"127.0.0.1:{listed.port}", f"localhost:{listed.port}", "cards.example"):
        welcome = hello_through(listed, host)
        assert welcome["type"] == "welcome", (host, welcome)
    assert hello_through(listed, "cards.example", origin=LISTED_URL)["type"] == "welcome"
    with sqlite3.connect(listed.database_url.removeprefix("sqlite:///")) as db:
        assert db.execute("SELECT id FROM players WHERE name = 'Rebound'").fetchall() == []


# ---------------------------------------------------------------- time-outs


def closed_by_the_room(raw: socket.socket) -> bytes:
    """Read until the room closes the connection (at most DEADLINE seconds); what it sent."""
    received = b""
    deadline = time.monotonic() + DEADLINE
    while True:
        assert time.monotonic() < deadline, f"the room kept the connection: {received!r}"
        raw.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = raw.recv(4096)
        except TimeoutError:
            continue
        if not chunk:
            return received
        received += chunk


def websocket_handshake(room: Serve) -> socket.socket:
    """A raw socket that has opened the WebSocket, and then answers nothing, pings included."""
    raw = raw_socket(room)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{room.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = raw.recv(1)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101 "), head
    return raw


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The room's frames in ``data`` (unmasked, each under 126 bytes): opcode, payload."""
    frames = []
    while data:
        opcode, length = data[0] & 0x0F, data[1] & 0x7F
        assert length < 126, data
        frames.append((opcode, data[2 : 2 + length]))
        data = data[2 + length :]
    return frames


def masked_text_frame(payload: bytes) -> bytes:
    """A client's text frame (FIN, opcode 1, masked) holding ``payload`` as it is."""
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def test_silent_connections_and_half_sent_heads_are_let_go(timed: Serve) -> None:
    """With --http-timeout 1: a connection that sends nothing, one that stops in the
    middle of a request's headers, and one that got an answer and then sends half a
    request are each closed by the room (uvicorn alone kept the first two for ever)."""
    with raw_socket(timed) as silent:
        assert closed_by_the_room(silent) == b""
    with raw_socket(timed) as half:
        half.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */")
        assert closed_by_the_room(half) == b""
    with raw_socket(timed) as again:
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while not answer.endswith(b'{"status":"ok"}'):
            chunk = again.recv(4096)
            assert chunk, answer
            answer += chunk
        again.sendall(b"GET /api/tables HTTP/1.1\r\nHo")
        assert closed_by_the_room(again) == b""


def test_a_websocket_that_answers_no_ping_is_closed(timed: Serve) -> None:
    """With --ws-ping 1: a WebSocket that answers no ping is pinged, then closed with
    1011; one whose client answers the pings (opened before it) is still open after."""
    with connect(timed.ws_url, open_timeout=10) as answering:
        answering.send(json.dumps({"type": "hello"}))
        assert json.loads(answering.recv(timeout=10))["type"] == "welcome"
        with websocket_handshake(timed) as deaf:
            frames = server_frames(closed_by_the_room(deaf))
        assert frames[0][0] == 0x9, frames  # a ping
        close = frames[-1]
        assert close[0] == 0x8 and struct.unpack("!H", close[1][:2])[0] == 1011, frames
        answering.send(json.dumps({"type": "watch", "table": "nope"}))
        assert json.loads(answering.recv(timeout=10))["type"] == "error"


def test_a_text_frame_that_is_not_utf8_is_one_line_in_the_log(timed: Serve) -> None:
    """The connection is closed with 1007 (the WebSocket standard) and the log says so
    in one line, with no traceback; the room goes on."""
    with websocket_handshake(timed) as raw:
        raw.sendall(masked_text_frame(b'{"type": "hello", "x": "\xff\xfe"}'))
        frames = server_frames(closed_by_the_room(raw))
    assert frames[-1][0] == 0x8 and struct.unpack("!H", frames[-1][1][:2])[0] == 1007, frames
    deadline = time.monotonic() + DEADLINE
    while "not UTF-8" not in (log := timed.log().read_text()):
        assert time.monotonic() < deadline, log
        time.sleep(0.05)
    lines = [line for line in log.splitlines() if "UTF-8" in line]
    assert len(lines) == 1 and "invalid start byte" in lines[0], log
    assert "Traceback" not in log, log
    with connect(timed.ws_url, open_timeout=10) as client:
        client.send(json.dumps({"type": "hello"}))
        assert json.loads(client.recv(timeout=10))["type"] == "welcome"


def test_serve_refuses_time_outs_and_proxies_that_are_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bad values of --http-timeout, --ws-ping, --forwarded-allow-ips and --http exit 2,
    naming what is wrong."""
    from splitpot.cli import main

    for flag, value, words in (
        ("--http-timeout", "0", "a time-out is 1 to 3600 whole seconds, not '0'"),
        ("--ws-ping", "1.5", "a time-out is 1 to 3600 whole seconds, not '1.5'"),
        (
            "--forwarded-allow-ips",
            "127.0.0.1,proxy.internal",
            "'proxy.internal' in --forwarded-allow-ips is not an IP address or network",
        ),
        ("--http", "h2", "argument --http: invalid choice: 'h2' (choose from"),
    ):
        with pytest.raises(SystemExit) as stopped:
            main(["serve", flag, value])
        assert stopped.value.code == 2
        assert words in capsys.readouterr().err


# ---------------------------------------------------------------- addresses and logins


def guests(room: Serve, forwarded: list[str]) -> list[int]:
    """The status of POST /api/guests sent with each X-Forwarded-For in turn."""
    with httpx.Client(base_url=room.url, timeout=10) as http:
        return [
            http.post(
                "/api/guests", json={"name": f"G{n}"}, headers={"x-forwarded-for": address}
            ).status_code
            for n, address in enumerate(forwarded)
        ]


def test_x_forwarded_for_is_believed_only_from_a_named_proxy(listed: Serve, proxied: Serve) -> None:
    """Thirty guests a minute from one address: by default a client's X-Forwarded-For
    changes nothing (the 31st guest from this connection's address is refused whatever
    the header says); with --forwarded-allow-ips 127.0.0.1 each forwarded address has
    its own thirty, and one of them is still held to thirty."""
    varied = [f"203.0.113.{n}" for n in range(31)]
    assert guests(listed, varied) == [201] * 30 + [429]
    assert guests(proxied, varied) == [201] * 31
    assert guests(proxied, ["198.51.100.7"] * 31) == [201] * 30 + [429]


def test_one_accounts_logins_are_limited_across_addresses(proxied: Serve) -> None:
    """A guesser with many addresses: each address tries once, under any form of the
    name (case, compatibility forms); after NAME_RATE tries in a minute the next is 429
    even with the right password, from an address never seen; another account is not held
    up. The sign-up was the first try."""
    with httpx.Client(base_url=proxied.url, timeout=30) as http:

        def log_in(name: str, password: str, address: str) -> httpx.Response:
            return http.post(
                "/api/sessions",
                json={"name": name, "password": password},
                headers={"x-forwarded-for": address},
            )

        for name in ("Kim", "Lee"):
            made = http.post(
                "/api/accounts",
                json={"name": name, "password": "right-one"},
                headers={"x-forwarded-for": "192.0.2.1"},
            )
            assert made.status_code == 201, made.text
        forms = ("kim", "KIM", "\uff2b\uff49\uff4d")  # the last: fullwidth letters
        for n in range(guard_module.NAME_RATE - 1):
            answer = log_in(forms[n % len(forms)], "wrong-one", f"10.1.0.{n}")
            assert error_of(answer, 401, "unauthorized") == "unknown name or wrong password"
        refused = log_in("Kim", "right-one", "10.2.0.1")
        assert error_of(refused, 429, "rate_limited") == NO_MORE_LOGINS
        assert log_in("Lee", "right-one", "10.2.0.2").status_code == 200


# ---------------------------------------------------------------- password length


def test_the_password_length_is_one_figure_in_the_code_and_the_docs(room: RoomServer) -> None:
    """PASSWORD_LENGTHS is what the HTTP API and the store take: a password of the most
    characters signs up and logs in, one more is refused (400, naming the field and the
    figure) at sign-up and at login; one too short names both figures. Every doc that
    gives the passwords' length gives those two figures."""
    low, high = PASSWORD_LENGTHS
    with room.http() as http:
        longest = "p" * high
        made = http.post("/api/accounts", json={"name": "Long", "password": longest})
        assert made.status_code == 201, made.text
        assert http.post("/api/sessions", json={"name": "Long", "password": longest}).is_success
        for path in ("/api/accounts", "/api/sessions"):
            answer = http.post(path, json={"name": "Longer", "password": longest + "p"})
            message = error_of(answer, 400, "bad_message")
            assert message == f"password: String should have at most {high} characters", path
        short = http.post("/api/accounts", json={"name": "Short", "password": "p" * (low - 1)})
        message = error_of(short, 400, "bad_message")
        assert message == f"a password needs {low} to {high} characters, not {low - 1}"
    said = {}
    for doc in ("security.md", "protocol.md", "store.md"):
        text = (DOCS / doc).read_text().replace("1,024", "1024")
        figures = re.findall(r"[Pp]asswords?\b[^.]*?\b(\d+)\s+to\s+(\d+)\s+characters", text)
        assert figures, doc
        said[doc] = set(figures)
        assert not re.search(r"[Pp]asswords?\b[^.]*?\bup\s+to\s+\d", text), doc
    assert all(figures == {(str(low), str(high))} for figures in said.values()), said


def test_the_limits_players_meet_are_settings_of_serve(tmp_path: Path) -> None:
    """docs/deploy.md "Limits": ``--guests-per-minute 2`` lets an address make two
    guests a minute, the third refused naming the limit (429); ``--hand-lists-per-minute
    1`` one list of a table's hands."""
    flags = ("--guests-per-minute", "2", "--hand-lists-per-minute", "1")
    for room in served(tmp_path, *flags):
        with httpx.Client(base_url=room.url, timeout=10) as http:
            made = [http.post("/api/guests", json={"name": f"G{n}"}) for n in range(3)]
            assert [answer.status_code for answer in made] == [201, 201, 429], made
            refused = made[2].json()["error"]
            assert refused["message"] == "too many new guests from one address: wait a minute"
            table = room.bots_table()["id"]
            lists = [http.get(f"/api/tables/{table}/hands") for _ in range(2)]
            assert [answer.status_code for answer in lists] == [200, 429], lists


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--guests-per-minute", "x", "a limit is a whole number from 0 to 1000000, not 'x'"),
        ("--bot-seats", "100001", "a limit is a whole number from 0 to 100000, not '100001'"),
        ("--hands-per-minute", "-1", "a limit is a whole number from 0 to 1000000, not '-1'"),
    ],
)
def test_a_bad_limit_stops_serve_before_it_starts_naming_it(
    flag: str, value: str, said: str
) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "splitpot"), "serve", f"{flag}={value}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert f"argument {flag}: {said}" in done.stderr, done.stderr
