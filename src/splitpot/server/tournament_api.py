"""The room's HTTP API for tournaments (RULES.md 8; docs/protocol.md "Tournaments"):
make one, list them, read its lobby, register and unregister, start a sit-and-go, and
its results as JSON and CSV. The store checks each registration in the transaction that
takes the buy-in; the director (``server/tournaments.py``) does the rest."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from splitpot.i18n import said
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.room.director import Status
from splitpot.room.refusals import worded
from splitpot.room.settings import SettingsError
from splitpot.room.tournament_lobby import lobby_json
from splitpot.room.tournament_settings import (
    Registration,
    TournamentSettings,
    parse_tournament,
    settings_from_json,
)
from splitpot.server.http import NO_NUL, REFUSALS, Caller, CsvResponse, RoomDep, json_body, needs
from splitpot.server.room import BOT_NAMES, Room
from splitpot.store import NotFound, Player, StoreError, iso_time
from splitpot.store.values import TournamentRecord

router = APIRouter(prefix="/api", responses=REFUSALS)
T = TypeVar("T")
LARGEST_ID = 2**31 - 1
TournamentId = Annotated[int, Path(ge=1, le=LARGEST_ID)]
Invite = Annotated[str | None, Query(max_length=64, pattern=NO_NUL)]  # a private one's


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: str | None = Field(default=None, min_length=1, max_length=64, pattern=NO_NUL)


async def db(room: Room, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A store call for a tournament, its refusals in the protocol's codes."""
    try:
        return await room.db(call, *args, **kwargs)
    except NotFound as error:
        raise ProtocolError(ErrorCode.NOT_FOUND, error.said or str(error)) from error
    except StoreError as error:
        raise ProtocolError(ErrorCode.NOT_NOW, error.said or str(error)) from error


def summary_json(record: TournamentRecord) -> dict[str, Any]:
    """A tournament as the list of tournaments shows it."""
    settings = record.settings
    return {
        "id": str(record.id),
        "name": record.name,
        "kind": settings["kind"],
        "status": record.status,
        "variant": settings["variant"],
        "structure": settings["structure"],
        "seats": settings["seats"],
        "buy_in": settings["buy_in"],
        "fee": settings["fee"],
        "entries": record.entries,
        "most_entrants": settings["most_entrants"],
        "prize_pool": record.pool,
        "start_at": None if record.start_at is None else iso_time(record.start_at),
        "private": record.private,
        "club": record.club_id,
    }


@router.post("/tournaments", status_code=201)
async def create_tournament(request: Request, room: RoomDep, player: Caller) -> dict[str, Any]:
    """A new tournament, its host the caller; a private one (``registration`` invite) with
    its invite code; a sit-and-go's bots registered at once (docs/protocol.md)."""
    host = needs(player)
    return await _create(await json_body(request, "tournament settings"), room, host)


async def _create(request_body: Any, room: Room, host: Player) -> dict[str, Any]:
    club = None
    if isinstance(request_body, dict) and "club" in request_body:
        request_body = dict(request_body)
        club = request_body.pop("club")
        if not isinstance(club, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, said("club must be a club's id"))
    try:
        settings = parse_tournament(request_body, room.store.now())
    except SettingsError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, worded(error)) from error
    if settings.registration is Registration.CLUB and club is None:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, said("registration club needs the club's id (club)")
        )
    if club is not None:
        await _check_manager(room, club, host)
    invite = settings.registration is Registration.INVITE
    record, code = await db(room, room.store.create_tournament, settings, host.id, club, invite)
    await _register_bots(room, record.id, settings)
    await room.tournaments.take(record.id)
    return {"tournament": summary_json(record), "invite": code}


async def _check_manager(room: Room, club: str, player: Player) -> None:
    """Only a club's owner or managers make its tournaments."""
    try:
        found = await room.db(room.store.club, club, player.id)
    except StoreError as error:
        raise ProtocolError(ErrorCode.UNKNOWN_CLUB, error.said or str(error)) from error
    if found.role is None or found.role.value not in ("owner", "manager"):
        raise ProtocolError(
            ErrorCode.FORBIDDEN, said("only the club's owner and managers make its tournaments")
        )


async def _register_bots(room: Room, tournament_id: int, settings: TournamentSettings) -> None:
    """The tournament's bots (a practice alone): guests of their own, registered."""
    names = random.sample(BOT_NAMES, len(BOT_NAMES))
    for number in range(settings.bots):
        name, round_ = names[number % len(names)], number // len(names)
        bot = (await room.db(room.store.create_guest, bot_name(name, round_))).player
        await db(room, room.store.register, tournament_id, bot.id, bot=True, late_open=False)


def bot_name(name: str, round_: int) -> str:
    """``Ada (bot)``, then ``Ada 2 (bot)``... for a field of more bots than names."""
    return f"{name} (bot)" if round_ == 0 else f"{name} {round_ + 1} (bot)"


@router.get("/tournaments")
async def tournaments(room: RoomDep, finished: Annotated[bool, Query()] = False) -> dict[str, Any]:
    """The public tournaments (``finished``: the ended ones too)."""
    found = await db(room, room.store.list_tournaments, finished)
    return {"tournaments": [summary_json(t) for t in found if not t.private]}


async def visible(
    room: Room, tournament_id: int, player: Player | None, invite: str | None
) -> TournamentRecord:
    """The tournament, if the caller may see it: a public one; a private one with its
    invite, or to its host and its entrants."""
    record = await db(room, room.store.tournament, tournament_id)
    if record.private and (player is None or player.id != record.host_id):
        entered = player is not None and await room.db(
            room.store.is_entrant, tournament_id, player.id
        )
        if not entered and invite:
            entered = await room.db(room.store.check_tournament_invite, tournament_id, invite)
        if not entered:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                said("there is no tournament {tournament}", tournament=tournament_id),
            )
    return record


@router.get("/tournaments/{tournament_id}")
async def tournament_lobby(
    tournament_id: TournamentId,
    room: RoomDep,
    player: Caller,
    invite: Invite = None,
) -> dict[str, Any]:
    record = await visible(room, tournament_id, player, invite)
    state = await db(room, room.store.tournament_state, tournament_id)
    results = await db(room, room.store.tournament_results, tournament_id)
    lobby = lobby_json(
        state,
        started_at=record.started_at,
        finished_at=record.finished_at,
        prizes={r.player_id: r.prize for r in results},
        now=room.store.now(),
    )
    entered = player is not None and any(e.player == player.id for e in state.entrants)
    return (
        summary_json(record)
        | lobby
        | {
            "private": record.private,
            "club": record.club_id,
            "host": str(record.host_id),
            "registered": entered,
        }
    )


@router.post("/tournaments/{tournament_id}/register")
async def register(
    tournament_id: TournamentId, room: RoomDep, player: Caller, body: Entry | None = None
) -> dict[str, Any]:
    """Enter: the buy-in and the fee from the player's balance (RULES.md 8)."""
    entrant = needs(player)
    invite = None if body is None else body.invite
    record = await db(room, room.store.tournament, tournament_id)
    settings = settings_from_json(record.settings)
    invited = settings.registration is not Registration.INVITE or entrant.id == record.host_id
    if not invited and invite:
        invited = await room.db(room.store.check_tournament_invite, tournament_id, invite)
    if not invited:
        raise ProtocolError(
            ErrorCode.FORBIDDEN, said("this tournament is entered with its invite code")
        )
    if settings.registration is Registration.CLUB and record.club_id is not None:
        try:
            club = await room.db(room.store.club, record.club_id, entrant.id)
        except StoreError as error:
            raise ProtocolError(ErrorCode.FORBIDDEN, error.said or str(error)) from error
        if club.role is None:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, said("this tournament is for the club's members")
            )
    late = record.status == Status.RUNNING.value and late_open(record, settings, room)
    await db(room, room.store.register, tournament_id, entrant.id, bot=False, late_open=late)
    return {"tournament": summary_json(await db(room, room.store.tournament, tournament_id))}


def late_open(record: TournamentRecord, settings: TournamentSettings, room: Room) -> bool:
    """RULES.md 8: a late registration is open to the end of level ``late_levels``."""
    if not settings.late_levels or record.started_at is None:
        return False
    elapsed = (room.store.now() - record.started_at).total_seconds()
    return settings.schedule.position(elapsed).level < settings.late_levels


@router.post("/tournaments/{tournament_id}/unregister")
async def unregister(tournament_id: TournamentId, room: RoomDep, player: Caller) -> dict[str, Any]:
    """Leave before the start: the buy-in and the fee back."""
    await db(room, room.store.unregister, tournament_id, needs(player).id)
    return {"tournament": summary_json(await db(room, room.store.tournament, tournament_id))}


@router.post("/tournaments/{tournament_id}/start")
async def start(tournament_id: TournamentId, room: RoomDep, player: Caller) -> dict[str, Any]:
    """The host starts it now: a sit-and-go before its seats are full, a scheduled one
    before its time (two entrants at least)."""
    host = needs(player)
    record = await db(room, room.store.tournament, tournament_id)
    if record.host_id != host.id:
        raise ProtocolError(ErrorCode.FORBIDDEN, said("only the tournament's host starts it"))
    await db(room, room.store.start_now, tournament_id)
    return {"tournament": summary_json(await db(room, room.store.tournament, tournament_id))}


@router.get("/tournaments/{tournament_id}/results")
async def results(
    tournament_id: TournamentId,
    room: RoomDep,
    player: Caller,
    invite: Invite = None,
) -> dict[str, Any]:
    """The places so far (all of them once it ended), with their prizes."""
    record = await visible(room, tournament_id, player, invite)
    found = await db(room, room.store.tournament_results, tournament_id)
    return {
        "tournament": summary_json(record),
        "results": [
            {
                "place": r.place,
                "shared": r.shared,
                "player": str(r.player_id),
                "name": r.name,
                "prize": r.prize,
            }
            for r in found
        ],
    }


@router.get("/tournaments/{tournament_id}/results.csv", response_class=CsvResponse)
async def results_csv(
    tournament_id: TournamentId,
    room: RoomDep,
    player: Caller,
    invite: Invite = None,
) -> CsvResponse:
    await visible(room, tournament_id, player, invite)
    return CsvResponse(await db(room, room.store.tournament_results_csv, tournament_id))


__all__ = ["router"]
