"""The room's HTTP API for statistics (issue 24; docs/protocol.md "Statistics"): each
player's figures over a table's session, a whole table or all their hands, from the
stored hand records (``history.stats``), as the caller may know them."""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request

from splitpot.history.splitpot_json import from_json
from splitpot.history.stats import (
    HandFigures,
    PlayerFigures,
    Ratio,
    Statistics,
    StatsHand,
    hand_figures,
    total,
    viewer_key,
)
from splitpot.i18n import said
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.server.hands import PLAYER_IDS
from splitpot.server.http import (
    REFUSALS,
    Caller,
    RoomDep,
    address,
    needs,
    room_of,
    visible_table,
)
from splitpot.server.room import Room
from splitpot.store import NotFound, Player, StoredHand
from splitpot.store.players import LARGEST_ID

router = APIRouter(prefix="/api", responses=REFUSALS)

MOST_HANDS = 1000  # hands read for one answer: the newest, said in the answer (``capped``)
KEPT_HANDS = 5_000  # hands' figures kept for the next answers (a few kilobytes each)
PLAYER_ID = Path(ge=1, le=LARGEST_ID)


@router.get("/tables/{table_id}/stats")
async def table_stats(
    table_id: str,
    room: RoomDep,
    player: Caller,
    request: Request,
    invite: str | None = None,
    scope: Literal["session", "table"] = "session",
) -> dict[str, Any]:
    """The table's figures per player: the ledger's over every sit-down (``players``, as
    before), ``you``, the caller's player id, so a page marks its own row; and over the
    hands of ``scope`` (the session, or the whole table) each player's ``figures`` and
    ``chips`` (their stack after each of those hands they were dealt), by player id."""
    room.guard.hands_read(address(request), listed=True)
    table = await visible_table(room, table_id, invite, player, closed=True)
    ledger = await room.db(room.store.table_stats, table.id)
    first = 1 if scope == "table" else await room.db(room.store.session_start, table.id)
    hands = await room.db(room.store.hands_from, table.id, first, MOST_HANDS + 1)
    viewer = None if player is None else player.id
    figures = await _figures(request, hands[:MOST_HANDS], viewer)
    return {
        "table": table.id,
        "hands": ledger.hands,
        "rake": ledger.rake,
        "you": None if viewer is None else str(viewer),
        "players": [
            {
                "player": str(p.player_id),
                "name": p.name,
                "hands": p.hands,
                "won": p.won,
                "bought_in": p.bought_in,
                "cashed_out": p.cashed_out,
                "stack": p.stack,
                "net": p.net,
            }
            for p in ledger.players
        ],
        "scope": scope,
        "figures": {str(p): _player_json(f) for p, f in figures.players.items()},
        "chips": {
            str(p): [[point.hand, point.stack] for point in points]
            for p, points in figures.chips.items()
        },
        "first_hand": first,
        "hand_numbers": sorted(h.number for h in hands[:MOST_HANDS]),
        **_read(hands),
    }


@router.get("/players/{player_id}/stats")
async def player_stats(
    player_id: Annotated[int, PLAYER_ID], room: RoomDep, player: Caller, request: Request
) -> dict[str, Any]:
    """A player's figures over every hand they were dealt at the tables the caller may
    see (``visible_table`` with no invite: a private table only for its host and its
    players; never one whose host banned the caller), the newest ``MOST_HANDS``."""
    room.guard.hands_read(address(request), listed=True)
    try:
        tables = await room.db(room.store.player_tables, player_id)
    except NotFound as error:
        raise ProtocolError(
            ErrorCode.NOT_FOUND, said("there is no player {player}", player=player_id)
        ) from error
    seen = [table for table in tables if await _may_see(room, table, player)]
    return await _all_time(request, player_id, seen, None if player is None else player.id)


@router.get("/me/stats")
async def my_stats(room: RoomDep, player: Caller, request: Request) -> dict[str, Any]:
    """The caller's own figures over every hand they were dealt, the newest
    ``MOST_HANDS``."""
    me = needs(player)
    room.guard.hands_read(address(request), listed=True)
    tables = await room.db(room.store.player_tables, me.id)
    return await _all_time(request, me.id, tables, me.id)


async def _may_see(room: Room, table_id: str, player: Player | None) -> bool:
    """Whether the caller may see the table (``http.visible_table``: the room's rule)."""
    try:
        await visible_table(room, table_id, None, player, closed=True)
    except ProtocolError:
        return False
    return True


async def _all_time(
    request: Request, player_id: int, tables: Sequence[str], viewer: int | None
) -> dict[str, Any]:
    """The answer of a player's figures over their hands at ``tables``."""
    room = room_of(request)
    name = (await room.db(room.store.player, player_id)).name
    hands = await room.db(room.store.player_hands, player_id, tables, MOST_HANDS + 1)
    figures = await _figures(request, hands[:MOST_HANDS], viewer)
    return {
        "player": str(player_id),
        "name": name,
        "tables": len(tables),
        "figures": _player_json(figures.players.get(player_id, PlayerFigures())),
        **_read(hands),
    }


class FiguresKept:
    """Each finished hand's figures, kept by (hand id, ``viewer_key``): a finished hand
    never changes, so its figures are worked out once for each viewer who played it and
    once for everyone else; the least recently used go past ``most``."""

    def __init__(self, most: int = KEPT_HANDS) -> None:
        self._most = most
        self._kept: OrderedDict[tuple[str, int | None], HandFigures] = OrderedDict()
        self._lock = threading.Lock()  # the figures are worked out in worker threads

    def total(self, hands: Sequence[StoredHand], viewer: int | None) -> Statistics:
        """The figures of stored hands (newest first) added up; those not kept yet
        replayed (in the caller's thread: not the event loop's). A record kept before
        the room noted its players' ids is left out."""
        found = []
        for hand in reversed(hands):
            ids = tuple((hand.record or {}).get(PLAYER_IDS, ()))
            if hand.record is None or not ids:
                continue
            key = (hand.id, viewer_key(ids, viewer))
            with self._lock:
                figures = self._kept.get(key)
                if figures is not None:
                    self._kept.move_to_end(key)
            if figures is None:
                figures = hand_figures(StatsHand(from_json(hand.record), ids, hand.number), viewer)
                with self._lock:
                    self._kept[key] = figures
                    while len(self._kept) > self._most:
                        self._kept.popitem(last=False)
            found.append(figures)
        return total(found)


async def _figures(request: Request, hands: Sequence[StoredHand], viewer: int | None) -> Statistics:
    """The figures of stored hands (newest first), worked out off the event loop, each
    hand's kept for the room's next answers."""
    kept: FiguresKept | None = getattr(request.app.state, "stats_figures", None)
    if kept is None:
        kept = request.app.state.stats_figures = FiguresKept()
    return await asyncio.to_thread(kept.total, hands, viewer)


def _read(hands: Sequence[StoredHand]) -> dict[str, Any]:
    """How many hands the figures read, and whether older ones were left out."""
    return {
        "hands_read": min(len(hands), MOST_HANDS),
        "capped": len(hands) > MOST_HANDS,
        "most": MOST_HANDS,
    }


def _player_json(figures: PlayerFigures) -> dict[str, Any]:
    """One player's figures as JSON."""
    return {
        "hands": figures.hands,
        "vpip": _ratio(figures.vpip),
        "pfr": _ratio(figures.pfr),
        "three_bet": _ratio(figures.three_bet),
        "wtsd": _ratio(figures.wtsd),
        "wsd": _ratio(figures.wsd),
        "scoops": _ratio(figures.scoops),
        "high_halves": figures.high_halves,
        "low_halves": figures.low_halves,
        "quartered": figures.quartered,
        "low_made": _ratio(figures.low_made),
        "net": figures.net,
        "net_bb": float(round(figures.net_bb, 2)),
    }


def _ratio(ratio: Ratio) -> dict[str, Any]:
    return {"made": ratio.made, "of": ratio.of, "percent": ratio.percent}
