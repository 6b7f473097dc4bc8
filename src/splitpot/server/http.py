"""The room's HTTP API (PROTOCOL.md "HTTP"): identities, the lobby, tables, hands and
the ledger. JSON in and out; every error is ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field

from splitpot.evaluate import hand_help
from splitpot.history import HistoryError
from splitpot.protocol import ErrorCode, ProtocolError, encode_help
from splitpot.server.actor import TableActor
from splitpot.server.hands import hand_document
from splitpot.server.lobby import summary
from splitpot.server.room import Room
from splitpot.server.settings import SettingsError, parse_settings
from splitpot.store import Identity, NotFound, Player

router = APIRouter(prefix="/api")


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class GuestName(BaseModel):
    name: str = Field(min_length=1, max_length=64)


def room_of(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


RoomDep = Annotated[Room, Depends(room_of)]


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
async def new_guest(body: GuestName, room: RoomDep) -> dict[str, Any]:
    return identity(await room.db(room.store.create_guest, body.name))


@router.post("/accounts", status_code=201)
async def new_account(body: Credentials, room: RoomDep, request: Request) -> dict[str, Any]:
    room.login_attempt(request.client.host if request.client else "?", body.name)
    return identity(await room.passwords(room.store.create_account, body.name, body.password))


@router.post("/sessions")
async def log_in(body: Credentials, room: RoomDep, request: Request) -> dict[str, Any]:
    room.login_attempt(request.client.host if request.client else "?", body.name)
    return identity(await room.passwords(room.store.log_in, body.name, body.password))


@router.delete("/sessions", status_code=204)
async def log_out(room: RoomDep, request: Request, player: Caller) -> Response:
    needs(player)
    token = request.headers["authorization"].partition(" ")[2].strip()
    await room.db(room.store.log_out, token)
    return Response(status_code=204)


@router.get("/tables")
async def tables(room: RoomDep) -> dict[str, Any]:
    return {
        "tables": [summary(a) for a in room.tables.values() if not a.settings.private],
    }


@router.post("/tables", status_code=201)
async def create_table(request: Request, room: RoomDep, player: Caller) -> dict[str, Any]:
    host = needs(player)
    try:
        body = await request.json()
    except ValueError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"the body is not JSON: {error}") from error
    try:
        settings = parse_settings(body)
    except SettingsError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error)) from error
    actor, invite = await room.create_table(settings, host)
    return {"table": summary(actor), "invite": invite}


async def visible_table(
    room: Room, table_id: str, invite: str | None, player: Player | None
) -> TableActor:
    """The table, if the caller may see it: public, or private with its invite (or seated)."""
    actor = room.actor(table_id)
    if not await room.may_see(actor, invite, player):
        raise ProtocolError(ErrorCode.FORBIDDEN, "a private table needs its invite")
    return actor


@router.get("/tables/{table_id}")
async def table(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> dict[str, Any]:
    return summary(await visible_table(room, table_id, invite, player))


@router.get("/tables/{table_id}/hands")
async def table_hands(
    table_id: str,
    room: RoomDep,
    player: Caller,
    invite: str | None = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 50,
) -> dict[str, Any]:
    actor = await visible_table(room, table_id, invite, player)
    # newest first; one more, for the hand in play (it has no record until it ends)
    hands = await room.db(room.store.table_hands, actor.id, limit + 1)
    finished = [hand for hand in hands if hand.record is not None][:limit]
    viewer = None if player is None else player.id
    seats = actor.settings.seats
    return {"hands": [hand_document(hand, viewer, seats=seats) for hand in finished]}


@router.get("/hands/{hand_id}")
async def hand(
    hand_id: str,
    room: RoomDep,
    player: Caller,
    format: Annotated[str, Query(pattern="^(json|pokerstars|phh)$")] = "json",
    invite: str | None = None,
) -> Any:
    try:
        stored = await room.db(room.store.hand, hand_id)
    except NotFound as error:
        raise ProtocolError(ErrorCode.UNKNOWN_HAND, f"there is no hand {hand_id!r}") from error
    actor = await visible_table(room, stored.table_id, invite, player)
    if stored.record is None:
        raise ProtocolError(ErrorCode.UNKNOWN_HAND, f"hand {hand_id} is still being played")
    viewer = None if player is None else player.id
    try:
        document = hand_document(stored, viewer, format, seats=actor.settings.seats)
    except HistoryError as error:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"hand {hand_id} cannot be written as {format}: {error}"
        ) from error
    return document if format == "json" else PlainTextResponse(document["text"])


@router.get("/helper")
async def helper(
    hole: Annotated[str, Query(max_length=64)],
    board: Annotated[str, Query(max_length=64)] = "",
    variant: Annotated[str, Query(max_length=16)] = "o8",
) -> Any:
    """The hand helper: ``hole``'s best high and low on ``board`` (cards as text, "AsKd5h2c").
    Pure arithmetic on cards the caller already sees: no table, no session."""
    try:
        return encode_help(hand_help(variant, hole, board))
    except ValueError as error:  # a bad card, count or variant
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error)) from error


@router.get("/me/ledger")
async def my_ledger(room: RoomDep, player: Caller) -> Any:
    return await room.db(room.store.ledger_for, needs(player).id)


@router.get("/tables/{table_id}/ledger.csv")
async def table_ledger(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> PlainTextResponse:
    actor = await visible_table(room, table_id, invite, player)
    text = await room.db(room.store.table_ledger_csv, actor.id)
    return PlainTextResponse(text, media_type="text/csv")


@router.get("/tables/{table_id}/settle")
async def settle(
    table_id: str, room: RoomDep, player: Caller, invite: str | None = None
) -> dict[str, Any]:
    actor = await visible_table(room, table_id, invite, player)
    payments = await room.db(room.store.settle, actor.id)
    return {"payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in payments]}
