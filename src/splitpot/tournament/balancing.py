"""Balancing and breaking the tables of a multi-table tournament (RULES.md 8): between
hands, which players move where, decided as a pure plan from the tables' seating and the
shell's random draws, so that a replay of the same draws moves the same players."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from splitpot.tournament.errors import TournamentError

__all__ = ["Move", "MoveReason", "Plan", "TableState", "hand_for_hand", "plan"]

# RULES.md 6: a table has 2 to 10 seats.
FEWEST_SEATS = 2
MOST_SEATS = 10


def _whole(value: object) -> bool:
    """A whole number, not a bool (which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class TableState:
    """One table as the balancing sees it: its seats (seat -> player id, 0-based seats),
    the seat due the big blind next hand (None: the button is still to be drawn), and
    whether it is between hands (only then may it give players up or break)."""

    number: int
    seats: int
    players: Mapping[int, int]
    next_big_blind: int | None
    between_hands: bool

    def __post_init__(self) -> None:
        if not _whole(self.number) or self.number < 1:
            raise TournamentError("a table's number is 1 or more, not {number}", number=self.number)
        if not _whole(self.seats) or not FEWEST_SEATS <= self.seats <= MOST_SEATS:
            raise TournamentError(
                "table {table}: a table has 2 to 10 seats, not {seats}",
                table=self.number,
                seats=self.seats,
            )
        for seat, player in self.players.items():
            if not _whole(seat) or not 0 <= seat < self.seats:
                raise TournamentError(
                    "table {table}: seat {seat} is not one of its seats 0 to {last}",
                    table=self.number,
                    seat=seat,
                    last=self.seats - 1,
                )
            if not _whole(player):
                raise TournamentError(
                    "table {table}: seat {seat} holds {player}, not a player id",
                    table=self.number,
                    seat=seat,
                    player=player,
                )
        if len(set(self.players.values())) != len(self.players):
            raise TournamentError(
                "table {table}: a player sits in two of its seats", table=self.number
            )
        nbb = self.next_big_blind
        if nbb is not None and (not _whole(nbb) or not 0 <= nbb < self.seats):
            raise TournamentError(
                "table {table}: the next big blind's seat {seat} is not one of its seats",
                table=self.number,
                seat=nbb,
            )


class MoveReason(Enum):
    """Why a player changes tables: to balance the tables, or because theirs broke."""

    BALANCE = "balance"
    BREAK = "break"


@dataclass(frozen=True, slots=True)
class Move:
    """One player's move from a seat at one table to a seat at another."""

    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


@dataclass(frozen=True, slots=True)
class Plan:
    """The moves to make now, in the order decided, and the tables that broke."""

    moves: tuple[Move, ...]
    broken: tuple[int, ...]


@dataclass(slots=True)
class _Seating:
    """A table's seating while the plan is made (the plan's own copy, changed move by move)."""

    number: int
    seats: int
    between_hands: bool
    next_big_blind: int | None
    players: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, table: TableState) -> _Seating:
        return cls(
            table.number,
            table.seats,
            table.between_hands,
            table.next_big_blind,
            dict(table.players),
        )

    @property
    def count(self) -> int:
        return len(self.players)

    def empty_seats(self) -> list[int]:
        """The empty seats, in ascending seat order."""
        return [seat for seat in range(self.seats) if seat not in self.players]

    def clockwise(self, start: int) -> list[int]:
        """Every seat once, clockwise from ``start`` (itself first)."""
        return [(start + step) % self.seats for step in range(self.seats)]

    def after(self, seat: int) -> list[int]:
        """Every seat once, clockwise after ``seat`` (itself last, once round the table)."""
        return [(seat + step) % self.seats for step in range(1, self.seats + 1)]

    def due_big_blind(self) -> int:
        """The seat of the player who would be the big blind next: the one in the
        ``next_big_blind`` seat, or else the first occupied seat clockwise from it (from
        seat 0 when the button is still to be drawn). The table has a player."""
        start = 0 if self.next_big_blind is None else self.next_big_blind
        return next(seat for seat in self.clockwise(start) if seat in self.players)

    def big_blind_soonest(self, draw: Callable[[int], int]) -> int:
        """The empty seat that will be the big blind soonest without taking it out of
        turn: the first empty seat clockwise after the ``next_big_blind`` seat (a drawn
        empty seat when the button is still to be drawn). The table has an empty seat."""
        if self.next_big_blind is None:
            empty = self.empty_seats()
            return empty[_drawn(draw, len(empty))]
        return next(seat for seat in self.after(self.next_big_blind) if seat not in self.players)


def _drawn(draw: Callable[[int], int], count: int) -> int:
    """The shell's random index in ``range(count)``, checked."""
    index = draw(count)
    if not _whole(index) or not 0 <= index < count:
        raise TournamentError(
            "the draw gave {index}, not an index below {count}", index=index, count=count
        )
    return index


def _check_apart(tables: Sequence[TableState]) -> None:
    """Each table number once, and each player at one table at most."""
    numbers: set[int] = set()
    players: set[int] = set()
    for table in tables:
        if table.number in numbers:
            raise TournamentError("table {table} is given twice", table=table.number)
        numbers.add(table.number)
        for player in table.players.values():
            if player in players:
                raise TournamentError("player {player} sits at two tables", player=player)
            players.add(player)


def _open(tables: list[_Seating]) -> list[_Seating]:
    """The tables with an empty seat (only they can take a player)."""
    return [table for table in tables if table.count < table.seats]


def _break(tables: list[_Seating], draw: Callable[[int], int], moves: list[Move]) -> int | None:
    """RULES.md 8: when the players fit on the other tables' seats, the table with the
    fewest players (ties: the highest number) breaks, if it is between hands; its players,
    in ascending seat order, each go to a drawn empty seat of the tables with the fewest
    players at that moment. Returns the broken table's number; the table leaves ``tables``."""
    if len(tables) < 2:
        return None
    breaking = min(tables, key=lambda table: (table.count, -table.number))
    others = [table for table in tables if table is not breaking]
    if sum(table.count for table in tables) > sum(table.seats for table in others):
        return None
    if not breaking.between_hands:
        return None  # it breaks when its hand is over
    for from_seat in sorted(breaking.players):
        player = breaking.players[from_seat]
        open_tables = _open(others)
        fewest = min(table.count for table in open_tables)
        candidates = [
            (table, seat)
            for table in open_tables
            if table.count == fewest
            for seat in table.empty_seats()
        ]
        receiver, to_seat = candidates[_drawn(draw, len(candidates))]
        receiver.players[to_seat] = player
        moves.append(
            Move(player, breaking.number, from_seat, receiver.number, to_seat, MoveReason.BREAK)
        )
    tables.remove(breaking)
    return breaking.number


def _balance(
    tables: list[_Seating], draw: Callable[[int], int], moves: list[Move], moved: set[int]
) -> None:
    """RULES.md 8: while a table between hands has two more players than the smallest
    (fewest players, ties the lowest number), the biggest such table (ties the lowest
    number) gives the player due its big blind to the smallest table's seat that will be
    the big blind soonest; the giver's next big blind passes to the next player."""
    while open_tables := _open(tables):
        smallest = min(open_tables, key=lambda table: (table.count, table.number))
        givers = [
            table
            for table in tables
            if table.between_hands
            and table.count >= smallest.count + 2
            and table.players[table.due_big_blind()] not in moved
        ]
        if not givers:
            return
        giver = min(givers, key=lambda table: (-table.count, table.number))
        from_seat = giver.due_big_blind()
        player = giver.players.pop(from_seat)
        to_seat = smallest.big_blind_soonest(draw)
        smallest.players[to_seat] = player
        giver.next_big_blind = next(
            seat for seat in giver.after(from_seat) if seat in giver.players
        )
        moved.add(player)
        moves.append(
            Move(player, giver.number, from_seat, smallest.number, to_seat, MoveReason.BALANCE)
        )


def plan(tables: Sequence[TableState], draw: Callable[[int], int]) -> Plan:
    """The moves to make now between the tables (RULES.md 8): at most one table breaks,
    then the tables are balanced. ``draw(n)`` is the shell's random index in ``range(n)``.
    Tables with no players are ignored (already broken); no player moves twice."""
    _check_apart(tables)
    seating = sorted(
        (_Seating.of(table) for table in tables if table.players),
        key=lambda table: table.number,
    )
    moves: list[Move] = []
    broken = _break(seating, draw, moves)
    _balance(seating, draw, moves, {move.player for move in moves})
    return Plan(tuple(moves), () if broken is None else (broken,))


def hand_for_hand(players_left: int, paid: int, tables: int, seats: int) -> bool:
    """Whether the tables play hand for hand (RULES.md 8): at the money bubble (one
    player more than the places paid) while more than one table plays, and when the next
    elimination makes the final table (one player more than a table's seats, two tables)."""
    for name, value, least in (
        ("players_left", players_left, 1),
        ("paid", paid, 1),
        ("tables", tables, 1),
        ("seats", seats, FEWEST_SEATS),
    ):
        if not _whole(value) or value < least:
            raise TournamentError(
                "{name}: {value} is not a whole number of {least} or more",
                name=name,
                value=value,
                least=least,
            )
    if tables == 1:
        return False
    return players_left == paid + 1 or (tables == 2 and players_left == seats + 1)
