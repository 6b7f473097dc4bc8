"""The store's errors: each names the bad input, so the server can pass the message on."""

from __future__ import annotations

from splitpot.i18n import Said


class StoreError(Exception):
    """Anything the store refuses; nothing was written. ``said``: the message as the room
    can put it in a listener's language (``str(error)`` is its English)."""

    def __init__(self, message: str | Said = "") -> None:
        super().__init__(str(message))
        self.said = message if isinstance(message, Said) else None


class BadName(StoreError):
    """A player name that is empty, too long or not printable."""


class BadPassword(StoreError):
    """A password that is too short or too long."""


class NameTaken(StoreError):
    """An account name already in use (names of accounts are unique, ignoring case)."""


class LoginFailed(StoreError):
    """Unknown name or wrong password: one message, so it does not say which."""


class NotFound(StoreError):
    """An unknown player, table, seat or hand."""


class SeatError(StoreError):
    """A seat that is taken, out of range, or a player already seated at the table."""


class HandStateError(StoreError):
    """A hand that is not in the state the call needs (e.g. finishing a finished hand)."""


class LedgerError(StoreError):
    """A chip movement that would break the ledger: a bad amount, too few chips, a hand
    result that does not sum to zero."""


class InvariantBroken(StoreError):
    """check_invariant() found entries that do not sum to zero or a negative stack."""


class FencedOut(StoreError):
    """A write for a table whose lease another process has taken since (a newer fencing
    number): this process no longer runs the table and may never write for it again."""

    def __init__(self, table_id: str, message: str) -> None:
        super().__init__(message)
        self.table_id = table_id
