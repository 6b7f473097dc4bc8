"""A tournament's lobby as the protocol's JSON (docs/protocol.md "Tournaments"): its
entrants and their chips, the players left and the average stack, the level and the time
to the next, the prize pool and the prizes by place, each table to watch."""

from __future__ import annotations

from datetime import datetime, timedelta

from splitpot.protocol import JsonObject, utc_text
from splitpot.room.director import Entrant, Status, TournamentState
from splitpot.tournament.levels import LevelClock, Position


def clock_json(state: TournamentState, started_at: datetime | None, now: datetime) -> JsonObject:
    """The level now, by minutes from the start (by hands, each table keeps its own: the
    first level until a table says more), and when it changes."""
    schedule = state.settings.schedule
    position = Position(0, False, None)
    changes_at: str | None = None
    if started_at is not None and schedule.clock is LevelClock.MINUTES:
        position = schedule.position(max(0.0, (now - started_at).total_seconds()))
        if position.remaining is not None:
            changes_at = utc_text(now + timedelta(seconds=float(position.remaining)))
    level = schedule.level(position.level)
    return {
        "level": position.level + 1,
        "clock": schedule.clock.value,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "on_break": position.on_break,
        "changes_at": changes_at,
    }


def entrant_json(entrant: Entrant, numbers: dict[str, int]) -> JsonObject:
    return {
        "player": str(entrant.player),
        "name": entrant.name,
        "bot": entrant.bot,
        "chips": entrant.chips if entrant.in_play else 0,
        "table": entrant.table,
        "table_number": None if entrant.table is None else numbers.get(entrant.table),
        "seat": None if entrant.seat is None else entrant.seat + 1,
        "place": entrant.place,
        "out": entrant.out_hand is not None,  # the winner is placed, never out
    }


def lobby_json(
    state: TournamentState,
    *,
    started_at: datetime | None,
    finished_at: datetime | None,
    prizes: dict[int, int],
    now: datetime,
) -> JsonObject:
    """The lobby of the tournament as anyone who may see it sees it; ``prizes``: each
    placed player's prize."""
    settings = state.settings
    numbers = {t.id: t.number for t in state.tables}
    left = [e for e in state.entrants if e.in_play]
    chips = sum(e.chips for e in left)
    entrants = sorted(
        state.entrants,
        key=lambda e: (not e.in_play, -e.chips if e.in_play else e.place or 0, e.name),
    )
    entrants_count = max(state.entries, 2)
    places = settings.payouts.prizes(state.pool, entrants_count)
    seated = {t.number: 0 for t in state.tables}
    for entrant in left:
        if entrant.table in numbers:
            seated[numbers[entrant.table]] += 1
    return {
        "id": str(state.id),
        "name": settings.name,
        "kind": settings.kind.value,
        "status": state.status.value,
        "settings": settings.to_json(),
        "start_at": None if state.start_at is None else utc_text(state.start_at),
        "started_at": None if started_at is None else utc_text(started_at),
        "finished_at": None if finished_at is None else utc_text(finished_at),
        "entries": state.entries,
        "players_left": len(left) if state.status is not Status.REGISTERING else state.entries,
        "average_stack": chips // len(left) if left and chips else 0,
        "prize_pool": state.pool,
        "fee": settings.fee,
        "payouts": [
            {"place": place, "prize": prize} for place, prize in enumerate(places, start=1)
        ],
        "level": clock_json(state, started_at, now),
        "hand_for_hand": state.hand_for_hand,
        "entrants": [entrant_json(e, numbers) | {"prize": prizes.get(e.player)} for e in entrants],
        "tables": [
            {"id": t.id, "number": t.number, "players": seated[t.number], "broken": t.broken}
            for t in sorted(state.tables, key=lambda t: t.number)
        ],
    }
