"""The clubs' weekly games (issue 24), opened when due: every ``schedule_seconds`` each
process looks for the games whose opening has come (by the store's clock) and claims each
in the store, moving it on a week in one conditional UPDATE; the one process whose claim
holds opens the game's table. An opening missed by less than ``LATE`` (the room was
stopped) is made late; an older one is skipped, said in the club's log."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from splitpot.room.settings import TableSettings, settings_of
from splitpot.server.errors import refusal
from splitpot.store import Player, Store, iso_time
from splitpot.store.club_games import ClubGame

log = logging.getLogger("splitpot.room")
T = TypeVar("T")

LATE = timedelta(hours=1)  # an opening missed by less is made late; by more, skipped


class Opener(Protocol):
    """What the schedule needs of the room: the store, and to open a club's table."""

    store: Store
    closing: bool

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    async def create_table(
        self, settings: TableSettings, host: Player, *, house: bool = False, club: str | None = None
    ) -> tuple[dict[str, Any], str | None]: ...


async def keep_schedule(room: Opener, every: float) -> None:
    """Open the games due, now and every ``every`` seconds, until the room closes."""
    while not room.closing:
        try:
            await open_due(room)
        except Exception:  # the next look tries again
            log.exception("the weekly games could not be opened")
        await asyncio.sleep(every)


async def open_due(room: Opener) -> None:
    """Claim every game due and open its table (or skip an opening missed too long ago)."""
    now = room.store.now()
    for game in await room.db(room.store.due_games, now):
        following = game.when.next_after(now)
        if not await room.db(room.store.claim_game, game.id, game.next_at, following):
            continue  # another process took it
        if now - game.next_at >= LATE:
            await room.db(room.store.log_game, game.id, "game_missed", at=iso_time(game.next_at))
        else:
            await open_game(room, game)


def table_name(game: ClubGame) -> str:
    """The game's name and the opening's date in its zone: "Friday O8 — 2026-12-04"."""
    day = game.when.local_date(game.next_at)
    return f"{game.settings['name']} — {day.isoformat()}"


async def open_game(room: Opener, game: ClubGame) -> None:
    """This week's table of the game, from its settings, hosted by its host; the club's
    log says so, or why it could not open (its host's limits...)."""
    name = table_name(game)
    settings = replace(settings_of(game.settings), name=name, private=True)
    try:
        host = await room.db(room.store.player, game.host_id)
        table, _ = await room.create_table(settings, host, club=game.club_id)
    except Exception as error:  # told in the club's log; the next week tries again
        log.warning("weekly game %s did not open: %s", game.id, error)
        failed = refusal(error).message
        await room.db(room.store.log_game, game.id, "game_failed", error=failed)
        return
    await room.db(room.store.log_game, game.id, "game_opened", table=table["id"], name=name)
