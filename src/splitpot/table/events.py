"""What happens at a table, as small frozen values keyed by table seat (DESIGN.md).

A table's own events (a player sits, leaves, sits out, adds chips, a hand starts or
ends, the stakes change) and the engine's events of each hand, re-keyed from the hand's
player index to the table seat. Privacy is the engine's one function, ``view``: a deal of
hole cards is visible to its seat alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from splitpot.cards import Card
from splitpot.engine import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleCardsDealt,
    Mucked,
    Posted,
    Pot,
    PotAwarded,
    RoundEnded,
    RunItOffered,
    Shown,
    TurnedFaceUp,
    UncalledBetReturned,
    view,
)
from splitpot.frozen import quick_init
from splitpot.rules import Betting, Variant
from splitpot.table.model import Straddle


@dataclass(frozen=True, slots=True)
class PlayerSat:
    seat: int
    name: str
    stack: int
    post_now: bool


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left the table with ``stack`` chips (cashed out)."""

    seat: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class SatOut:
    seat: int
    name: str
    timed_out: bool = False  # RULES.md 6: a time-out sits the player out


@dataclass(frozen=True, slots=True)
class SatIn:
    seat: int
    name: str
    post_now: bool


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    seat: int
    name: str
    amount: int
    stack: int


@dataclass(frozen=True, slots=True)
class StackEdited:
    """The host added chips to a stack (``amount`` > 0) or took chips from it (< 0),
    between hands; ``stack`` is the stack after it."""

    seat: int
    name: str
    amount: int
    stack: int


@dataclass(frozen=True, slots=True)
class StakesChanged:
    """The structure or stakes of the next hands differ from the last hand's (a mixed
    game's turn, RULES.md 3, or a host's change)."""

    betting: Betting


@quick_init
@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand is dealt: its number, the button, and the seats dealt in, clockwise, with
    their names and stacks before the posts. ``draw`` holds the cards drawn for the
    button by each seat, when the game (re)started with a draw (RULES.md 4.1)."""

    number: int
    button: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    variant: Variant
    betting: Betting
    draw: tuple[tuple[int, Card], ...] = ()


@dataclass(frozen=True, slots=True)
class StraddleChosen:
    """A player's straddle for the hands to come (RULES.md 7)."""

    seat: int
    name: str
    straddle: Straddle


@dataclass(frozen=True, slots=True)
class BombPotCalled:
    """The host called a bomb pot for the next hand (RULES.md 7)."""

    blinds: int  # the bomb, in big blinds


@dataclass(frozen=True, slots=True)
class RunItAnswered:
    """A player's answer to running the board twice (RULES.md 7)."""

    number: int
    seat: int
    yes: bool


@dataclass(frozen=True, slots=True)
class KillDue:
    """RULES.md 7: the seat scooped a pot of at least the kill size; the next hand is a
    kill pot, ``blind`` its kill blind."""

    seat: int
    name: str
    blind: int


@dataclass(frozen=True, slots=True)
class RabbitHunted:
    """RULES.md 7: the board that would have come in hand ``number``, asked for by
    ``seat``; shown, never dealt."""

    number: int
    seat: int
    cards: tuple[BoardDealt, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class InHand:
    """An engine event of hand ``number``, its ``player`` fields naming table seats."""

    number: int
    event: Event


@quick_init
@dataclass(frozen=True, slots=True)
class HandFinished:
    """The hand is over and settled: each dealt seat's stack after it."""

    number: int
    stacks: tuple[tuple[int, int], ...]  # (seat, stack)


TableEvent = (
    PlayerSat
    | PlayerLeft
    | SatOut
    | SatIn
    | ChipsAdded
    | StackEdited
    | StakesChanged
    | HandStarted
    | InHand
    | HandFinished
    | StraddleChosen
    | BombPotCalled
    | RunItAnswered
    | KillDue
    | RabbitHunted
)


# the engine's events about one player; a tuple, not a union: isinstance builds a union
# written in the call at every call (by_seat runs at every action)
_A_PLAYERS = (
    Posted,
    HoleCardsDealt,
    Acted,
    UncalledBetReturned,
    TurnedFaceUp,
    Shown,
    Mucked,
    PotAwarded,
)


def by_seat(number: int, events: list[Event], seats: tuple[int, ...]) -> list[TableEvent]:
    """A hand's engine events as table events: players named by table seat, and the
    engine's end of hand as ``HandFinished`` with each seat's stack."""
    keyed: list[TableEvent] = []
    for event in events:
        if isinstance(event, HandEnded):
            keyed.append(HandFinished(number, tuple(zip(seats, event.stacks, strict=True))))
        elif isinstance(event, _A_PLAYERS):
            seat = seats[event.player]  # the same number at a full table: kept as it is
            seated = event if seat == event.player else replace(event, player=seat)
            keyed.append(InHand(number, seated))
        elif isinstance(event, RunItOffered):
            keyed.append(InHand(number, RunItOffered(tuple(seats[p] for p in event.players))))
        elif isinstance(event, RoundEnded):
            pots = tuple(Pot(p.amount, tuple(seats[i] for i in p.eligible)) for p in event.pots)
            keyed.append(InHand(number, RoundEnded(event.street, event.pot, pots)))
        else:
            keyed.append(InHand(number, event))
    return keyed


def seen_by(event: TableEvent, viewer: int | None) -> TableEvent:
    """The event as the player in seat ``viewer`` may see it (None: a watcher): the
    event itself where it hides nothing from them."""
    if isinstance(event, InHand):
        seen = view(event.event, viewer)
        return event if seen is event.event else InHand(event.number, seen)
    return event


__all__ = [
    "BombPotCalled",
    "ChipsAdded",
    "HandFinished",
    "HandStarted",
    "InHand",
    "KillDue",
    "PlayerLeft",
    "PlayerSat",
    "RabbitHunted",
    "RunItAnswered",
    "SatIn",
    "SatOut",
    "StackEdited",
    "StakesChanged",
    "StraddleChosen",
    "TableEvent",
    "by_seat",
    "seen_by",
]
