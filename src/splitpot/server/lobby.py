"""A table as the lobby lists it (PROTOCOL.md "table summary"): the protocol's summary,
the one a ``table`` message holds, and what the lobby adds to choose a table by; and the
few facts that decide who may see a table, for a table run here or by another process."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from splitpot.protocol import table_summary
from splitpot.room.host import TableHost
from splitpot.room.settings import settings_of
from splitpot.store import SeatRecord, TableRecord


def summary(host: TableHost) -> dict[str, Any]:
    seated = [p for p in host.table.seats if p is not None]
    return table_summary(host.info(), len(seated)) | {
        "waiting": sum(1 for p in seated if p.owes_blinds or p.sitting_out),
        "bots": sum(1 for o in host.occupants.values() if o.bot is not None),
        "average_pot": sum(host.pots) // len(host.pots) if host.pots else 0,
        "hands_per_hour": host.hands_per_hour(time.monotonic()),
        "waiting_list": len(host.seating.waiting),
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


def facts(host: TableHost) -> TableFacts:
    """A table run by this process, as it is now."""
    players = frozenset(occupant.player_id for occupant in host.occupants.values())
    settings = host.settings
    return TableFacts(
        host.id, settings.private, host.host_id, players, settings.seats, summary(host), host.banned
    )


def stored_facts(
    record: TableRecord,
    seats: Sequence[SeatRecord],
    banned: frozenset[int],
    listed: dict[str, Any] | None,
) -> TableFacts:
    """A table another process runs: the store's record, seats and bans (the system of
    record), and the summary its owner last gave the lobby (or one made from the record)."""
    settings = settings_of(record.settings)
    if listed is None:
        paused = bool(record.settings.get("paused", False))
        table = settings.info(record.id, settings.config(), record.host_id, paused)
        listed = table_summary(table, len(seats))
    players = frozenset(seat.player_id for seat in seats)
    return TableFacts(
        record.id, record.private, record.host_id, players, settings.seats, listed, banned
    )
