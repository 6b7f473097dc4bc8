"""Bringing a table back after a restart or a crash (PROTOCOL.md: a ``kill -9`` loses no
chip). A table is rebuilt from its last hand's setup: the table as it stood before the
deal, the same deck, then the logged actions through the engine. A hand left in play
resumes exactly where it was; one that cannot be replayed is cancelled, which returns
every bet (the ledger records a hand only when it ends). Seats taken or left since are
then taken from the store, the system of record.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from splitpot.cards import parse_cards
from splitpot.engine import Action, ActionKind
from splitpot.server.actor import TableActor
from splitpot.server.settings import TableSettings
from splitpot.store import HandLog, HandStatus, SeatStatus
from splitpot.store import Table as TableRecord
from splitpot.table import Table, TableError

if TYPE_CHECKING:
    from splitpot.server.room import Room

log = logging.getLogger("splitpot.room")


def settings_of(document: dict[str, Any]) -> TableSettings:
    fields = set(TableSettings.__dataclass_fields__)
    return TableSettings(**{k: v for k, v in document.items() if k in fields})


def replay(hand: HandLog) -> Table:
    """The table after the logged hand's deal and actions (it raises if they do not fit)."""
    setup = hand.setup
    table = Table.restore(settings_of(setup["settings"]).config(), setup["snapshot"])
    table.deal(parse_cards(" ".join(setup["deck"])), draw=parse_cards(" ".join(setup["draw"])))
    for logged in hand.actions:
        if table.seat_to_act != logged.seat - 1:
            raise TableError(f"action {logged.seq} is by seat {logged.seat}, not the seat to act")
        table.act(logged.seat - 1, Action(ActionKind(logged.kind), logged.amount))
    return table


async def restore_table(room: Room, record: TableRecord) -> TableActor:
    """The actor of a stored table, its hand in play resumed or cancelled."""
    store = room.store
    settings = settings_of(record.settings)
    bots = set(record.settings.get("bot_players", []))
    table: Table | None = None
    unfinished: HandLog | None = None
    latest = await room.db(store.table_hands, record.id, 1)
    if latest:
        hand = await room.db(store.hand_log, latest[0].id)
        settings = settings_of(hand.setup["settings"])
        if hand.status is HandStatus.CANCELLED:
            table = Table.restore(settings.config(), hand.setup["snapshot"])
        else:
            try:
                table = replay(hand)
            except (TableError, ValueError, KeyError) as error:
                if hand.status is not HandStatus.PLAYING:
                    raise
                log.warning(
                    "table %s: hand %s cannot resume (%s): cancelled", record.id, hand.id, error
                )
                await room.db(store.cancel_hand, hand.id)
                table = Table.restore(settings.config(), hand.setup["snapshot"])
            else:
                if hand.status is HandStatus.PLAYING:
                    unfinished = hand
    actor = TableActor(room, record.id, settings, record.host_id, table)
    table = actor.table
    in_hand = set(table.hand.seats) if table.hand is not None else set()
    stored = {seat.seat - 1: seat for seat in await room.db(store.seats, record.id)}
    for index, player in enumerate(table.seats):
        if player is not None and index not in stored and index not in in_hand:
            table.leave(index)  # cashed out in the store already
    for index, seat in stored.items():
        player = table.seats[index]
        if player is None or player.name != seat.name:
            if player is not None:
                table.leave(index)
            table.sit(index, seat.name, seat.chips)
        elif index not in in_hand and player.stack != seat.chips:
            log.warning(
                "table %s seat %d: stack %d, ledger %d: the ledger wins",
                record.id,
                seat.seat,
                player.stack,
                seat.chips,
            )
            player.stack = seat.chips
        if seat.status is SeatStatus.SITTING_OUT:
            table.sit_out(index)
        if seat.player_id in bots:
            actor.add_bot(index, await room.db(store.player, seat.player_id))
        else:
            actor.add_player(index, seat.player_id, seat.name)
    if unfinished is not None:
        actor.hand_id = unfinished.id
        if table.hand is None:  # the crash came between the last action and the result
            await actor.finish_recovered_hand()
    return actor
