"""Refusals: a code of PROTOCOL.md and a message naming the problem; nothing changed.
The protocol's ``ProtocolError`` is the one error the room answers with; this module
names the core's and the store's errors in its codes."""

from __future__ import annotations

from splitpot.engine import IllegalActionError
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.room.refusals import worded
from splitpot.rules import Refusal
from splitpot.store import (
    FencedOut,
    LedgerError,
    LoginFailed,
    NameTaken,
    NotFound,
    SeatError,
    StoreError,
)
from splitpot.table import TableError


def refusal(error: Exception) -> ProtocolError:
    """The protocol's error for an error of the core or the store."""
    if isinstance(error, ProtocolError):
        return error
    if isinstance(error, FencedOut):
        return ProtocolError(ErrorCode.TRY_AGAIN, f"{error}: send it again")
    if isinstance(error, IllegalActionError | TableError):  # in the player's language
        return ProtocolError(ErrorCode.ILLEGAL_ACTION, worded(error))
    if isinstance(error, Refusal):  # the rules', the settings'
        return ProtocolError(ErrorCode.BAD_MESSAGE, worded(error))
    if isinstance(error, StoreError):  # in the asker's language where the store says it so
        told = error.said or str(error)
        if isinstance(error, SeatError):
            return ProtocolError(ErrorCode.SEAT_TAKEN, told)
        if isinstance(error, LedgerError):
            return ProtocolError(ErrorCode.BUY_IN, told)
        if isinstance(error, NotFound):
            return ProtocolError(ErrorCode.UNKNOWN_TABLE, told)
        if isinstance(error, LoginFailed):
            return ProtocolError(ErrorCode.UNAUTHORIZED, told)
        if isinstance(error, NameTaken):
            return ProtocolError(ErrorCode.NAME_TAKEN, told)
        return ProtocolError(ErrorCode.BAD_MESSAGE, told)
    if isinstance(error, ValueError):
        return ProtocolError(ErrorCode.BAD_MESSAGE, str(error))
    return ProtocolError(ErrorCode.SERVER_ERROR, "the room could not do that; try again")


def no_table(table_id: str) -> ProtocolError:
    """A table that does not exist, or that the caller may not know of (a private table,
    without its invite): the same refusal word for word, so a stranger cannot tell which."""
    return ProtocolError(ErrorCode.UNKNOWN_TABLE, f"there is no table {table_id!r}")


def no_hand(hand_id: str) -> ProtocolError:
    """A hand that does not exist, or one of a table the caller may not see: alike."""
    return ProtocolError(ErrorCode.UNKNOWN_HAND, f"there is no hand {hand_id!r}")
