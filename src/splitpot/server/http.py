"""The room's HTTP API (PROTOCOL.md "HTTP"): identities, the lobby, tables, hands and
the ledger. JSON in and out; every error is ``{"error": {"code", "message"}}``."""

from __future__ import annotations

import asyncio
import json
from dataclasses import fields, replace
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field

from splitpot.history import HistoryError
from splitpot.i18n import negotiate, said, words
from splitpot.protocol import ErrorCode, ProtocolError, hand_id, utc_text
from splitpot.room.deal import audited
from splitpot.room.refusals import worded
from splitpot.room.settings import SettingsError, TableSettings, parse_settings, settings_of
from splitpot.server.errors import no_hand, no_table
from splitpot.server.lobby import TableFacts
from splitpot.server.room import Room
from splitpot.store import HandLog, HandSelection, Identity, NotFound, Player
from splitpot.store.clubs import ClubForbidden
from splitpot.store.players import PASSWORD_LENGTHS, check_chosen_name
from splitpot.store.settle import is_fewest

# Every refusal's JSON (PROTOCOL.md): {"error": {"code", "message"}}, nothing more.
_ERROR: dict[str, Any] = {
    "type": "object",
    "required": ["code", "message"],
    "additionalProperties": False,
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
}
_REFUSAL: dict[str, Any] = {
    "application/json": {
        "schema": {
            "type": "object",
            "required": ["error"],
            "additionalProperties": False,
            "properties": {"error": _ERROR},
        }
    }
}


# What any operation may answer besides its success, declared in the OpenAPI document
# (the room answers a bad field 400, never FastAPI's 422), always as JSON: a schema, not
# a model, which FastAPI would declare in the media type of a route's own answers (CSV).
REFUSALS: dict[int | str, dict[str, Any]] = {
    "4XX": {
        "description": "refused, nothing changed: bad_message 400, unauthorized 401, "
        "forbidden 403, unknown_table, unknown_hand and not_found 404, method 405, "
        "name_taken 409, rate_limited 429",
        "content": _REFUSAL,
    },
    500: {"description": "server_error: the room failed; try again", "content": _REFUSAL},
}
router = APIRouter(prefix="/api", responses=REFUSALS)


class CsvResponse(PlainTextResponse):
    media_type = "text/csv"


def settings_body() -> dict[str, Any]:
    """The table settings' JSON, for the OpenAPI document (the body is read by hand:
    parse_settings checks each field's range and refuses unknown ones by name)."""
    kinds = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
    properties = {f.name: {"type": kinds[str(f.type)]} for f in fields(TableSettings)}
    schema = {"type": "object", "properties": properties, "required": ["name"]}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


HAND_LIST: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the table's last hands, newest first, as the caller may see them",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["hands"],
                    "properties": {"hands": {"type": "array", "items": {"type": "object"}}},
                }
            }
        },
    }
}
HAND_TEXT: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the hand: JSON (format=json: splitpot's; ohh: Open Hand History), "
        "or text (pokerstars, phh)",
        "content": {
            "application/json": {"schema": {"type": "object"}},
            "text/plain": {"schema": {"type": "string"}},
        },
    }
}


MAX_HANDS = 50  # hands in one answer of GET /api/tables/{id}/hands (RULES.md 6: the last 50)
MAX_FILE_HANDS = 1000  # hands in one file of GET /api/tables/{id}/hands.txt

# PostgreSQL text holds no NUL character: a name or an id with one is refused here (400),
# before a query with it fails (500).
NO_NUL = r"^[^\x00]*$"


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=64, pattern=NO_NUL)
    password: str = Field(min_length=1, max_length=PASSWORD_LENGTHS[1])


class GuestName(BaseModel):
    name: str = Field(min_length=1, max_length=64, pattern=NO_NUL)


def room_of(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


RoomDep = Annotated[Room, Depends(room_of)]


def address(request: Request) -> str:
    """The caller's address, as the rate limits count it."""
    return request.client.host if request.client else "?"


async def caller(request: Request) -> Player | None:
    """The player of the request's bearer token, or None without one."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise ProtocolError(ErrorCode.UNAUTHORIZED, "Authorization must be 'Bearer TOKEN'")
    player = await room_of(request).db(room_of(request).store.player_for_token, token.strip())
    if player is None:
        raise ProtocolError(ErrorCode.UNAUTHORIZED, "the token is unknown or logged out")
    return player


Caller = Annotated[Player | None, Depends(caller)]


def needs(player: Player | None) -> Player:
    if player is None:
        raise ProtocolError(
            ErrorCode.UNAUTHORIZED, "this needs a session: Authorization: Bearer TOKEN"
        )
    return player


def identity(found: Identity) -> dict[str, Any]:
    player = {"id": str(found.player.id), "name": found.player.name}  # ids are text
    return {"player": player, "token": found.token}


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


@router.post("/guests", status_code=201)
async def new_guest(body: GuestName, room: RoomDep, request: Request) -> dict[str, Any]:
    room.guard.guest_made(address(request))
    check_chosen_name(body.name)
    return identity(await room.db(room.store.create_guest, body.name))


@router.post("/accounts", status_code=201)
async def new_account(body: Credentials, room: RoomDep, request: Request) -> dict[str, Any]:
    room.guard.login_attempt(address(request), body.name)
    check_chosen_name(body.name)
    made = await room.storage.passwords(room.store.create_account, body.name, body.password)
    return identity(made)


@router.post("/sessions")
async def log_in(body: Credentials, room: RoomDep, request: Request) -> dict[str, Any]:
    room.guard.login_attempt(address(request), body.name)
    return identity(await room.storage.passwords(room.store.log_in, body.name, body.password))


@router.delete("/sessions", status_code=204)
async def log_out(room: RoomDep, request: Request, player: Caller) -> Response:
    needs(player)
    token = request.headers["authorization"].partition(" ")[2].strip()
    await room.db(room.store.log_out, token)
    room.routing.end_session(token)  # its live WebSockets too
    return Response(status_code=204)


@router.get("/tables")
async def tables(room: RoomDep) -> dict[str, Any]:
    return {"tables": await room.lobby()}


@router.post("/tables", status_code=201, openapi_extra=settings_body())
async def create_table(request: Request, room: RoomDep, player: Caller) -> dict[str, Any]:
    host = needs(player)
    settings = table_settings(await json_body(request, "table settings"))
    table, invite = await room.create_table(settings, host)
    return {"table": table, "invite": invite}


async def json_body(request: Request, what: str) -> Any:
    """A body read by hand (``what`` it holds, for the refusal), each failure named."""
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if not (media_type == "application/json" or media_type.endswith("+json")):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"{what} are JSON: Content-Type: application/json"
        )
    try:
        return await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"the body is not JSON: {error}") from error
    except RecursionError:  # json's words would name Python's recursion limit
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "the body is JSON nested too deeply") from None
    except ValueError:  # a number past Python's 4300 digits (its words name sys.set_int_...)
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, "the body holds a number of more than 4300 digits"
        ) from None


def table_settings(body: Any) -> TableSettings:
    """A table's settings from a request's JSON, refused naming the bad field."""
    try:
        return parse_settings(body)
    except SettingsError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, worded(error)) from error


async def visible_table(
    room: Room, table_id: str, invite: str | None, player: Player | None, *, closed: bool = False
) -> TableFacts:
    """The table, wherever it runs, if the caller may see it: public, or private with its
    invite (or seated). A private table hidden from the caller is refused as a table that
    does not exist is, so that a stranger cannot tell it is there. ``closed``: a closed
    table too (its history is read)."""
    table = await room.facts(table_id, closed=closed)
    if not await room.may_see(table, invite, player):
        raise no_table(table_id)
    return table


@router.get("/tables/{table_id}")
async def table(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> dict[str, Any]:
    return (await visible_table(room, table_id, invite, player)).summary


@router.post("/tables/{table_id}/reopen")
async def reopen_table(table_id: str, room: RoomDep, player: Caller) -> dict[str, Any]:
    """The host opens a table they closed (or that the room closed, left to its bots)
    again, with its hands and ledger: its summary."""
    return await room.reopen(table_id, needs(player))


@router.post("/tables/{table_id}/copy", status_code=201)
async def copy_table(
    table_id: str, request: Request, room: RoomDep, player: Caller
) -> dict[str, Any]:
    """This week's game from last week's: a new table with the settings the table has now
    (the host's changes too), in its club; a JSON body may change any of them (``name``,
    ``small_blind``...). Only the table's host may copy it, open or closed."""
    host = needs(player)
    source = await room.facts(table_id, closed=True)
    if source.host_id != host.id:
        if not await room.may_see(source, None, host):
            raise no_table(table_id)
        raise ProtocolError(
            ErrorCode.FORBIDDEN, said("only the host of table {table} may do that", table=table_id)
        )
    changes: Any = {}
    if await request.body():
        changes = await json_body(request, "the copy's changes")
        if not isinstance(changes, dict):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, said("the copy's changes are a JSON object"))
    record = await room.db(room.store.table, table_id)
    settings = table_settings(settings_of(record.settings).to_json() | changes)
    club = await room.db(room.store.table_club, table_id)
    if club is None:
        table, invite = await room.create_table(settings, host)
        return {"table": table, "invite": invite}
    # a club's table is copied into the club, private, by one who may open its tables
    try:
        await room.db(room.store.club_command, club.id, host.id, "open_table")
    except ClubForbidden as error:
        raise ProtocolError(ErrorCode.FORBIDDEN, error.said or str(error)) from error
    table, invite = await room.create_table(replace(settings, private=True), host, club=club.id)
    copied = {"table": table["id"], "copy_of": table_id}
    await room.db(room.store.log_club, club.id, host.id, "table_copied", **copied)
    return {"table": table | {"club": {"id": club.id, "name": club.name}}, "invite": invite}


@router.get("/tables/{table_id}/hands", responses=HAND_LIST)
async def table_hands(
    table_id: str,
    room: RoomDep,
    player: Caller,
    request: Request,
    invite: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_HANDS)] = MAX_HANDS,
) -> Response:
    """The table's last ``limit`` finished hands, newest first, as the caller may see
    them: each document built once (off the event loop) and kept."""
    room.guard.hands_read(address(request), listed=True)
    table = await visible_table(room, table_id, invite, player, closed=True)
    # newest first; one more, for the hand in play (it has no record until it ends)
    hands = await room.db(room.store.table_hands, table.id, limit + 1)
    finished = [hand for hand in hands if hand.record is not None][:limit]
    viewer = None if player is None else player.id
    bodies = await room.documents.bodies(finished, viewer, seats=table.seats)
    return Response(b'{"hands":[' + b",".join(bodies) + b"]}", media_type="application/json")


@router.get("/tables/{table_id}/hands.txt", responses=HAND_TEXT)
async def table_hands_file(
    table_id: str,
    room: RoomDep,
    player: Caller,
    request: Request,
    invite: str | None = None,
    format: Annotated[str, Query(pattern="^(pokerstars|ohh)$")] = "pokerstars",
    limit: Annotated[int, Query(ge=1, le=MAX_FILE_HANDS)] = MAX_HANDS,
    since: datetime | None = None,
    until: datetime | None = None,
    mine: bool = False,
) -> Response:
    """One file of the table's finished hands, oldest first, each as the caller may see
    it (as in the list of hands): the last ``limit`` of those started from ``since`` and
    before ``until``; with ``mine``, only those the caller was dealt in (a session).
    PokerStars text, or an OHH file (each hand's object on a line, a blank line between)."""
    room.guard.hands_read(address(request), listed=True)
    table = await visible_table(room, table_id, invite, player, closed=True)
    dealt_in = needs(player).id if mine else None
    wanted = HandSelection(limit, in_utc(since), in_utc(until), dealt_in)
    hands = await room.db(room.store.finished_hands, table.id, wanted)
    viewer = None if player is None else player.id
    try:
        bodies = await room.documents.bodies(hands[::-1], viewer, format, table.seats)
    except HistoryError as error:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f"table {table.id}'s hands cannot be written as {format}: {error}",
        ) from error
    if format == "ohh":
        name, text = f"{table.id}-hands.ohh", b"\n\n".join(bodies) + b"\n"
    else:
        name, text = f"{table.id}-hands.txt", b"".join(bodies)
    download = {"Content-Disposition": f'attachment; filename="{name}"'}
    return PlainTextResponse(text, headers=download)


def in_utc(moment: datetime | None) -> datetime | None:
    """A time of the query; one without a zone is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


@router.get("/tables/{table_id}/audit")
async def table_audit(
    table_id: str,
    room: RoomDep,
    player: Caller,
    request: Request,
    invite: str | None = None,
    session: Annotated[int | None, Query(ge=1, le=10**9)] = None,
) -> dict[str, Any]:
    """FAIRNESS.md "The end-of-session audit": every salt of the hands of an ended
    session (the last, or ``session``), so that anyone can check that each hand's 52
    commitments were 52 different cards (``splitpot verify --audit``)."""
    room.guard.hands_read(address(request), listed=True)
    table = await visible_table(room, table_id, invite, player, closed=True)
    if not table.summary.get("audit"):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f"table {table.id} was made without the audit: its sessions publish no salts",
        )
    ended = await room.db(room.store.audits, table.id)
    if not ended:
        raise ProtocolError(
            ErrorCode.NOT_NOW,
            f"no session of table {table.id} has ended yet: the salts are published when "
            "the host ends the session or the table closes",
        )
    number = session or len(ended)
    if number > len(ended):
        raise ProtocolError(
            ErrorCode.NOT_NOW,
            f"session {number} of table {table.id} has not ended (sessions 1 to {len(ended)} have)",
        )
    audit, hands = await room.db(room.store.audited_hands, table.id, number)
    audited_hands = await asyncio.to_thread(
        lambda: [audited(h.id, h.number, h.status.value, h.fairness) for h in hands]
    )
    return {
        "table": table.id,
        "session": audit.number,
        "sessions": [
            {
                "session": a.number,
                "first_hand": hand_id(table.id, a.first_hand),
                "last_hand": hand_id(table.id, a.last_hand),
                "published": utc_text(a.published_at),
            }
            for a in ended
        ],
        "hands": audited_hands,
    }


@router.get("/hands/{hand_id}", responses=HAND_TEXT)
async def hand(
    hand_id: Annotated[str, Path(min_length=1, max_length=64, pattern=NO_NUL)],
    room: RoomDep,
    player: Caller,
    request: Request,
    format: Annotated[str, Query(pattern="^(json|ohh|pokerstars|phh|events)$")] = "json",
    invite: str | None = None,
) -> Response:
    """One finished hand as the caller may see it (``events``: as the frames they would
    have received live); a hand of a table the caller may not see is refused as an
    unknown hand is."""
    room.guard.hands_read(address(request), listed=False)
    try:
        stored = await room.db(room.store.hand, hand_id)
    except NotFound as error:
        raise no_hand(hand_id) from error
    try:
        table = await visible_table(room, stored.table_id, invite, player, closed=True)
    except ProtocolError as error:  # a table hidden from the caller hides its hands
        if error.code is ErrorCode.UNKNOWN_TABLE:
            raise no_hand(hand_id) from error
        raise
    if stored.record is None:
        raise ProtocolError(ErrorCode.UNKNOWN_HAND, f"hand {hand_id} is still being played")
    viewer = None if player is None else player.id
    if format == "events":

        async def load() -> tuple[HandLog, dict[str, int]]:
            log = await room.db(room.store.hand_log, stored.id)
            return log, await room.db(room.store.seated_at, table.id, stored.started_at)

        asked = words(negotiate(request.headers.get("accept-language")))
        body = await room.documents.events(stored, viewer, table.host_id, load, asked)
        return Response(body, media_type="application/json")
    try:
        [body] = await room.documents.bodies([stored], viewer, format, table.seats)
    except HistoryError as error:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"hand {hand_id} cannot be written as {format}: {error}"
        ) from error
    if format in ("json", "ohh"):
        return Response(body, media_type="application/json")
    return PlainTextResponse(body)


@router.get("/me/ledger")
async def my_ledger(room: RoomDep, player: Caller) -> Any:
    return await room.db(room.store.ledger_for, needs(player).id)


@router.get("/tables/{table_id}/ledger.csv", response_class=CsvResponse)
async def table_ledger(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> CsvResponse:
    table = await visible_table(room, table_id, invite, player, closed=True)
    text = await room.db(room.store.table_ledger_csv, table.id)
    return CsvResponse(text)


@router.get("/tables/{table_id}/sessions.csv", response_class=CsvResponse)
async def table_sessions(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> CsvResponse:
    """PokerNow's ledger CSV: one row per sit-down at the table (PROTOCOL.md "The
    ledger"), beside the journal of every entry (``ledger.csv``)."""
    table = await visible_table(room, table_id, invite, player, closed=True)
    text = await room.db(room.store.table_sit_downs_csv, table.id)
    return CsvResponse(text)


@router.get("/tables/{table_id}/settle")
async def settle(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> dict[str, Any]:
    table = await visible_table(room, table_id, invite, player, closed=True)
    payments = await room.db(room.store.settle, table.id)
    return {
        "payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in payments],
        "fewest": is_fewest(payments),
    }
