"""A table as the lobby lists it (PROTOCOL.md "table summary"): the protocol's summary,
the one a ``table`` message holds, and what the lobby adds to choose a table by; and the
few facts that decide who may see a table, for a table run here or by another process."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from splitpot.protocol import table_summary
from splitpot.server.frames import info, table_info
from splitpot.server.settings import settings_of
from splitpot.store import Seat
from splitpot.store import Table as TableRecord

if TYPE_CHECKING:
    from splitpot.server.actor import TableActor


def summary(actor: TableActor) -> dict[str, Any]:
    seated = [p for p in actor.table.seats if p is not None]
    hour_ago = time.time() - 3600
    return table_summary(info(actor), len(seated)) | {
        "waiting": sum(1 for p in seated if p.owes_blinds or p.sitting_out),
        "bots": sum(1 for o in actor.occupants.values() if o.bot is not None),
        "average_pot": sum(actor.pots) // len(actor.pots) if actor.pots else 0,
        "hands_per_hour": sum(1 for t in actor.hand_times if t >= hour_ago),
    }


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the HTTP API needs of a table, wherever it runs: who may see it, its size,
    and its lobby summary."""

    id: str
    private: bool
    host_id: int
    players: frozenset[int]  # the players seated
    seats: int
    summary: dict[str, Any]
    banned: frozenset[int] = frozenset()  # the players its host banned


def facts(actor: TableActor) -> TableFacts:
    """A table run by this process, as it is now."""
    players = frozenset(occupant.player_id for occupant in actor.occupants.values())
    settings = actor.settings
    return TableFacts(
        actor.id,
        settings.private,
        actor.host_id,
        players,
        settings.seats,
        summary(actor),
        actor.banned,
    )


def stored_facts(
    record: TableRecord,
    seats: Sequence[Seat],
    banned: frozenset[int],
    listed: dict[str, Any] | None,
) -> TableFacts:
    """A table another process runs: the store's record, seats and bans (the system of
    record), and the summary its owner last gave the lobby (or one made from the record)."""
    settings = settings_of(record.settings)
    if listed is None:
        paused = bool(record.settings.get("paused", False))
        table = table_info(record.id, settings, settings.config(), record.host_id, paused)
        listed = table_summary(table, len(seats))
    players = frozenset(seat.player_id for seat in seats)
    return TableFacts(
        record.id, record.private, record.host_id, players, settings.seats, listed, banned
    )
