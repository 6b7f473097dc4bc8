"""What the store hands back: plain frozen values (no database objects escape a
transaction), and the JSON shape of a player's ledger (PROTOCOL.md, GET /api/me/ledger)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NamedTuple, TypedDict


def iso_time(moment: datetime) -> str:
    """A UTC ISO 8601 string with milliseconds, e.g. ``2026-11-30T12:00:00.000Z``."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    guest: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Identity:
    """A player and a fresh session token (shown once: the store keeps only its hash)."""

    player: Player
    token: str


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: str
    name: str
    settings: dict[str, Any]
    host_id: int
    private: bool
    created_at: datetime
    closed: bool


class SeatRecordStatus(StrEnum):
    WAITING = "waiting"  # seated, not yet dealt in (waits for the big blind)
    PLAYING = "playing"
    SITTING_OUT = "sitting_out"
    LEAVING = "leaving"  # asked to leave during a hand: cash out when it ends


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A taken seat; ``chips`` is the player's stack account at this table (the ledger)."""

    table_id: str
    seat: int
    player_id: int
    name: str
    status: SeatRecordStatus
    chips: int


class HandStatus(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


ActionEntry = tuple[str, int, str, int | None, int | None]  # hand, seat, kind, amount, seq
HandStart = tuple[str, dict[str, Any]]  # table, setup
HandEnd = tuple[str, dict[str, Any], Mapping[int, int], int]  # hand, record, results, rake


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One accepted action of a hand's log; ``seq`` counts from 1."""

    seq: int
    seat: int
    kind: str
    amount: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A hand as the lobby may list it: no setup (it holds the deck order). ``number``
    counts the table's hands; ``serial`` the room's (unique in the room)."""

    id: str
    table_id: str
    number: int
    serial: int
    status: HandStatus
    started_at: datetime
    ended_at: datetime | None
    record: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class HandSelection:
    """Which finished hands of a table to read: at most ``most``, the newest first,
    started from ``since`` and before ``until``, those ``player_id`` was dealt in
    (None: no bound)."""

    most: int
    since: datetime | None = None
    until: datetime | None = None
    player_id: int | None = None


@dataclass(frozen=True, slots=True)
class Audit:
    """A session's end-of-session audit: hands ``first_hand`` to ``last_hand`` of the
    table, their deals' secrets published at ``published_at``."""

    table_id: str
    number: int
    first_hand: int
    last_hand: int
    published_at: datetime


@dataclass(frozen=True, slots=True)
class AuditedHand:
    """A hand of a published audit and what the room kept of its deal (the pre-order,
    every salt, the server seed and the players' entropy)."""

    id: str
    number: int
    status: HandStatus
    fairness: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HandLog:
    """What replays a hand through the engine: its secret setup and its actions in order."""

    id: str
    table_id: str
    number: int
    serial: int
    status: HandStatus
    started_at: datetime
    setup: dict[str, Any]
    actions: tuple[LoggedAction, ...]


class TransferKind(StrEnum):
    BUY_IN = "buy_in"  # balance -> table
    TOP_UP = "top_up"  # balance -> table
    CASH_OUT = "cash_out"  # table -> balance
    HAND_RESULT = "hand_result"  # between the stacks of the players dealt in, and the rake
    STACK_EDIT = "stack_edit"  # the host's: balance -> table (added), or back (taken)
    ENTRY = "entry"  # a tournament's buy-in (balance -> pool) and fee (balance -> house)
    REFUND = "refund"  # an entry given back: unregistered, or the tournament called off
    PRIZE = "prize"  # a tournament's prize: pool -> balance
    CHIPS = "chips"  # tournament chips: bank -> stack, stack -> stack (a move), -> bank


class AccountKind(StrEnum):
    BALANCE = "balance"
    TABLE = "table"
    HOUSE = "house"
    POOL = "pool"  # a tournament's prize pool ("pool:<tournament>")
    BANK = "bank"  # a tournament's chips issued ("bank:<tournament>"): below zero


class LedgerEntryJSON(TypedDict):
    id: int
    time: str
    kind: str
    table: str | None
    hand: str | None
    amount: int
    account: str
    by: str | None  # the host who made a stack edit


class LedgerJSON(TypedDict):
    balance: int
    entries: list[LedgerEntryJSON]


class Payment(NamedTuple):
    """One transfer of the settle-up: ``payer`` pays ``payee`` ``amount`` chips."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True)
class Hosting:
    """The tables a player hosts, as the room's limits count them: ``open`` (not closed),
    ``in_use`` (open, with a player seated) and ``made`` (since the moment asked)."""

    open: int
    in_use: int
    made: int


@dataclass(frozen=True, slots=True)
class LedgerTotals:
    """What check_invariant() counted: every chip is in a balance, on a table, with the
    house, in a tournament's prize pool or issued by a tournament's bank (below zero by
    the tournament chips on its tables), and the five sum to zero."""

    balances: int
    on_tables: int
    house: int
    pools: int = 0
    banks: int = 0


@dataclass(frozen=True, slots=True)
class Note:
    """A player's private note on another player (issue 24), for its owner's eyes only:
    ``text`` (perhaps empty) and ``colour``, a tag (None: no tag)."""

    subject_id: int
    subject_name: str
    text: str
    colour: str | None
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament as the lobby lists it: ``settings`` is ``TournamentSettings.to_json``;
    ``entries`` the paid entries and ``pool`` the buy-ins paid (RULES.md 8)."""

    id: int
    name: str
    settings: dict[str, Any]
    host_id: int
    club_id: str | None
    status: str  # room.director.Status's values
    created_at: datetime
    start_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    entries: int
    pool: int
    hand_for_hand: bool
    private: bool  # registration by invite code


@dataclass(frozen=True, slots=True)
class TableOrders:
    """What a tournament's table learns between hands: its tournament and number, whether
    it may deal the hand it waits to deal (``cleared``), whether it broke, the
    tournament's status, start and hand for hand, and its seats now with their chips."""

    tournament_id: int
    number: int
    cleared: bool
    broken: bool
    status: str
    started_at: datetime | None
    hand_for_hand: bool
    seats: tuple[SeatRecord, ...]
    director: str | None = None  # the process directing the tournament (its lease)


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A place of a tournament's results: the best of the places ``shared`` players share
    (1 normally), the player, their prize (0: none) and the hand they went out in (None:
    the winner)."""

    place: int
    shared: int
    player_id: int
    name: str
    prize: int
    out_hand: str | None


@dataclass(frozen=True, slots=True)
class TournamentTableRecord:
    """One of a tournament's tables: its number, where it stands between hands (as the
    director's ``TournamentTable``), and the tournament's bots (their player ids)."""

    table_id: str
    tournament_id: int
    number: int
    ready: int
    cleared: int
    next_big_blind: int | None
    broken: bool
    bots: frozenset[int]
