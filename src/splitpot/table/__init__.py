"""The table: hands in sequence, seats, blinds and buy-ins (RULES.md 6), as a pure state
that returns events keyed by table seat and per-seat views."""

from splitpot.table.events import (
    ChipsAdded,
    HandFinished,
    HandStarted,
    InHand,
    PlayerLeft,
    PlayerSat,
    SatIn,
    SatOut,
    StakesChanged,
    TableEvent,
    seen_by,
)
from splitpot.table.model import MAX_SEATS, Seat, TableConfig, TableError, TableHand
from splitpot.table.table import HISTORY_SIZE, IllegalActionError, NextHand, Table
from splitpot.table.view import HandState, PotView, SeatStatus, SeatView, TableView

__all__ = [
    "HISTORY_SIZE",
    "MAX_SEATS",
    "ChipsAdded",
    "HandFinished",
    "HandStarted",
    "HandState",
    "IllegalActionError",
    "InHand",
    "NextHand",
    "PlayerLeft",
    "PlayerSat",
    "PotView",
    "SatIn",
    "SatOut",
    "Seat",
    "SeatStatus",
    "SeatView",
    "StakesChanged",
    "Table",
    "TableConfig",
    "TableError",
    "TableEvent",
    "TableHand",
    "TableView",
    "seen_by",
]
