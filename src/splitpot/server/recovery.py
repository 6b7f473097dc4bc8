"""Bringing a table back after a restart or a crash: what the store kept, read here and
handed to the pure restore of ``room/recovery.py`` (a hand in play resumed, or called off
with every bet returned; the seats as the store has them); then the store's part of it
(the hand called off, the leavers cashed out) and the table's actor."""

from __future__ import annotations

from typing import Any

from splitpot.bots import make_bot
from splitpot.fair import GENESIS
from splitpot.room.effects import Presence
from splitpot.room.host import STACK_EDITS, HostOptions, Steps
from splitpot.room.recovery import KeptSeat, KeptTable, LastHand, rebuild, restore
from splitpot.room.settings import settings_of
from splitpot.server.actor import TableActor, TableShell
from splitpot.server.hands import CHAIN
from splitpot.store import HandStatus, SeatRecordStatus, TableRecord

CHAIN_LOOKBACK = 50  # hands looked back through for the last record (past cancelled ones)


async def restore_table(
    room: TableShell, record: TableRecord, options: HostOptions
) -> tuple[TableActor, Steps | None]:
    """The actor of a stored table, and the steps it begins with (a hand its log shows
    over whose result the crash kept from the store)."""
    store = room.store
    latest = await _last_hand(room, record.id)
    rebuilt = rebuild(latest, settings_of(record.settings))
    if rebuilt.call_off is not None:
        await room.db(store.cancel_hand, rebuilt.call_off)
    tournament = await room.tournaments.play(record)
    bots = set(record.settings.get("bot_players", [])) | (
        set() if tournament is None else tournament.bots
    )
    seats = [
        KeptSeat(
            seat.seat - 1,
            seat.player_id,
            seat.name,
            seat.chips,
            None if seat.status is SeatRecordStatus.PLAYING else Presence(seat.status.value),
            make_bot("sensible", seat.name) if seat.player_id in bots else None,
        )
        for seat in await room.db(store.seats, record.id)
    ]
    kept = KeptTable(
        record.id,
        settings_of(record.settings),
        record.host_id,
        paused=bool(record.settings.get("paused", False)),
        house=bool(record.settings.get("house")),
        banned=await room.db(store.bans, record.id),
        stack_edits={
            int(player): (int(chips), int(author))
            for player, (chips, author) in record.settings.get(STACK_EDITS, {}).items()
        },
        tournament=tournament,
    )
    restored = restore(kept, rebuilt, seats, options)
    for leaver in restored.cash_out:  # their hand ended while they were leaving
        await room.db(store.leave, record.id, leaver.player_id)
    host = restored.host
    actor = TableActor(room, host, await _chain_head(room, record.id))
    unfinished = rebuilt.resumed is not None and host.table.hand is None
    if unfinished:
        return actor, host.finish_restored()
    # edits the host made in a hand that ended before the crash: due now
    return actor, None if host.table.hand is not None else host.settle_stack_edits()


async def _last_hand(room: TableShell, table_id: str) -> LastHand | None:
    latest = await room.db(room.store.table_hands, table_id, 1)
    if not latest:
        return None
    hand = await room.db(room.store.hand_log, latest[0].id)
    actions = tuple((a.seat, a.kind, a.amount) for a in hand.actions)
    setup: dict[str, Any] = hand.setup
    return LastHand(
        hand.id,
        hand.number,
        hand.serial,
        hand.started_at,
        playing=hand.status is HandStatus.PLAYING,
        cancelled=hand.status is HandStatus.CANCELLED,
        setup=setup,
        actions=actions,
    )


async def _chain_head(room: TableShell, table_id: str) -> bytes:
    """The hash of the table's last hand record, where the chain goes on (FAIRNESS.md)."""
    for hand in await room.db(room.store.table_hands, table_id, CHAIN_LOOKBACK):
        if hand.record is not None and CHAIN in hand.record:
            return bytes.fromhex(hand.record[CHAIN]["hash"])
    return GENESIS
