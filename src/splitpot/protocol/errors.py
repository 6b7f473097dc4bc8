"""The room's error codes (PROTOCOL.md) and the error a refused message raises."""

from __future__ import annotations

from enum import Enum

from splitpot.i18n import Said, Words

Ref = str | int | None  # a client's tag on a command, echoed in an error about it


class ErrorCode(Enum):
    """Why the room refused a command; nothing changed. The first eight are PROTOCOL.md's."""

    BAD_MESSAGE = "bad_message"  # not JSON, not an object, an unknown type, a bad field
    UNKNOWN_TABLE = "unknown_table"  # no such table, or a private one without its invite
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_ACTION = "illegal_action"  # the action or amount is not among the legal ones
    SEAT_TAKEN = "seat_taken"
    BUY_IN = "buy_in"  # a buy-in or top-up outside the table's range
    FORBIDDEN = "forbidden"  # a watcher's seat command, a host command by a guest...
    RATE_LIMITED = "rate_limited"
    UNAUTHORIZED = "unauthorized"  # hello with an unknown or expired token
    NOT_SEATED = "not_seated"  # a seat command at a table where the player has no seat
    ALREADY_SEATED = "already_seated"  # sit at a table where the player has a seat
    WRONG_HAND = "wrong_hand"  # act or reveal naming a hand that is not the one in play
    NOT_NOW = "not_now"  # allowed, but not at this moment (top_up during a hand)
    SERVER_ERROR = "server_error"  # the room failed; the command may be sent again
    UNKNOWN_HAND = "unknown_hand"  # no such hand (HTTP), or one still being played
    NAME_TAKEN = "name_taken"  # an account name already in use (HTTP)
    TRY_AGAIN = "try_again"  # the table is changing hands between the room's processes
    UNKNOWN_CLUB = "unknown_club"  # no such club (HTTP)
    NOT_FOUND = "not_found"  # no such player (HTTP), or a path the room does not have


class ProtocolError(Exception):
    """A message the room refuses: its code, a message naming the bad input (``said``:
    one the room can put in each listener's language; ``message`` is its English), and
    the command's ``ref`` when it had a good one."""

    def __init__(self, code: ErrorCode, message: str | Said, ref: Ref = None) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = str(message)
        self.said = message if isinstance(message, Said) else None
        self.ref = ref

    def told(self, words: Words) -> str:
        """The message in ``words``' language (English where it has no translation)."""
        return self.message if self.said is None else self.said.to(words)


__all__ = ["ErrorCode", "ProtocolError", "Ref"]
