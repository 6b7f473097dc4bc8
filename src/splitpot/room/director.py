"""A tournament's director (RULES.md 8): what the tournament decides, as a pure function of
its state as the store holds it, the time, and the shell's randomness.

The director starts the tournament (seats drawn at random over as few tables as hold the
field), places the players out (ties by the stacks they started that hand with), pays the
prizes, seats late entrants, balances and breaks the tables between hands, and clears each
table waiting between hands to deal its next one, all tables at once when they play hand
for hand. The shell (``server/tournaments.py``) reads the state, calls ``decide`` and
writes its ``Decision`` in one transaction under the tournament's lease; every table waits
for its clearance, so a decision never races the hand it concerns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from splitpot.room.tournament_settings import Kind, TournamentSettings
from splitpot.tournament.balancing import Move, TableState, hand_for_hand, plan
from splitpot.tournament.places import Finish, finishes

Draw = Callable[[int], int]  # a random index in range(n): the shell's randomness


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # a scheduled start with fewer than two entrants


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry as the store holds it: where the player sits (table id, 0-based seat),
    their tournament chips, and, once out, the hand and the stack they started it with."""

    player: int
    name: str
    table: str | None = None
    seat: int | None = None
    chips: int = 0
    out_hand: str | None = None
    out_stack: int = 0
    out_order: int = 0  # the order the store heard of the players out
    place: int | None = None
    bot: bool = False

    @property
    def in_play(self) -> bool:
        """Not out: seated, or registered late and waiting for a seat."""
        return self.out_hand is None and self.place is None


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """One of the tournament's tables: ``ready`` is the number of the hand it waits to
    deal (it waits while ``ready > cleared``), ``next_big_blind`` the seat due it."""

    id: str
    number: int
    ready: int = 0
    cleared: int = 0
    next_big_blind: int | None = None
    broken: bool = False

    @property
    def waiting(self) -> bool:
        return not self.broken and self.ready > self.cleared


@dataclass(frozen=True, slots=True)
class TournamentState:
    id: int
    settings: TournamentSettings
    status: Status
    start_at: datetime | None  # a scheduled start, or the host's start of a sit-and-go
    entrants: tuple[Entrant, ...]
    tables: tuple[TournamentTable, ...] = ()
    entries: int = 0  # how many paid in: the payout table's entrants (late ones too)
    pool: int = 0  # the prize pool: the buy-ins paid
    hand_for_hand: bool = False  # the tables play hand for hand (the last decision's)

    def table_numbered(self, number: int) -> TournamentTable:
        return next(table for table in self.tables if table.number == number)


@dataclass(frozen=True, slots=True)
class Seating:
    """A player given a seat: at the start, or registered late (0-based seat)."""

    player: int
    table: int  # the table's number
    seat: int


@dataclass(frozen=True, slots=True)
class Decision:
    """What the director decided; the shell writes all of it in one transaction."""

    start: bool = False  # the tournament starts: ``tables`` tables open, ``seated`` sit
    tables: int = 0
    seated: tuple[Seating, ...] = ()  # at the start, or late entrants
    finishes: tuple[Finish, ...] = ()  # places now final, with their prizes
    moves: tuple[Move, ...] = ()
    broken: tuple[int, ...] = ()  # table numbers
    cleared: tuple[int, ...] = ()  # tables that may deal the hand they wait to deal
    hand_for_hand: bool = False
    finished: bool = False
    cancelled: bool = False

    @property
    def changes(self) -> bool:
        return bool(
            self.start
            or self.seated
            or self.finishes
            or self.moves
            or self.broken
            or self.cleared
            or self.finished
            or self.cancelled
        )


def decide(state: TournamentState, now: datetime, draw: Draw) -> Decision:
    """What the tournament does now (RULES.md 8)."""
    if state.status is Status.REGISTERING:
        return _start(state, now, draw)
    if state.status is not Status.RUNNING:
        return Decision()
    return _run(state, draw)


def starts(state: TournamentState, now: datetime) -> bool:
    """A sit-and-go starts when its seats are full, or when its host starts it with at
    least two; a scheduled tournament at its start."""
    count = len(state.entrants)
    if state.settings.kind is Kind.SIT_AND_GO and count >= state.settings.most_entrants:
        return True
    return state.start_at is not None and now >= state.start_at


def _start(state: TournamentState, now: datetime, draw: Draw) -> Decision:
    """RULES.md 8: seats drawn at random, over as few tables as hold the field, as even
    as they can be; fewer than two entrants at the start call it off."""
    if not starts(state, now):
        return Decision()
    players = [entrant.player for entrant in state.entrants]
    if len(players) < 2:
        return Decision(cancelled=True)
    seats = state.settings.seats
    tables = math.ceil(len(players) / seats)
    shuffled = _shuffled(players, draw)
    seated = []
    for number in range(1, tables + 1):
        at_table = shuffled[number - 1 :: tables]
        chairs = _shuffled(list(range(seats)), draw)
        seated += [Seating(p, number, chair) for p, chair in zip(at_table, chairs, strict=False)]
    return Decision(start=True, tables=tables, seated=tuple(seated))


def _shuffled(items: list[int], draw: Draw) -> list[int]:
    """A uniform random order of ``items`` (Fisher-Yates), from the shell's draws."""
    order = list(items)
    for last in range(len(order) - 1, 0, -1):
        other = draw(last + 1)
        order[last], order[other] = order[other], order[last]
    return order


def _run(state: TournamentState, draw: Draw) -> Decision:
    left = [e for e in state.entrants if e.place is None]
    active = [t for t in state.tables if not t.broken]
    # Hand for hand, the players out at every table in one round are out in one hand
    # (RULES.md 8, TDA): placed once every table has played it (or cannot deal).
    seated = _seats_after([e for e in left if e.in_play], (), state)
    if state.hand_for_hand and not all(_idle(t, seated) for t in active):
        placed: list[Finish] = []
        left = [e for e in left if e.out_hand is None]
    else:
        placed = _places(state, left, together=state.hand_for_hand)
    still_in = [e for e in left if e.in_play]
    if len(still_in) <= 1:
        winner = [Finish(e.player, 1, 1, _prizes(state)[0]) for e in still_in]
        broken = tuple(t.number for t in active)
        return Decision(finishes=(*placed, *winner), broken=broken, finished=True)
    late = _seat_late(state, still_in, active, draw)
    seats = _seats_after(still_in, late, state)
    idle = {t.number for t in active if _idle(t, seats)}
    balanced = plan(
        [
            TableState(
                t.number,
                state.settings.seats,
                seats.get(t.number, {}),
                t.next_big_blind,
                t.number in idle,
            )
            for t in active
        ],
        draw,
    )
    emptied = _emptied(active, seats, balanced.moves, balanced.broken)
    broken = (*balanced.broken, *emptied)
    playing = [t for t in active if t.number not in broken]
    paid = state.settings.payouts.places_paid(max(state.entries, 2))
    together = hand_for_hand(len(still_in), paid, len(playing), state.settings.seats)
    waiting = [t.number for t in playing if t.number in idle]
    if together and len(waiting) < len(playing):
        cleared: tuple[int, ...] = ()  # hand for hand: every table waits for the last one
    else:
        cleared = tuple(waiting)
    return Decision(
        seated=late,
        finishes=tuple(placed),
        moves=balanced.moves,
        broken=broken,
        cleared=cleared,
        hand_for_hand=together,
    )


def _idle(table: TournamentTable, seats: dict[int, dict[int, int]]) -> bool:
    """Between hands: waiting to deal, or with fewer than two players (it deals nothing)."""
    return table.waiting or len(seats.get(table.number, {})) < 2


def _emptied(
    active: Sequence[TournamentTable],
    seats: dict[int, dict[int, int]],
    moves: Sequence[Move],
    broken: Sequence[int],
) -> tuple[int, ...]:
    """Tables left with no player once the moves are made: closed (broken) too."""
    count = {t.number: len(seats.get(t.number, {})) for t in active}
    for move in moves:
        count[move.from_table] -= 1
        count[move.to_table] += 1
    return tuple(n for n, players in count.items() if players == 0 and n not in broken)


def _prizes(state: TournamentState) -> tuple[int, ...]:
    return state.settings.payouts.prizes(state.pool, max(state.entries, 2))


def _places(state: TournamentState, left: Sequence[Entrant], *, together: bool) -> list[Finish]:
    """RULES.md 8: the players out, hand by hand in the order the store heard of them,
    placed below everyone still in; those out in the same hand (``together``: all of
    them, one round of hand for hand) by their stacks at its start, equal stacks sharing
    the places and their prizes."""
    out = sorted((e for e in left if e.out_hand is not None), key=lambda e: e.out_order)
    hands: dict[str, dict[int, int]] = {}
    for entrant in out:
        assert entrant.out_hand is not None
        hand = "round" if together else entrant.out_hand
        hands.setdefault(hand, {})[entrant.player] = entrant.out_stack
    prizes = _prizes(state)
    remaining = len(left)
    placed: list[Finish] = []
    for busted in hands.values():
        placed += finishes(busted, remaining, prizes)
        remaining -= len(busted)
    return placed


def _seat_late(
    state: TournamentState,
    still_in: Sequence[Entrant],
    active: Sequence[TournamentTable],
    draw: Draw,
) -> tuple[Seating, ...]:
    """Late entrants (registered, not yet seated) each to a drawn empty seat at a table
    with the fewest players (ties: the lowest number), so the tables stay balanced."""
    counts = {t.number: 0 for t in active}
    taken: dict[int, set[int]] = {t.number: set() for t in active}
    numbers = {t.id: t.number for t in active}
    for entrant in still_in:
        if entrant.table in numbers and entrant.seat is not None:
            counts[numbers[entrant.table]] += 1
            taken[numbers[entrant.table]].add(entrant.seat)
    seated = []
    for entrant in still_in:
        if entrant.table is not None or not counts:
            continue
        number = min(counts, key=lambda n: (counts[n], n))
        empty = [s for s in range(state.settings.seats) if s not in taken[number]]
        if not empty:
            break  # every seat is taken: the entrant waits for a table to open
        seat = empty[draw(len(empty))]
        taken[number].add(seat)
        counts[number] += 1
        seated.append(Seating(entrant.player, number, seat))
    return tuple(seated)


def _seats_after(
    still_in: Sequence[Entrant], late: Sequence[Seating], state: TournamentState
) -> dict[int, dict[int, int]]:
    """Each table's seats (seat -> player) once the late entrants sit."""
    numbers = {t.id: t.number for t in state.tables}
    seats: dict[int, dict[int, int]] = {}
    for entrant in still_in:
        if entrant.table in numbers and entrant.seat is not None:
            seats.setdefault(numbers[entrant.table], {})[entrant.seat] = entrant.player
    for seating in late:
        seats.setdefault(seating.table, {})[seating.seat] = seating.player
    return seats
