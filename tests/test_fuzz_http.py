"""Fuzzing the room's HTTP API (issue 12, bad input) over a real socket: schemathesis
draws requests for every operation of the OpenAPI document the room serves, with and
without a guest's bearer token, and checks that no answer is a server error and that
each answer is one the document declares (status, content type, body schema). Hand-made
requests add what the document cannot say: malformed JSON, wrong content types, huge
query values, odd path ids. Every refusal is a 4xx ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from room_helpers import RoomServer
from schemathesis import GenerationMode, checks

from splitpot.server.app import MAX_BODY

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]
PER_OPERATION = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
# per operation: the API has some 45 of them (clubs, notes, statistics), each fuzzed on
# both databases, with and without a session; more examples each cost minutes in CI
EXAMPLES = {GenerationMode.POSITIVE: 8, GenerationMode.NEGATIVE: 3}


def load(room: RoomServer) -> Any:
    """The room's OpenAPI document as schemathesis reads it, from the live server."""
    return schemathesis.openapi.from_url(f"{room.url}/openapi.json")


def run_operations(
    room: RoomServer, headers: dict[str, str], mode: GenerationMode = GenerationMode.POSITIVE
) -> list[str]:
    """Every operation, fuzzed with these headers (requests that fit the document, or,
    NEGATIVE, that do not); the labels of those that failed (each failure is raised after
    all have run, so one run names every bad operation)."""
    failures: list[str] = []
    for result in load(room).get_all_operations():
        operation = result.ok()

        @settings(PER_OPERATION, max_examples=EXAMPLES[mode])
        @given(case=operation.as_strategy(generation_mode=mode))
        def fuzz(case: Any) -> None:
            response = case.call(base_url=room.url, headers=headers, timeout=10)
            assert "Traceback" not in response.text and 'File "' not in response.text
            negative = [checks.negative_data_rejection] if mode is GenerationMode.NEGATIVE else []
            case.validate_response(response, checks=CHECKS + negative)
            if response.status_code >= 400:
                refusal(response)

        try:
            fuzz()
        except Unsatisfiable:  # no parameter and no body: nothing that does not fit
            assert mode is GenerationMode.NEGATIVE, operation.label
        except (Exception, BaseExceptionGroup) as error:  # collected, reported together
            failures.append(f"{operation.label}: {str(error)[:1500]}")
    return failures


def test_the_room_serves_its_openapi_document(room: RoomServer) -> None:
    with httpx.Client(base_url=room.url, timeout=10) as http:
        answer = http.get("/openapi.json")
    assert answer.status_code == 200
    document = answer.json()
    assert document["openapi"].startswith("3.")
    assert {"/api/health", "/api/guests", "/api/tables", "/api/hands/{hand_id}"} <= set(
        document["paths"]
    )


# Schemathesis runs on PostgreSQL only (the stricter database: its text holds no NUL),
# to keep the file under a minute; the hand-made requests below run on both.
ON_POSTGRESQL = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


@ON_POSTGRESQL
def test_fuzzed_requests_without_a_session(room: RoomServer) -> None:
    failures = run_operations(room, {})
    assert not failures, "\n\n".join(failures)


@ON_POSTGRESQL
def test_fuzzed_requests_with_a_guests_token(room: RoomServer) -> None:
    _, token = room.guest("Ann")
    failures = run_operations(room, {"Authorization": f"Bearer {token}"})
    assert not failures, "\n\n".join(failures)


@ON_POSTGRESQL
@pytest.mark.parametrize("session", [False, True], ids=["without-session", "with-session"])
def test_requests_that_do_not_fit_the_document(room: RoomServer, session: bool) -> None:
    """Schemathesis' negative cases (wrong types, missing fields, values out of range),
    without and with a session: refused with a declared 4xx, never a 500."""
    headers = {"Authorization": f"Bearer {room.guest('Neg')[1]}"} if session else {}
    failures = run_operations(room, headers, GenerationMode.NEGATIVE)
    assert not failures, "\n\n".join(failures)


def refusal(answer: httpx.Response | Any, status: int | None = None) -> dict[str, str]:
    """A refusal as PROTOCOL.md has it: a 4xx with ``{"error": {"code", "message"}}`` and
    nothing else, no traceback; its ``error``."""
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
    assert status in (None, answer.status_code), (answer.status_code, answer.text)
    media_type = answer.headers["content-type"]  # schemathesis' answers: a list of values
    assert "".join(media_type).startswith("application/json"), media_type
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert "Traceback" not in answer.text and 'File "' not in answer.text
    error: dict[str, str] = body["error"]
    return error


def bad_message(answer: httpx.Response, message: str | None = None) -> None:
    error = refusal(answer, 400)
    assert error["code"] == "bad_message", error
    assert message is None or error["message"] == message, error


JSON = {"content-type": "application/json"}
MALFORMED = (
    b"{not json",
    b"",
    b"[" * 10_000,
    b'{"name": 1' + b"0" * 5_000 + b"}",
    b'{"name": NaN}',
    b'{"name": Infinity}',
    b"null",
    b'"Ann"',
    b"[]",
    b"\xff\xfe\x00",
    b'{"name": "\\ud800"}',
    b'{"name": "Ann"}{"name": "Bob"}',
    b'{"name": ' + b"[" * 900 + b"]" * 900 + b"}",
)


def test_malformed_json_bodies_are_bad_messages(room: RoomServer) -> None:
    """Each JSON body the parser chokes on, or that is not an object, is a 400 naming
    the problem, never a 500 (deep nesting once failed POST /api/tables with a 500) and
    never the interpreter's words."""
    _, token = room.guest("Ann")
    with room.http(token) as http:
        for path in ("/api/guests", "/api/accounts", "/api/sessions", "/api/tables"):
            for body in MALFORMED:
                answer = http.post(path, content=body, headers=JSON)
                bad_message(answer)
                message = refusal(answer)["message"]
                assert "sys." not in message and "recursion" not in message, (path, message)


def test_a_table_needs_a_json_content_type(room: RoomServer) -> None:
    """Settings sent as text, a form or XML are refused (they were taken as JSON); JSON
    with a charset or a +json type is JSON."""
    _, token = room.guest("Ann")
    settings = b'{"name": "Typed"}'
    with room.http(token) as http:
        for media_type in (
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/xml",
        ):
            bad_message(
                http.post("/api/tables", content=settings, headers={"content-type": media_type}),
                "table settings are JSON: Content-Type: application/json",
            )
        for media_type in ("application/json; charset=utf-8", "application/vnd.api+json"):
            answer = http.post(
                "/api/tables", content=settings, headers={"content-type": media_type}
            )
            assert answer.status_code == 201, answer.text
        for path in ("/api/guests", "/api/sessions"):  # FastAPI reads only JSON bodies
            bad_message(
                http.post(path, content=b"name=Ann", headers={"content-type": "text/plain"})
            )


def test_a_body_sent_in_chunks_is_bounded_too(room: RoomServer) -> None:
    """Without a Content-Length (chunked), a body past 64 KiB was read whole (10 MB made a
    guest); it is refused once it passes the limit, as one with a Content-Length is."""
    _, token = room.guest("Ann")

    def chunks() -> Any:
        yield b'{"name": "Big", "padding": "'
        for _ in range(160):
            yield b"x" * 65_536
        yield b'"}'

    with room.http(token) as http:
        for path in ("/api/guests", "/api/tables", "/api/sessions"):
            answer = http.post(path, content=chunks(), headers=JSON)
            assert answer.request.headers["transfer-encoding"] == "chunked"
            bad_message(answer, f"a request body is at most {MAX_BODY} bytes")
        small = http.post("/api/guests", content=iter([b'{"name": ', b'"Small"}']), headers=JSON)
        assert small.status_code == 201, small.text
        assert http.get("/api/health").json() == {"status": "ok"}


def test_huge_and_odd_query_values(room: RoomServer) -> None:
    """Numbers past any integer, negative, NaN, 8 KB strings, NUL: 400 naming the query
    field, or the refusal the value earns (no such variant, no such card)."""
    _, token = room.guest("Ann")
    table = room.create_table(token, name="Query")["table"]["id"]
    with room.http() as http:
        hands = f"/api/tables/{table}/hands"
        for limit in (str(10**30), "9" * 5_000, "-1", "0", "NaN", "1e3", "", "\x00", "٣"):
            answer = http.get(hands, params={"limit": limit})
            bad_message(answer)
            assert refusal(answer)["message"].startswith("query.limit: "), answer.text
        assert http.get(hands, params={"invite": "x" * 8_000}).json() == {"hands": []}
        bad_message(http.get("/api/hands/x", params={"format": "x" * 8_000}))
        bad_message(http.get("/api/helper", params={"hole": "x" * 8_000}))
        bad_message(http.get("/api/helper", params={"hole": "AsKd5h2c", "board": "\x00"}))
        bad_message(http.get("/api/helper", params={"hole": "AsKd5h2c", "variant": "ö" * 16}))
        for key in ("limit", "format", "invite", "hole"):
            answer = http.get(hands, params={key: ["1", "2"]})  # a key given twice
            assert answer.status_code in (200, 400), answer.text


ODD_PATHS = [
    ("/api/tables/..%2F..%2Fapi%2Fhealth", 404, "not_found"),
    ("/api/tables/%2e%2e", 404, "unknown_table"),
    ("/api/tables/a%2Fb/settle", 404, "not_found"),
    ("/api/tables/%F0%9F%82%A1", 404, "unknown_table"),
    ("/api/tables/%D8%A7%E2%80%AE/hands", 404, "unknown_table"),
    ("/api/tables/%FF%FE/ledger.csv", 404, "unknown_table"),
    ("/api/tables/%00", 404, "unknown_table"),
    ("/api/tables/" + "x" * 4_000, 404, "unknown_table"),
    ("/api/hands/%2e%2e%2f%2e%2e%2fetc%2fpasswd", 404, "not_found"),
    ("/api/hands/..%5C..%5Cwin.ini", 404, "unknown_hand"),
    ("/api/hands/%ED%A0%80", 404, "unknown_hand"),
    ("/api/hands/%F0%9F%98%80", 404, "unknown_hand"),
    ("/api/hands/" + "x" * 65, 400, "bad_message"),
    ("/api/hands/%00", 400, "bad_message"),
    ("/api/hands/a%00b", 400, "bad_message"),
]


def test_odd_path_ids(room: RoomServer) -> None:
    """Unicode, ``../``, bytes that are not UTF-8 and NUL in a path id: the 4xx the id
    earns (a NUL hand id was a 500 on PostgreSQL: its text holds no NUL)."""
    _, token = room.guest("Ann")
    for caller in (None, token):
        with room.http(caller) as http:
            for path, status, code in ODD_PATHS:
                error = refusal(http.get(path), status)
                assert error["code"] == code, (path, error)


def test_a_name_with_a_nul_is_refused_not_a_server_error(room: RoomServer) -> None:
    """Logging in as "a\\x00" was a 500 on PostgreSQL (the query failed); every name
    with a NUL is a 400 now, whatever the database."""
    with room.http() as http:
        for path, body in (
            ("/api/sessions", {"name": "Ann\x00", "password": "secret-pw"}),
            ("/api/accounts", {"name": "Ann\x00", "password": "secret-pw"}),
            ("/api/guests", {"name": "\x00"}),
        ):
            bad_message(http.post(path, json=body))


def test_odd_authorization_headers(room: RoomServer) -> None:
    """An 8 KB token, a scheme other than Bearer, bytes that are not UTF-8: 401."""
    for header in (b"Bearer " + b"x" * 8_000, b"Basic abc", b"Bearer", b"Bearer \xff\xfe"):
        with httpx.Client(base_url=room.url, timeout=10) as http:
            answer = http.get("/api/me/ledger", headers={"authorization": header})
        assert refusal(answer, 401)["code"] == "unauthorized"
