"""Bringing a table back after a restart or a crash (PROTOCOL.md: a ``kill -9`` loses no
chip). A table is rebuilt from its last hand's setup: the table as it stood before the
deal, the same deck, then the logged actions through the engine. A hand left in play
resumes exactly where it was; one that cannot be replayed is cancelled, which returns
every bet (the ledger records a hand only when it ends). Seats taken or left since are
then taken from the store, the system of record (docs/room.md "Crashes and restarts").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from splitpot.cards import parse_cards
from splitpot.dealer import scenes
from splitpot.engine import Action, ActionKind
from splitpot.fair import GENESIS
from splitpot.server.actor import TableActor
from splitpot.server.hands import CHAIN
from splitpot.server.settings import TableSettings, settings_of
from splitpot.store import HandLog, HandStatus, Seat, SeatStatus
from splitpot.store import Table as TableRecord
from splitpot.table import Table, TableError, TableEvent

if TYPE_CHECKING:
    from splitpot.server.room import Room

log = logging.getLogger("splitpot.room")

# What a damaged setup or log raises on its way through the settings, cards and engine.
UNREPLAYABLE = (ValueError, LookupError, TypeError)
CHAIN_LOOKBACK = 50  # hands looked back through for the last record (past cancelled ones)


def replay(hand: HandLog) -> tuple[Table, list[TableEvent]]:
    """The table after the logged hand's deal and actions, and the events they made (it
    raises if they do not fit)."""
    setup = hand.setup
    table = Table.restore(settings_of(setup["settings"]).config(), setup["snapshot"])
    deck, draw = parse_cards(" ".join(setup["deck"])), parse_cards(" ".join(setup["draw"]))
    events = table.deal(deck, draw=draw)
    for logged in hand.actions:
        if table.seat_to_act != logged.seat - 1:
            raise TableError(f"action {logged.seq} is by seat {logged.seat}, not the seat to act")
        events += table.act(logged.seat - 1, Action(ActionKind(logged.kind), logged.amount))
    return table, events


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A table as its last hand left it; ``unfinished`` is that hand if it is to resume."""

    settings: TableSettings
    table: Table
    unfinished: HandLog | None = None
    told: tuple[TableEvent, ...] = ()  # the resumed hand's events so far


async def rebuild(room: Room, record: TableRecord) -> Rebuilt:
    """The table from its last hand: replayed to the end of its log, or, for a hand that
    was cancelled or cannot be replayed, as it stood before that hand's deal."""
    latest = await room.db(room.store.table_hands, record.id, 1)
    if not latest:
        settings = settings_of(record.settings)
        return Rebuilt(settings, Table(settings.config()))
    hand = await room.db(room.store.hand_log, latest[0].id)
    if hand.status is not HandStatus.CANCELLED:
        try:
            table, events = replay(hand)
        except UNREPLAYABLE as error:
            if hand.status is HandStatus.PLAYING:
                log.warning("hand %s cannot resume (%s): cancelled", hand.id, error)
                await room.db(room.store.cancel_hand, hand.id)
            else:
                log.warning("hand %s does not replay (%s)", hand.id, error)
        else:
            if hand.status is HandStatus.PLAYING:
                return Rebuilt(settings_of(hand.setup["settings"]), table, hand, tuple(events))
            return Rebuilt(settings_of(hand.setup["settings"]), table)
    return before(hand, settings_of(record.settings))


def before(hand: HandLog, fallback: TableSettings) -> Rebuilt:
    """The table as it stood before the hand was dealt, counting the hand as played so that
    the next hand's number is the store's next (protocol hand ids are "<table>-<number>").
    A setup too damaged for that gives an empty table: the seats come from the store."""
    try:
        settings = settings_of(hand.setup["settings"])
        table = Table.restore(settings.config(), hand.setup["snapshot"])
    except UNREPLAYABLE as error:
        log.warning("hand %s has no usable setup (%s)", hand.id, error)
        settings, table = fallback, Table(fallback.config())
    table.hands_played = hand.number
    return Rebuilt(settings, table)


async def restore_table(room: Room, record: TableRecord) -> TableActor:
    """The actor of a stored table, its hand in play resumed or cancelled."""
    rebuilt = await rebuild(room, record)
    table, unfinished = rebuilt.table, rebuilt.unfinished
    actor = TableActor(room, record.id, rebuilt.settings, record.host_id, table)
    _, actor.scene = scenes(list(rebuilt.told), actor.scene)  # the board so far, for words
    # The seats of the hand being resumed: also when the log shows it over but the crash
    # came before its result was written (their stacks are then after the hand, the
    # ledger's before it, until finish_recovered_hand writes the result).
    played = table.hand or (table.history[-1] if unfinished is not None else None)
    in_hand = set(played.seats) if played is not None else set()
    stored = {seat.seat - 1: seat for seat in await room.db(room.store.seats, record.id)}
    for index, player in enumerate(table.seats):
        if player is not None and index not in stored and index not in in_hand:
            table.leave(index)  # cashed out in the store already
    bots = set(record.settings.get("bot_players", []))
    for index, seat in stored.items():
        if seat.status is SeatStatus.LEAVING and index not in in_hand:
            await _cash_out(room, table, index, seat)
            continue
        _seat(table, index, seat, index in in_hand)
        if seat.player_id in bots:
            actor.add_bot(index, await room.db(room.store.player, seat.player_id))
        else:
            actor.add_player(index, seat.player_id, seat.name)
        actor.occupants[index].leaving = seat.status is SeatStatus.LEAVING
    _host_changes(actor, record)
    actor.house = bool(record.settings.get("house"))
    actor.banned = await room.db(room.store.bans, record.id)
    actor.chain_head = await _chain_head(room, record.id)
    if unfinished is not None:
        actor.hand_id = unfinished.id
        actor.hand_serial = unfinished.serial
        actor.deal_secret = unfinished.setup.get("fairness")
        actor.hand_started_at = unfinished.started_at
        if table.hand is None:  # the crash came between the last action and the result
            await actor.finish_recovered_hand()
    return actor


async def _chain_head(room: Room, table_id: str) -> bytes:
    """The hash of the table's last hand record, where the chain goes on (FAIRNESS.md)."""
    for hand in await room.db(room.store.table_hands, table_id, CHAIN_LOOKBACK):
        if hand.record is not None and CHAIN in hand.record:
            return bytes.fromhex(hand.record[CHAIN]["hash"])
    return GENESIS


def _host_changes(actor: TableActor, record: TableRecord) -> None:
    """What the host changed and the store kept: paused or not, and stakes newer than the
    last hand's (in force now between hands, else from the next hand)."""
    actor.paused = bool(record.settings.get("paused", False))
    stored = settings_of(record.settings)
    if stored != actor.settings:
        actor.next_settings = stored
        if actor.table.hand is None:
            actor.apply_stakes()


def _seat(table: Table, index: int, seat: Seat, in_hand: bool) -> None:
    """Make the table's seat what the store says: its player, stack and status. The
    stack of a player in the hand is the hand's; any other's is the ledger's."""
    player = table.seats[index]
    if player is None or player.name != seat.name:
        if player is not None:
            table.leave(index)
        table.sit(index, seat.name, seat.chips, kept=True)
    elif not in_hand and player.stack != seat.chips:
        log.warning(
            "table %s seat %d: stack %d, ledger %d: the ledger wins",
            seat.table_id,
            seat.seat,
            player.stack,
            seat.chips,
        )
        player.stack = seat.chips
    if seat.status is SeatStatus.SITTING_OUT:
        table.sit_out(index)


async def _cash_out(room: Room, table: Table, index: int, seat: Seat) -> None:
    """A player who asked to leave during a hand that has ended since: cash out now."""
    if table.seats[index] is not None:
        table.leave(index)
    await room.db(room.store.leave, seat.table_id, seat.player_id)
