"""The double-entry chip ledger. Every movement is a transfer whose entries sum to zero,
so the sum of all entries is zero: chips are only ever moved between a player's balance,
a player's stack at a table, the house (the rake, a tournament's fee), a tournament's
prize pool, and a tournament's bank (which issues its chips). Also the views of it: a
player's entries, a table's CSV, and the settle-up.

A tournament's chips are not room chips: they come from its bank onto its tables and go
back to it, and the room's chips a player pays or wins are the entry, the refund and the
prize. A player's views in room chips (their ledger, a settle-up) leave the tournament
tables' chips out; a table's own views (its CSV, its statistics) show them, in the
tournament's chips."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypeVar

from sqlalchemy import ColumnElement, Select, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session

from splitpot.store.bulk import PerDatabase, RowsInsert
from splitpot.store.driver import Executor
from splitpot.store.errors import InvariantBroken, LedgerError
from splitpot.store.models import (
    AccountRow,
    EntryRow,
    PlayerRow,
    SeatRow,
    TournamentTableRow,
    TransferRow,
    core_table,
)
from splitpot.store.settle import settle_up
from splitpot.store.values import (
    AccountKind,
    LedgerEntryJSON,
    LedgerJSON,
    LedgerTotals,
    Payment,
    TransferKind,
    iso_time,
)

Key = TypeVar("Key")
HOUSE = "house"  # the house account's key and its name in a settle-up


def account_key(kind: AccountKind, player_id: int | None, table_id: str | None) -> str:
    if kind is AccountKind.BALANCE:
        return f"balance:{player_id}"
    if kind is AccountKind.TABLE:
        return f"table:{player_id}:{table_id}"
    return HOUSE


def tournament_key(kind: AccountKind, tournament_id: int) -> str:
    """A tournament's prize pool ("pool:3") or bank ("bank:3")."""
    assert kind in (AccountKind.POOL, AccountKind.BANK)
    return f"{kind.value}:{tournament_id}"


def tournament_tables() -> Select[tuple[str]]:
    """The ids of every tournament's tables: their chips are tournament chips."""
    return select(TournamentTableRow.table_id)


def is_whole(value: object) -> bool:
    """An int that is not a bool: what chip amounts and seat numbers must be."""
    return isinstance(value, int) and not isinstance(value, bool)


class Account(Protocol):
    """What a transfer needs of an account: an ``AccountRow``, or a row of ``ACCOUNTS``."""

    @property
    def id(self) -> int: ...
    @property
    def key(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def player_id(self) -> int | None: ...
    @property
    def table_id(self) -> str | None: ...


def find_accounts(executor: Executor, keys: Iterable[str]) -> dict[str, Account]:
    """The accounts among ``keys`` that exist, by key: one statement, locked in the keys'
    order (PostgreSQL), so two transactions never wait on each other's."""
    rows = executor.execute(_ACCOUNTS.on(executor), {"keys": sorted(set(keys))})
    return {row.key: row for row in rows}


def open_account(
    executor: Executor, kind: AccountKind, player_id: int | None, table_id: str | None
) -> Account:
    """The account, locked; created on first use."""
    return _opened(executor, account_key(kind, player_id, table_id), kind, player_id, table_id)


def open_tournament_account(executor: Executor, kind: AccountKind, tournament_id: int) -> Account:
    """A tournament's prize pool or bank, locked; created on first use."""
    return _opened(executor, tournament_key(kind, tournament_id), kind, None, None)


def _opened(
    executor: Executor, key: str, kind: AccountKind, player_id: int | None, table_id: str | None
) -> Account:
    found = find_accounts(executor, [key])
    if key not in found:
        account = {"key": key, "kind": kind.value, "player_id": player_id, "table_id": table_id}
        try:
            with executor.begin_nested():  # another transaction may open it at the same time
                executor.execute(_OPEN, account)
        except IntegrityError:  # it did, and committed first: its account is the one
            if key not in find_accounts(executor, [key]):
                raise  # another rule broken (no such player or table): that is the error
        found = find_accounts(executor, [key])
    return found[key]


def account_totals(executor: Executor, ids: Sequence[int]) -> dict[int, int]:
    """The chips each of the accounts holds (its running total, the sum of its entries):
    one statement for all of them."""
    return {
        account: int(total)
        for account, total in executor.execute(_TOTALS.on(executor), {"accounts": ids})
    }


def account_total(executor: Executor, account: Account) -> int:
    return account_totals(executor, [account.id]).get(account.id, 0)


@dataclass(frozen=True, slots=True)
class Transfer:
    """A transfer to write (``post_all``): its moves, and what it is for; ``author_id``:
    the host who made it (a stack edit); ``tournament_id``: the tournament it is for."""

    kind: TransferKind
    moves: Sequence[tuple[Account, int]]
    table_id: str | None = None
    hand_id: str | None = None
    author_id: int | None = None
    tournament_id: int | None = None


def post(
    executor: Executor,
    kind: TransferKind,
    now: datetime,
    moves: Sequence[tuple[Account, int]],
    table_id: str | None = None,
    hand_id: str | None = None,
    author_id: int | None = None,
    tournament_id: int | None = None,
) -> None:
    """Write one transfer (``post_all``)."""
    post_all(executor, [Transfer(kind, moves, table_id, hand_id, author_id, tournament_id)], now)


def post_all(executor: Executor, transfers: Sequence[Transfer], now: datetime) -> None:
    """Write transfers, in order; each one's moves must sum to zero and leave no stack (nor
    prize pool) below zero. Three statements for all of them, in SQL's core (SQLite
    inserts the transfers a row at a time, to give their ids in order): the ORM's unit
    of work cost a busy room 5% of its CPU, and a statement a transfer more than the
    rest of its hand's end (docs/load.md)."""
    for transfer in transfers:
        if sum(amount for _, amount in transfer.moves) != 0:
            amounts = [amount for _, amount in transfer.moves]
            of = f" of hand {transfer.hand_id}" if transfer.hand_id else ""
            raise LedgerError(f"a {transfer.kind.value} transfer{of} must sum to zero: {amounts}")
    guarded = {
        account.id
        for transfer in transfers
        for account, amount in transfer.moves
        if amount < 0 and account.kind in _NEVER_BELOW_ZERO
    }
    chips = account_totals(executor, sorted(guarded)) if guarded else {}
    for transfer in transfers:  # each against the chips the ones before it left
        for account, amount in transfer.moves:
            if amount < 0 and account.id in guarded and chips.get(account.id, 0) + amount < 0:
                raise _short(account, chips.get(account.id, 0), -amount, transfer.kind)
        for account, amount in transfer.moves:
            if account.id in guarded:
                chips[account.id] = chips.get(account.id, 0) + amount
    written = [
        {"kind": transfer.kind.value, "at": now, "table_id": transfer.table_id,
         "hand_id": transfer.hand_id, "author_id": transfer.author_id,
         "tournament_id": transfer.tournament_id}
        for transfer in transfers
    ]  # fmt: skip
    ids = executor.execute(_TRANSFER, written).scalars().all()
    moves = [
        (transfer_id, account.id, amount)
        for transfer_id, transfer in zip(ids, transfers, strict=True)
        for account, amount in transfer.moves
    ]
    _ENTRIES.run(
        executor,
        [
            {"transfer_id": transfer_id, "account_id": account_id, "amount": amount}
            for transfer_id, account_id, amount in moves
        ],
    )
    executor.execute(
        _KEEP_TOTAL, [{"account": account_id, "amount": amount} for _, account_id, amount in moves]
    )


def _short(account: Account, chips: int, taken: int, kind: TransferKind) -> LedgerError:
    """The refusal of a transfer that would take an account below zero."""
    if account.kind == AccountKind.POOL.value:
        return LedgerError(
            f"the prize pool {account.key} holds {chips} chips, not the {taken} "
            f"the {kind.value} takes"
        )
    return LedgerError(
        f"player {account.player_id} has {chips} chips at table {account.table_id}, "
        f"not the {taken} the {kind.value} takes"
    )


TRANSFERS = core_table(TransferRow)
ENTRIES = core_table(EntryRow)
ACCOUNTS = core_table(AccountRow)
_ACCOUNTS = PerDatabase(
    lambda among: (
        select(ACCOUNTS)
        .where(among(ACCOUNTS.c.key, "keys"))
        .order_by(ACCOUNTS.c.key)
        .with_for_update()
    )
)
_TOTALS = PerDatabase(
    lambda among: select(ACCOUNTS.c.id, ACCOUNTS.c.chips).where(among(ACCOUNTS.c.id, "accounts"))
)
_OPEN = insert(ACCOUNTS)
_TRANSFER = insert(TRANSFERS).returning(TRANSFERS.c.id, sort_by_parameter_order=True)
_ENTRIES = RowsInsert(ENTRIES, ("transfer_id", "account_id", "amount"))
_KEEP_TOTAL = (
    update(ACCOUNTS)
    .where(ACCOUNTS.c.id == bindparam("account"))
    .values(chips=ACCOUNTS.c.chips + bindparam("amount"))
)
_NEVER_BELOW_ZERO = (AccountKind.TABLE.value, AccountKind.POOL.value)


def room_chips_only(session: Session, table_id: str, kind: TransferKind) -> None:
    """Refuse to move chips between a balance and a tournament's table: its chips are
    the tournament's, never the room's."""
    if session.get(TournamentTableRow, table_id) is not None:
        raise LedgerError(
            f"table {table_id} is a tournament's: a {kind.value} would mix its chips with "
            "the room's"
        )


def check_chips(amount: int, what: str) -> None:
    if not is_whole(amount) or amount <= 0:
        raise LedgerError(f"{what} must be a positive whole number of chips, not {amount!r}")


def to_table(
    session: Session, kind: TransferKind, player_id: int, table_id: str, chips: int, now: datetime
) -> None:
    """A buy-in or top-up: chips from the player's balance to their stack at the table."""
    check_chips(chips, kind.value.replace("_", "-"))
    room_chips_only(session, table_id, kind)
    balance = open_account(session, AccountKind.BALANCE, player_id, None)
    stack = open_account(session, AccountKind.TABLE, player_id, table_id)
    post(session, kind, now, [(balance, -chips), (stack, chips)], table_id)


def edit_stack(
    session: Session, player_id: int, table_id: str, chips: int, author_id: int, now: datetime
) -> None:
    """The host's stack edit: ``chips`` from the player's balance to their stack at the
    table (taken back to the balance when below 0), the host its author."""
    if not is_whole(chips) or chips == 0:
        raise LedgerError(
            f"a stack edit must be a whole number of chips other than 0, not {chips!r}"
        )
    room_chips_only(session, table_id, TransferKind.STACK_EDIT)
    balance = open_account(session, AccountKind.BALANCE, player_id, None)
    stack = open_account(session, AccountKind.TABLE, player_id, table_id)
    moves = [(balance, -chips), (stack, chips)]
    post(session, TransferKind.STACK_EDIT, now, moves, table_id, author_id=author_id)


def cash_out(session: Session, player_id: int, table_id: str, now: datetime) -> int:
    """Move the player's whole stack at the table back to their balance; the chips moved."""
    stack = open_account(session, AccountKind.TABLE, player_id, table_id)
    chips = account_total(session, stack)
    if chips:
        room_chips_only(session, table_id, TransferKind.CASH_OUT)
        balance = open_account(session, AccountKind.BALANCE, player_id, None)
        post(session, TransferKind.CASH_OUT, now, [(stack, -chips), (balance, chips)], table_id)
    return chips


HandResult = tuple[str, str, Mapping[int, int], int]  # table, hand, each player's net, rake


def hand_result(
    executor: Executor,
    table_id: str,
    hand_id: str,
    results: Mapping[int, int],
    rake: int,
    now: datetime,
) -> None:
    """One hand's result (``hand_results``)."""
    hand_results(executor, [(table_id, hand_id, results, rake)], now)


def hand_results(executor: Executor, hands: Sequence[HandResult], now: datetime) -> None:
    """Each player dealt in: their stack at the table moves by their net result; the
    rake goes to the house. Refused unless the results and the rake sum to zero. In
    SQL's core, the stacks of every hand found in one statement and the transfers
    written in three: the room writes one at the end of every hand."""
    for _, hand_id, results, rake in hands:
        _check_result(hand_id, results, rake)
    keys = {
        (table_id, player_id): account_key(AccountKind.TABLE, player_id, table_id)
        for table_id, _, results, _ in hands
        for player_id in results
    }
    stacks = find_accounts(executor, keys.values())
    house = (
        open_account(executor, AccountKind.HOUSE, None, None)
        if any(rake for *_, rake in hands)
        else None
    )
    transfers = []
    for table_id, hand_id, results, rake in hands:
        moves: list[tuple[Account, int]] = []
        for player_id, net in sorted(results.items()):
            stack = stacks.get(keys[table_id, player_id])
            if stack is None:
                raise LedgerError(f"hand {hand_id}: player {player_id} has no chips at {table_id}")
            moves.append((stack, net))
        if rake and house is not None:
            moves.append((house, rake))
        transfers.append(Transfer(TransferKind.HAND_RESULT, moves, table_id, hand_id))
    post_all(executor, transfers, now)


def _check_result(hand_id: str, results: Mapping[int, int], rake: int) -> None:
    if not results:
        raise LedgerError(f"hand {hand_id}: a result needs the players dealt in")
    if not is_whole(rake) or rake < 0:
        raise LedgerError(f"hand {hand_id}: the rake must be a whole number >= 0, not {rake!r}")
    for player_id, net in results.items():
        if not is_whole(net):
            raise LedgerError(f"hand {hand_id}: player {player_id}'s result {net!r} is not chips")
    total = sum(results.values())
    if total + rake != 0:
        raise LedgerError(
            f"hand {hand_id}: results sum to {total} and the rake is {rake}; "
            "together they must sum to zero"
        )


def stacks_at(session: Session, table_id: str) -> dict[int, int]:
    """Each player's chips at the table: their stack account's total."""
    totals = _account_totals(
        session,
        AccountRow.player_id,
        AccountRow.table_id == table_id,
        AccountRow.kind == AccountKind.TABLE.value,
    )
    return {player: chips for player, chips in totals.items() if player is not None}


def balance_of(session: Session, player_id: int) -> int:
    """The chips of the player's balance account (read only)."""
    total = session.scalar(
        select(AccountRow.chips).where(
            AccountRow.key == account_key(AccountKind.BALANCE, player_id, None)
        )
    )
    return int(total or 0)


def ledger_for(session: Session, player_id: int) -> LedgerJSON:
    """PROTOCOL.md's GET /api/me/ledger: the player's balance (the sum of the entries of
    account "balance": buy-ins and top-ups out, cash-outs in) and, oldest first, those
    entries and the hand results of their stacks (account "table"), which moved chips
    on a table, not the balance, until cashed out. A tournament's chips are not the
    room's: its tables' hand results are left out (its entry, refund and prize, which
    move the balance, are in)."""
    rows = session.execute(
        select(
            EntryRow.id,
            TransferRow.at,
            TransferRow.kind,
            TransferRow.table_id,
            TransferRow.hand_id,
            EntryRow.amount,
            AccountRow.kind,
            TransferRow.author_id,
        )
        .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
        .join(AccountRow, EntryRow.account_id == AccountRow.id)
        .where(AccountRow.player_id == player_id)
        .where(
            (AccountRow.kind == AccountKind.BALANCE.value)
            | (
                (TransferRow.kind == TransferKind.HAND_RESULT.value)
                & TransferRow.table_id.not_in(tournament_tables())
            )
        )
        .order_by(EntryRow.id)
    ).all()
    entries: list[LedgerEntryJSON] = [
        {
            "id": entry,
            "time": iso_time(at),
            "kind": kind,
            "table": table,
            "hand": hand,
            "amount": amount,
            "account": account,
            "by": None if author is None else str(author),
        }
        for entry, at, kind, table, hand, amount, account, author in rows
    ]
    balance = sum(e["amount"] for e in entries if e["account"] == AccountKind.BALANCE.value)
    return {"balance": balance, "entries": entries}


def labels(session: Session, player_ids: Iterable[int]) -> dict[int | None, str]:
    """Names to print for these players and the house (key None); a name that two of
    them share gets the player's id, e.g. "Bob #12"."""
    ids = sorted(set(player_ids))
    names: dict[int | None, str] = {None: HOUSE}
    if ids:
        query = select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(ids))
        names.update(session.execute(query).all())
    folded = [name.casefold() for name in names.values()]
    return {
        key: f"{name} #{key}" if key is not None and folded.count(name.casefold()) > 1 else name
        for key, name in names.items()
    }


def at_table(table_id: str) -> ColumnElement[bool]:
    """The entries of a table's journal: its stacks', and the other sides of its
    transfers but another table's stacks (a tournament's move: that table's journal)."""
    return (AccountRow.table_id == table_id) | (
        AccountRow.table_id.is_(None) & (TransferRow.table_id == table_id)
    )


def table_ledger_csv(session: Session, table_id: str) -> str:
    """Every entry of every transfer at the table, oldest first, as CSV with a header
    (a tournament's table: in its chips, the bank's entries under the player "bank")."""
    rows = session.execute(
        select(
            EntryRow.id,
            TransferRow.at,
            TransferRow.kind,
            TransferRow.hand_id,
            AccountRow.kind,
            AccountRow.player_id,
            EntryRow.amount,
            TransferRow.author_id,
        )
        .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
        .join(AccountRow, EntryRow.account_id == AccountRow.id)
        .where(at_table(table_id))
        .order_by(EntryRow.id)
    ).all()
    named = [id_ for row in rows for id_ in (row[5], row[7]) if id_ is not None]
    names = labels(session, named)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["entry", "time", "kind", "hand", "account", "player", "amount", "by"])
    for entry, at, kind, hand, account, player_id, amount, author in rows:
        by = "" if author is None else names[author]
        player = account if player_id is None and account != HOUSE else names[player_id]
        writer.writerow([entry, iso_time(at), kind, hand or "", account, player, amount, by])
    return out.getvalue()


# PokerNow's ledger CSV, which the settle-up tools people use for PokerNow read
SIT_DOWN_HEADER = (
    "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"
)


@dataclass(frozen=True, slots=True)
class SitDown:
    """One player's time in a seat at a table: from the buy-in to the cash-out, or to now
    while they sit there (``end`` None)."""

    player_id: int
    start: datetime
    end: datetime | None
    buy_in: int  # the buy-in and every top-up
    buy_out: int  # the chips cashed out
    stack: int  # the chips still at the table

    @property
    def net(self) -> int:
        return self.buy_out + self.stack - self.buy_in


def sit_downs(session: Session, table_id: str) -> list[SitDown]:
    """Every sit-down at the table, from the entries of the players' stacks there: each
    buy-in starts one; it ends at its cash-out, or, for a player who left broke (nothing to
    cash out), at its last entry. At a tournament's table, its chips brought to the seat
    (the start, a move here) start one, and taken away (a move, the end) are its buy-out."""
    rows = session.execute(
        select(AccountRow.player_id, TransferRow.kind, TransferRow.at, EntryRow.amount)
        .join(EntryRow, EntryRow.account_id == AccountRow.id)
        .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
        .where(AccountRow.table_id == table_id, AccountRow.kind == AccountKind.TABLE.value)
        .order_by(EntryRow.id)
    ).all()
    seated = set(session.scalars(select(SeatRow.player_id).where(SeatRow.table_id == table_id)))
    stays: dict[int, list[list[tuple[str, datetime, int]]]] = {}
    for player_id, kind, at, amount in rows:
        assert player_id is not None  # a stack at a table is a player's
        stay = stays.setdefault(player_id, [])
        arrived = kind == TransferKind.CHIPS.value and amount > 0
        if kind == TransferKind.BUY_IN.value or arrived or not stay:
            stay.append([])
        stay[-1].append((kind, at, amount))
    found = [
        _sit_down(player_id, entries, player_id in seated and entries is stay[-1])
        for player_id, stay in stays.items()
        for entries in stay
    ]
    return sorted(found, key=lambda sit: (sit.start, sit.player_id))


def _sit_down(player_id: int, entries: list[tuple[str, datetime, int]], seated: bool) -> SitDown:
    def total(*kinds: TransferKind) -> int:
        return sum(amount for kind, _, amount in entries if kind in kinds)

    edits = [
        amount
        for kind, _, amount in entries
        if kind in (TransferKind.STACK_EDIT, TransferKind.CHIPS)
    ]
    buy_in = total(TransferKind.BUY_IN, TransferKind.TOP_UP) + sum(a for a in edits if a > 0)
    buy_out = -total(TransferKind.CASH_OUT) - sum(a for a in edits if a < 0)
    stack = buy_in + total(TransferKind.HAND_RESULT) - buy_out
    end = None if seated else entries[-1][1]
    return SitDown(player_id, entries[0][1], end, buy_in, buy_out, stack)


def table_sit_downs_csv(session: Session, table_id: str) -> str:
    """PokerNow's ledger CSV: one row per sit-down (``SIT_DOWN_HEADER``), net = buy_out +
    stack - buy_in; a raked table adds the house (player_id ``house``, its rake as buy_out),
    so that the nets sum to zero."""
    found = sit_downs(session, table_id)
    names = select(PlayerRow.id, PlayerRow.name).where(
        PlayerRow.id.in_({sit.player_id for sit in found})
    )
    nickname = {player_id: name for player_id, name in session.execute(names)}
    rakes = session.execute(
        select(TransferRow.at, EntryRow.amount)
        .join(EntryRow, EntryRow.transfer_id == TransferRow.id)
        .join(AccountRow, EntryRow.account_id == AccountRow.id)
        .where(TransferRow.table_id == table_id, AccountRow.kind == AccountKind.HOUSE.value)
        .order_by(EntryRow.id)
    ).all()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SIT_DOWN_HEADER.split(","))
    for sit in found:
        end = "" if sit.end is None else iso_time(sit.end)
        chips = (sit.buy_in, sit.buy_out, sit.stack, sit.net)
        writer.writerow([nickname[sit.player_id], sit.player_id, iso_time(sit.start), end, *chips])
    rake = sum(amount for _, amount in rakes)
    if rake:
        first, last = iso_time(rakes[0][0]), iso_time(rakes[-1][0])
        writer.writerow([HOUSE, HOUSE, first, last, 0, rake, 0, rake])
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures at a table over every sit-down: hands dealt and won (a
    positive result), chips bought in (top-ups too) and cashed out, the stack still at the
    table, and the net result (the sum of their hand results)."""

    player_id: int
    name: str  # as the ledger's CSV prints it ("Bob #12" for a name two players share)
    hands: int
    won: int
    bought_in: int
    cashed_out: int
    stack: int
    net: int


@dataclass(frozen=True, slots=True)
class TableStats:
    """A table's session from its ledger: the hands whose results it holds, the house's
    rake, and each player's figures, the best net first (then by name)."""

    hands: int
    rake: int
    players: tuple[PlayerStats, ...]


def table_stats(session: Session, table_id: str) -> TableStats:
    """Each player's figures at the table (``PlayerStats``), from the entries of their
    stacks there: a hand result for every hand they were dealt, a buy-in, top-up or
    cash-out for every chip that came or went (a tournament's table: its chips, brought
    to the seat or taken away)."""
    rows = session.execute(
        select(
            AccountRow.player_id,
            AccountRow.kind,
            TransferRow.kind,
            TransferRow.hand_id,
            EntryRow.amount,
        )
        .join(EntryRow, EntryRow.account_id == AccountRow.id)
        .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
        .where(
            (AccountRow.table_id == table_id)
            | ((AccountRow.kind == AccountKind.HOUSE.value) & (TransferRow.table_id == table_id))
        )
    ).all()
    figures: dict[int, dict[str, int]] = {}
    hands: set[str | None] = set()  # a hand result names its hand
    rake = 0
    for player_id, account, kind, hand, amount in rows:
        if account == AccountKind.HOUSE.value or player_id is None:
            rake += amount  # the house's: every other entry here is a stack at the table
            continue
        seen = figures.setdefault(player_id, dict.fromkeys(("hands", "won", "in", "out", "net"), 0))
        if kind == TransferKind.HAND_RESULT.value:
            hands.add(hand)
            seen["hands"] += 1
            seen["won"] += amount > 0
            seen["net"] += amount
        elif kind == TransferKind.CASH_OUT.value or amount < 0:  # a stack edit taking chips
            seen["out"] -= amount
        else:
            seen["in"] += amount
    names = labels(session, figures)
    players = [
        PlayerStats(
            player_id,
            names[player_id],
            seen["hands"],
            seen["won"],
            seen["in"],
            seen["out"],
            seen["in"] + seen["net"] - seen["out"],
            seen["net"],
        )
        for player_id, seen in figures.items()
    ]
    players.sort(key=lambda player: (-player.net, player.name.casefold(), player.player_id))
    return TableStats(len(hands), rake, tuple(players))


def seated_at(session: Session, table_id: str, moment: datetime) -> dict[str, int]:
    """Who sat at the table at ``moment``, by name: the player of each name whose latest
    buy-in there (at a tournament's table: chips brought to the seat) came by then (two
    players of one name never sit at a table together)."""
    rows = session.execute(
        select(PlayerRow.name, AccountRow.player_id)
        .join(AccountRow, AccountRow.player_id == PlayerRow.id)
        .join(EntryRow, EntryRow.account_id == AccountRow.id)
        .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
        .where(AccountRow.table_id == table_id, AccountRow.kind == AccountKind.TABLE.value)
        .where(
            (TransferRow.kind == TransferKind.BUY_IN.value)
            | ((TransferRow.kind == TransferKind.CHIPS.value) & (EntryRow.amount > 0)),
            TransferRow.at <= moment,
        )
        .order_by(EntryRow.id)
    ).all()
    return {name: player_id for name, player_id in rows if player_id is not None}


def settle(session: Session, table_id: str) -> list[Payment]:
    """Who pays whom, from each player's net result at the table (the sum of their hand
    results) and the rake the house took there; no one at a tournament's table (its
    chips are not the room's: the entries and prizes settled it)."""
    if session.get(TournamentTableRow, table_id) is not None:
        return []
    rows = session.execute(
        select(AccountRow.player_id, func.sum(EntryRow.amount))
        .join(EntryRow, EntryRow.account_id == AccountRow.id)
        .join(TransferRow, EntryRow.transfer_id == TransferRow.id)
        .where(TransferRow.table_id == table_id)
        .where(TransferRow.kind == TransferKind.HAND_RESULT.value)
        .group_by(AccountRow.player_id)
    ).all()
    names = labels(session, (player for player, _ in rows if player is not None))
    return settle_up({names[player]: int(net) for player, net in rows})


def check_invariant(session: Session) -> LedgerTotals:
    """Raise InvariantBroken unless every transfer sums to zero (so all entries do), every
    account's total is the sum of its entries, no stack at a table, prize pool, nor the
    house is below zero, and each tournament's chips (the stacks at its tables and its
    bank) sum to zero; the totals by kind of account."""
    unbalanced = session.execute(
        select(EntryRow.transfer_id, func.sum(EntryRow.amount))
        .group_by(EntryRow.transfer_id)
        .having(func.sum(EntryRow.amount) != 0)
    ).all()
    if unbalanced:
        sums = [(transfer, int(total)) for transfer, total in unbalanced]
        raise InvariantBroken(f"transfers that do not sum to zero (id, sum): {sums}")
    entered = func.coalesce(func.sum(EntryRow.amount), 0)
    drifted = session.execute(
        select(AccountRow.key, AccountRow.chips, entered)
        .outerjoin(EntryRow, EntryRow.account_id == AccountRow.id)
        .group_by(AccountRow.id, AccountRow.key, AccountRow.chips)
        .having(AccountRow.chips != entered)
        .order_by(AccountRow.key)
    ).all()
    if drifted:
        found = [(key, int(chips), int(total)) for key, chips, total in drifted]
        raise InvariantBroken(
            f"accounts whose total is not the sum of their entries (account, total, sum): {found}"
        )
    stacks = _account_totals(
        session,
        AccountRow.key,
        AccountRow.kind.not_in((AccountKind.BALANCE.value, AccountKind.BANK.value)),
    )
    negative = sorted((key, chips) for key, chips in stacks.items() if chips < 0)
    if negative:
        raise InvariantBroken(f"accounts below zero (account, chips): {negative}")
    kinds = _account_totals(session, AccountRow.kind)
    totals = LedgerTotals(
        balances=kinds.get(AccountKind.BALANCE.value, 0),
        on_tables=kinds.get(AccountKind.TABLE.value, 0),
        house=kinds.get(AccountKind.HOUSE.value, 0),
        pools=kinds.get(AccountKind.POOL.value, 0),
        banks=kinds.get(AccountKind.BANK.value, 0),
    )
    if totals.balances + totals.on_tables + totals.house + totals.pools + totals.banks != 0:
        raise InvariantBroken(f"the ledger does not sum to zero: {totals}")
    _check_tournament_chips(session)
    return totals


def _check_tournament_chips(session: Session) -> None:
    """Each tournament's chips on its tables and its bank sum to zero: they came from the
    bank and go back to it, never from nor to the room's chips."""
    on_tables = dict(
        session.execute(
            select(TournamentTableRow.tournament_id, func.sum(AccountRow.chips))
            .join(AccountRow, AccountRow.table_id == TournamentTableRow.table_id)
            .where(AccountRow.kind == AccountKind.TABLE.value)
            .group_by(TournamentTableRow.tournament_id)
        ).all()
    )
    banks = _account_totals(session, AccountRow.key, AccountRow.kind == AccountKind.BANK.value)
    chips = {int(key.partition(":")[2]): total for key, total in banks.items()}
    for tournament, total in on_tables.items():
        chips[tournament] = chips.get(tournament, 0) + int(total)
    wrong = sorted((tournament, total) for tournament, total in chips.items() if total)
    if wrong:
        raise InvariantBroken(
            f"tournament chips that do not sum to zero with their bank (tournament, sum): {wrong}"
        )


def _account_totals(
    session: Session, column: InstrumentedAttribute[Key], *where: ColumnElement[bool]
) -> dict[Key, int]:
    """The chips of the accounts, grouped by ``column``."""
    query = select(column, func.sum(AccountRow.chips)).where(*where).group_by(column)
    return {key: int(total) for key, total in session.execute(query)}
