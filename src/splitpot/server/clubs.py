"""The room's HTTP API for clubs (issue 24; docs/protocol.md "Clubs"): clubs and their
members, invite codes, the club's lobby and tables, its weekly games, its log and its
ledger. The store checks each command's role in the transaction that does it."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from splitpot.i18n import said
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.room.refusals import worded
from splitpot.room.schedule import ScheduleError, weekly
from splitpot.server.http import (
    NO_NUL,
    REFUSALS,
    Caller,
    RoomDep,
    in_utc,
    json_body,
    needs,
    settings_body,
    table_settings,
)
from splitpot.server.room import Room
from splitpot.store import NotFound, iso_time
from splitpot.store.club_games import ClubGame
from splitpot.store.club_ledger import Span
from splitpot.store.clubs import (
    Club,
    ClubConflict,
    ClubForbidden,
    LogLine,
    Member,
    NoClub,
)
from splitpot.store.settle import is_fewest

router = APIRouter(prefix="/api", responses=REFUSALS)
T = TypeVar("T")

CLUB_ID = re.compile(r"[a-z0-9]{1,16}")  # the store's club ids are 8 of these
LARGEST_ID = 2**31 - 1  # a player's or a game's id fits the database's integer
GAME_NAME = 27  # characters of a game's name: its tables add " — 2026-12-04" (40 in all)


def club_path(club_id: str) -> str:
    """The club's id from the path; one the store never makes is no club (no query)."""
    if not CLUB_ID.fullmatch(club_id):
        raise no_club(club_id)
    return club_id


ClubId = Annotated[str, Depends(club_path)]
PlayerId = Annotated[int, Path(ge=1, le=LARGEST_ID)]
GameId = Annotated[int, Path(ge=1, le=LARGEST_ID)]


def no_club(club: str) -> ProtocolError:
    return ProtocolError(ErrorCode.UNKNOWN_CLUB, said("there is no club {club}", club=repr(club)))


async def db(room: Room, call: Callable[..., T], *args: Any) -> T:
    """A store call for a club, its refusals in the protocol's codes."""
    try:
        return await room.db(call, *args)
    except NoClub as error:
        raise ProtocolError(ErrorCode.UNKNOWN_CLUB, error.said or str(error)) from error
    except ClubForbidden as error:
        raise ProtocolError(ErrorCode.FORBIDDEN, error.said or str(error)) from error
    except ClubConflict as error:
        raise ProtocolError(ErrorCode.NOT_NOW, error.said or str(error)) from error
    except NotFound as error:  # a player id no player has
        raise ProtocolError(ErrorCode.NOT_FOUND, error.said or str(error)) from error


# ------------------------------------------------------------ the JSON


def player_json(player_id: int, name: str) -> dict[str, str]:
    return {"id": str(player_id), "name": name}


def club_json(club: Club) -> dict[str, Any]:
    return {
        "id": club.id,
        "name": club.name,
        "owner": player_json(club.owner_id, club.owner_name),
        "membership": club.membership.value,
        "members": club.members,
        "role": None if club.role is None else club.role.value,
        "created": iso_time(club.created_at),
    }


def member_json(member: Member) -> dict[str, Any]:
    return {
        "player": str(member.player_id),
        "name": member.name,
        "role": member.role.value,
        "since": iso_time(member.since),
    }


def game_json(game: ClubGame) -> dict[str, Any]:
    return {
        "id": str(game.id),
        "weekday": game.when.weekday,
        "time": game.when.time,
        "zone": game.when.zone,
        "settings": game.settings,
        "host": player_json(game.host_id, game.host_name),
        "next": iso_time(game.next_at),
        "table": game.table_id,
        "active": game.active,
    }


def log_json(line: LogLine) -> dict[str, Any]:
    actor = None if line.actor_id is None else player_json(line.actor_id, line.actor_name or "")
    return {
        "id": str(line.id),
        "time": iso_time(line.at),
        "actor": actor,
        "kind": line.kind,
        "fields": line.fields,
    }


# ------------------------------------------------------------ clubs


class NewClub(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64, pattern=NO_NUL)
    membership: str = Field(default="request", max_length=16)


class ClubChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, min_length=1, max_length=64, pattern=NO_NUL)
    membership: str | None = Field(default=None, max_length=16)


class Joining(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(default=None, min_length=1, max_length=64, pattern=NO_NUL)


class RoleChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str = Field(max_length=16)


@router.post("/clubs", status_code=201)
async def create_club(body: NewClub, room: RoomDep, player: Caller) -> dict[str, Any]:
    owner = needs(player)
    club, code = await db(room, room.store.create_club, body.name, body.membership, owner.id)
    return {"club": club_json(club), "invite": code}


@router.get("/clubs")
async def my_clubs(room: RoomDep, player: Caller) -> dict[str, Any]:
    clubs = await db(room, room.store.clubs_of, needs(player).id)
    return {"clubs": [club_json(club) for club in clubs]}


@router.get("/clubs/{club_id}")
async def read_club(club: ClubId, room: RoomDep, player: Caller) -> dict[str, Any]:
    return club_json(await db(room, room.store.club, club, needs(player).id))


@router.patch("/clubs/{club_id}")
async def change_club(
    club: ClubId, body: ClubChange, room: RoomDep, player: Caller
) -> dict[str, Any]:
    """The owner renames the club or changes how one joins."""
    owner = needs(player)
    if body.name is None and body.membership is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, said("a change needs a name or a membership"))
    change = room.store.change_club
    return club_json(await db(room, change, club, owner.id, body.name, body.membership))


@router.post("/clubs/{club_id}/join")
async def join(
    club: ClubId, room: RoomDep, player: Caller, body: Joining | None = None
) -> dict[str, Any]:
    """Join with the invite code, or an open club; ask to join a club by request."""
    code = None if body is None else body.code
    return {"club": club_json(await db(room, room.store.join_club, club, needs(player).id, code))}


@router.post("/clubs/{club_id}/leave", status_code=204)
async def leave(club: ClubId, room: RoomDep, player: Caller) -> Response:
    await db(room, room.store.leave_club, club, needs(player).id)
    return Response(status_code=204)


@router.post("/clubs/{club_id}/invite")
async def new_invite(club: ClubId, room: RoomDep, player: Caller) -> dict[str, Any]:
    """A manager's new invite code; the old one lets no one in any more."""
    return {"invite": await db(room, room.store.new_club_invite, club, needs(player).id)}


# ------------------------------------------------------------ members


@router.get("/clubs/{club_id}/members")
async def members(club: ClubId, room: RoomDep, player: Caller) -> dict[str, Any]:
    found = await db(room, room.store.club_members, club, needs(player).id)
    return {"members": [member_json(member) for member in found]}


@router.post("/clubs/{club_id}/members/{player_id}/approve")
async def approve(
    club: ClubId, player_id: PlayerId, room: RoomDep, player: Caller
) -> dict[str, Any]:
    answer = room.store.answer_club_request
    member = await db(room, answer, club, needs(player).id, player_id, True)
    assert member is not None
    return {"member": member_json(member)}


@router.post("/clubs/{club_id}/members/{player_id}/reject", status_code=204)
async def reject(club: ClubId, player_id: PlayerId, room: RoomDep, player: Caller) -> Response:
    answer = room.store.answer_club_request
    await db(room, answer, club, needs(player).id, player_id, False)
    return Response(status_code=204)


@router.delete("/clubs/{club_id}/members/{player_id}", status_code=204)
async def remove(club: ClubId, player_id: PlayerId, room: RoomDep, player: Caller) -> Response:
    await db(room, room.store.remove_club_member, club, needs(player).id, player_id)
    return Response(status_code=204)


@router.put("/clubs/{club_id}/members/{player_id}/role")
async def set_role(
    club: ClubId, player_id: PlayerId, body: RoleChange, room: RoomDep, player: Caller
) -> dict[str, Any]:
    change = room.store.set_club_role
    member = await db(room, change, club, needs(player).id, player_id, body.role)
    return {"member": member_json(member)}


# ------------------------------------------------------------ the lobby and its tables


@router.get("/clubs/{club_id}/lobby")
async def lobby(club: ClubId, room: RoomDep, player: Caller) -> dict[str, Any]:
    """The club's open tables and its weekly games, for its members."""
    viewer = needs(player)
    table_ids = await db(room, room.store.club_tables, club, viewer.id)
    games = await db(room, room.store.weekly_games, club, viewer.id)
    tables = []
    for table_id in table_ids:
        with contextlib.suppress(ProtocolError):  # closed since
            tables.append((await room.facts(table_id)).summary)
    found = await db(room, room.store.club, club, viewer.id)
    return {
        "club": club_json(found),
        "tables": tables,
        "games": [game_json(game) for game in games],
    }


@router.post("/clubs/{club_id}/tables", status_code=201, openapi_extra=settings_body())
async def open_table(
    club: ClubId, request: Request, room: RoomDep, player: Caller
) -> dict[str, Any]:
    """A manager opens a table of the club, hosted by them (private: the club's)."""
    host = needs(player)
    found = await db(room, room.store.club_command, club, host.id, "open_table")
    settings = replace(table_settings(await json_body(request, "table settings")), private=True)
    table, _ = await room.create_table(settings, host, club=club)
    opened = {"table": table["id"], "name": settings.name}
    await room.db(room.store.log_club, club, host.id, "table_opened", **opened)
    return {"table": table | {"club": {"id": found.id, "name": found.name}}}


# ------------------------------------------------------------ weekly games


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    weekday: Any
    time: Any
    zone: Any
    settings: dict[str, Any]
    host: str | None = Field(default=None, pattern=r"^[1-9][0-9]{0,8}$")  # a player's id


@router.post("/clubs/{club_id}/games", status_code=201)
async def add_game(club: ClubId, body: NewGame, room: RoomDep, player: Caller) -> dict[str, Any]:
    """A manager adds a weekly game: its first opening is the next of its day and time."""
    caller = needs(player)
    try:
        when = weekly(body.weekday, body.time, body.zone)
    except ScheduleError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, worded(error)) from error
    settings = replace(table_settings(body.settings), private=True)
    if len(settings.name) > GAME_NAME:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            said(
                "name: a weekly game's name is at most {most} characters (its tables add the "
                "date), not {name}",
                most=GAME_NAME,
                name=repr(settings.name),
            ),
        )
    host = caller.id if body.host is None else int(body.host)
    next_at = when.next_after(room.store.now())
    add = room.store.add_club_game
    game = await db(room, add, club, caller.id, settings.to_json(), when, host, next_at)
    return {"game": game_json(game)}


@router.delete("/clubs/{club_id}/games/{game_id}", status_code=204)
async def stop_game(club: ClubId, game_id: GameId, room: RoomDep, player: Caller) -> Response:
    await db(room, room.store.stop_club_game, club, needs(player).id, game_id)
    return Response(status_code=204)


# ------------------------------------------------------------ the log and the ledger


@router.get("/clubs/{club_id}/log")
async def club_log(
    club: ClubId,
    room: RoomDep,
    player: Caller,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    lines = await db(room, room.store.club_log, club, needs(player).id, limit)
    return {"log": [log_json(line) for line in lines]}


def span(
    since: datetime | None = None,
    until: datetime | None = None,
    table: Annotated[str | None, Query(max_length=16, pattern=NO_NUL)] = None,
) -> Span:
    """The hands a ledger counts: from ``since``, before ``until`` (no zone: UTC), at
    ``table``."""
    return Span(in_utc(since), in_utc(until), table)


SpanDep = Annotated[Span, Depends(span)]


@router.get("/clubs/{club_id}/ledger")
async def club_ledger(
    club: ClubId, hands: SpanDep, room: RoomDep, player: Caller
) -> dict[str, Any]:
    """The players' results at the club's tables over the hands of the span."""
    found = await db(room, room.store.club_results, club, needs(player).id, hands)
    return {
        "club": club,
        "since": None if hands.since is None else iso_time(hands.since),
        "until": None if hands.until is None else iso_time(hands.until),
        "table": hands.table,
        "hands": found.hands,
        "rake": found.rake,
        "players": [
            {
                "player": str(result.player_id),
                "name": result.name,
                "tables": result.tables,
                "hands": result.hands,
                "net": result.net,
            }
            for result in found.players
        ],
    }


@router.get("/clubs/{club_id}/settle")
async def club_settle(
    club: ClubId, hands: SpanDep, room: RoomDep, player: Caller
) -> dict[str, Any]:
    """Who pays whom to square the results of the span, in the fewest payments."""
    payments = await db(room, room.store.club_settle, club, needs(player).id, hands)
    return {
        "payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in payments],
        "fewest": is_fewest(payments),
    }
