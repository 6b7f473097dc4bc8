"""A table's hand as a hand history record, for export and for the last-hand window."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from splitpot.engine import Hand, RunsChosen
from splitpot.history.model import HandRecord, PlayerRecord, RecordedAction, TournamentRecord

if TYPE_CHECKING:  # the table uses the history, not the other way round
    from splitpot.table import TableHand


def record_of(
    table_hand: TableHand,
    hand_id: str | None = None,
    serial: int | None = None,
    tournament: TournamentRecord | None = None,
) -> HandRecord:
    """The record of a table's hand: its inputs, its whole deck and its actions; a room's
    hand has its id and its ``serial``, the room's number of it; a tournament hand its
    ``tournament`` (RULES.md 8)."""
    record = hand_record(
        table_hand.hand, table_hand.names, table_hand.seats, hand_id or str(table_hand.number)
    )
    return replace(record, serial=serial, tournament=tournament)


def hand_record(hand: Hand, names: Sequence[str], seats: Sequence[int], hand_id: str) -> HandRecord:
    """The record of an engine hand played by ``names`` in ``seats`` (0-based): RULES.md 7,
    its second board or run, and what the players chose when asked to run it twice."""
    players = tuple(
        PlayerRecord(name, seat + 1, stack)
        for name, seat, stack in zip(names, seats, hand.starting_stacks, strict=True)
    )
    return HandRecord(
        id=hand_id,
        game=hand.config.variant.title,
        config=hand.config,
        players=players,
        button=hand.button,
        posts=hand.posts,
        holes=tuple(hand.holes),
        board=tuple(c for c in hand.board if c is not None),
        actions=tuple(RecordedAction(p, a) for p, a in zip(hand.actors, hand.actions, strict=True)),
        deck=hand.deck,
        second_board=tuple(c for c in hand.boards[1] if c is not None)
        if len(hand.boards) > 1
        else (),
        runs=next((e.times for e in hand.events if isinstance(e, RunsChosen)), None),
    )
