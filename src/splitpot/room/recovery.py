"""A table brought back after a restart or a crash, from what the store kept (PROTOCOL.md:
a ``kill -9`` loses no chip), as values: the shell reads the store and gives them here
(``server/recovery.py``). A table is rebuilt from its last hand's setup: the table as it
stood before the deal, the same deck, then the logged actions through the core. A hand
left in play resumes exactly where it was; one that cannot be replayed is called off,
which returns every bet (the ledger records a hand only when it ends). Seats taken or
left since are then taken from the store, the system of record (docs/room.md)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from splitpot.bots import Bot
from splitpot.cards import parse_cards
from splitpot.dealer import Scene, scenes
from splitpot.engine import Action, ActionKind
from splitpot.room.effects import Presence
from splitpot.room.host import (
    RUN_IT_ANSWER,
    RUN_IT_TIMEOUT,
    HandInPlay,
    HostOptions,
    Occupant,
    TableHost,
)
from splitpot.room.settings import TableSettings, settings_of
from splitpot.room.tournament_table import TournamentPlay
from splitpot.table import Table, TableError, TableEvent

log = logging.getLogger("splitpot.room")

# What a damaged setup or log raises on its way through the settings, cards and engine.
UNREPLAYABLE = (ValueError, LookupError, TypeError)

LoggedAction = tuple[int, str, int | None]  # (seat from 1, kind, amount)
RUN_IT_KINDS = (RUN_IT_ANSWER, RUN_IT_TIMEOUT)  # the log's entries that are no action


def replay_hand(
    setup: Mapping[str, Any], actions: Sequence[LoggedAction]
) -> tuple[Table, list[TableEvent]]:
    """The table after a logged hand's deal and actions, and the events they made (it
    raises if they do not fit). The answers to run it twice and its time running out are
    replayed where they came (RULES.md 7: the runs the players chose)."""
    table = Table.restore(settings_of(setup["settings"]).config(), setup["snapshot"])
    deck, draw = parse_cards(" ".join(setup["deck"])), parse_cards(" ".join(setup["draw"]))
    events = table.deal(deck, draw=draw)
    for number, (seat, kind, amount) in enumerate(actions, start=1):
        if kind == RUN_IT_ANSWER:
            events += table.answer_run_it(seat - 1, bool(amount))
            continue
        if kind == RUN_IT_TIMEOUT:
            events += table.run_it_timed_out()
            continue
        if table.seat_to_act != seat - 1:
            raise TableError(
                "action {number} is by seat {seat}, not the seat to act", number=number, seat=seat
            )
        events += table.act(seat - 1, Action(ActionKind(kind), amount))
    return table, events


@dataclass(frozen=True, slots=True)
class LastHand:
    """The table's last hand as the store kept it."""

    id: str
    number: int
    serial: int
    started_at: datetime
    playing: bool  # not finished nor cancelled: to resume
    cancelled: bool
    setup: dict[str, Any]
    actions: tuple[LoggedAction, ...] = ()


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A table as its last hand left it; ``resumed``: that hand, to go on; ``call_off``:
    a hand in play that cannot be replayed (the shell cancels it, every bet returned)."""

    settings: TableSettings
    table: Table
    resumed: LastHand | None = None
    told: tuple[TableEvent, ...] = ()  # the resumed hand's events so far
    call_off: str | None = None


def rebuild(latest: LastHand | None, stored: TableSettings) -> Rebuilt:
    """The table from its last hand: replayed to the end of its log, or, for a hand that
    was cancelled or cannot be replayed, as it stood before that hand's deal."""
    if latest is None:
        return Rebuilt(stored, Table(stored.config()))
    if not latest.cancelled:
        try:
            table, events = replay_hand(latest.setup, latest.actions)
        except UNREPLAYABLE as error:
            log.warning("hand %s does not replay (%s)", latest.id, error)
            if latest.playing:
                return _before(latest, stored, call_off=latest.id)
        else:
            settings = settings_of(latest.setup["settings"])
            if latest.playing:
                return Rebuilt(settings, table, latest, tuple(events))
            return Rebuilt(settings, table)
    return _before(latest, stored)


def _before(latest: LastHand, fallback: TableSettings, call_off: str | None = None) -> Rebuilt:
    """The table as it stood before the hand was dealt, counting the hand as played so that
    the next hand's number is the store's next (protocol hand ids are "<table>-<number>").
    A setup too damaged for that gives an empty table: the seats come from the store."""
    try:
        settings = settings_of(latest.setup["settings"])
        table = Table.restore(settings.config(), latest.setup["snapshot"])
    except UNREPLAYABLE as error:
        log.warning("hand %s has no usable setup (%s)", latest.id, error)
        settings, table = fallback, Table(fallback.config())
    table.hands_played = latest.number
    return Rebuilt(settings, table, call_off=call_off)


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A seat as the store keeps it: its player, stack (the ledger's) and standing; a
    bot's seat comes with its bot."""

    seat: int  # from 0
    player_id: int
    name: str
    chips: int
    status: Presence | None  # None: playing
    bot: Bot | None = None


@dataclass(frozen=True, slots=True)
class KeptTable:
    """A table's record: its id, the settings in force (the host's stakes too), its
    host, and what else outlives a restart."""

    id: str
    settings: TableSettings
    host_id: int
    paused: bool = False
    house: bool = False
    banned: frozenset[int] = frozenset()
    stack_edits: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # player: chips, by
    tournament: TournamentPlay | None = None  # RULES.md 8: the tournament it plays in


@dataclass
class Restored:
    """A table's host as it was, and the players whose hand ended while they were
    leaving: the shell cashes them out in the store."""

    host: TableHost
    cash_out: list[KeptSeat] = field(default_factory=list)


def restore(
    kept: KeptTable, rebuilt: Rebuilt, seats: Sequence[KeptSeat], options: HostOptions
) -> Restored:
    """The host of a stored table, its hand in play resumed (the store's seats made the
    table's: taken, left, stacks and standings since the hand began)."""
    table, resumed = rebuilt.table, rebuilt.resumed
    # The seats of the hand being resumed: also when the log shows it over but the crash
    # came before its result was written (their stacks are then after the hand, the
    # ledger's before it, until the host writes the result).
    played = table.hand or (table.history[-1] if resumed is not None else None)
    in_hand = set(played.seats) if played is not None else set()
    stored = {seat.seat: seat for seat in seats}
    for index, player in enumerate(table.seats):
        if player is not None and index not in stored and index not in in_hand:
            table.leave(index)  # cashed out in the store already
    occupants: dict[int, Occupant] = {}
    cash_out: list[KeptSeat] = []
    for index, seat in stored.items():
        if seat.status is Presence.LEAVING and index not in in_hand:
            if table.seats[index] is not None:
                table.leave(index)
            cash_out.append(seat)
            continue
        _seat(table, seat, index in in_hand)
        chips, author = kept.stack_edits.get(seat.player_id, (0, 0))
        occupants[index] = Occupant(
            seat.player_id,
            seat.name,
            seat.bot,
            leaving=seat.status is Presence.LEAVING,
            stack_edit=chips,
            edit_author=author,
        )
    next_settings = kept.settings if kept.settings != rebuilt.settings else None
    playing = None
    if resumed is not None:
        secret = resumed.setup.get("fairness")
        votes = [(seat, kind) for seat, kind, _ in resumed.actions if kind in RUN_IT_KINDS]
        answered = {seat - 1 for seat, kind in votes if kind == RUN_IT_ANSWER}
        playing = HandInPlay(
            resumed.id, resumed.serial, resumed.started_at, secret, len(votes), answered
        )
    _, scene = scenes(list(rebuilt.told), Scene(table.config.variant))  # the board so far
    host = TableHost(
        kept.id,
        rebuilt.settings,
        kept.host_id,
        options,
        table=table,
        occupants=occupants,
        house=kept.house,
        paused=kept.paused,
        banned=kept.banned,
        next_settings=next_settings,
        playing=playing,
        scene=scene,
        tournament=kept.tournament,
    )
    if table.hand is None and next_settings is not None:  # the host's stakes, in force now
        host.apply_stakes()
    return Restored(host, cash_out)


def _seat(table: Table, seat: KeptSeat, in_hand: bool) -> None:
    """Make the table's seat what the store says: its player, stack and standing. The
    stack of a player in the hand is the hand's; any other's is the ledger's."""
    player = table.seats[seat.seat]
    if player is None or player.name != seat.name:
        if player is not None:
            table.leave(seat.seat)
        table.sit(seat.seat, seat.name, seat.chips, kept=True)
    elif not in_hand and player.stack != seat.chips:
        log.warning(
            "seat %d: stack %d, ledger %d: the ledger wins", seat.seat + 1, player.stack, seat.chips
        )
        player.stack = seat.chips
    if seat.status is Presence.SITTING_OUT:
        table.sit_out(seat.seat)


__all__ = [
    "UNREPLAYABLE",
    "KeptSeat",
    "KeptTable",
    "LastHand",
    "LoggedAction",
    "Rebuilt",
    "Restored",
    "rebuild",
    "replay_hand",
    "restore",
]
