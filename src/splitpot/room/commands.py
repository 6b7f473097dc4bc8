"""What a table host is told (docs/architecture.md "The table host"): a person's command
at the table, typed, seats counted from 0 as the table counts them. The shells build
them from the protocol's commands (``server``) or from the person's own words (the
offline game); the host answers each with the steps of ``effects.py``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from splitpot.engine import Action
from splitpot.protocol import HostAction
from splitpot.table import Straddle


@dataclass(frozen=True, slots=True)
class Person:
    """Who sends a command: a player of the room, by id and name."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Sit:
    person: Person
    seat: int
    buy_in: int
    post_now: bool = False


@dataclass(frozen=True, slots=True)
class Act:
    person: Person
    action: Action
    hand: str | None = None  # the hand the person acts in, when they name it
    seat: int | None = None  # the seat the person acts for, when they name it


@dataclass(frozen=True, slots=True)
class SitOut:
    """Away at once: the seat is kept, its decisions are made at once, no hand is dealt
    to it until ``SitIn``."""

    person: Person


@dataclass(frozen=True, slots=True)
class SitIn:
    person: Person
    post_now: bool = False


@dataclass(frozen=True, slots=True)
class Preferences:
    """At the showdown a losing hand is mucked (``muck_losing``), or shown."""

    person: Person
    muck_losing: bool


@dataclass(frozen=True, slots=True)
class TopUp:
    person: Person
    amount: int


@dataclass(frozen=True, slots=True)
class Leave:
    person: Person


@dataclass(frozen=True, slots=True)
class Commit:
    """FAIRNESS.md 3: the commitment to the entropy of the person's next hand."""

    person: Person
    commitment: bytes


@dataclass(frozen=True, slots=True)
class Reveal:
    """FAIRNESS.md 3: the entropy behind the commitment the hand's start listed."""

    person: Person
    hand: str
    entropy: bytes


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line; ``watching``: the person's connection watches the table (a player
    chats where they watch or sit)."""

    person: Person
    text: str
    watching: bool


@dataclass(frozen=True, slots=True)
class RunIt:
    """RULES.md 7: the person's answer when asked to run the board twice (``hand``: the
    hand they answer in, when they name it)."""

    person: Person
    yes: bool
    hand: str | None = None


@dataclass(frozen=True, slots=True)
class Rabbit:
    """RULES.md 7, the rabbit hunt: the board the last hand would have dealt, shown."""

    person: Person


@dataclass(frozen=True, slots=True)
class ChooseStraddle:
    """RULES.md 7: straddle the next time in the straddle's seat, every time, or not."""

    person: Person
    straddle: Straddle


@dataclass(frozen=True, slots=True)
class WaitingList:
    """Join the full table's waiting list (``join``), or leave it (docs/room.md)."""

    person: Person
    join: bool


@dataclass(frozen=True, slots=True)
class HostCommand:
    """The table's host: ``seat`` for remove, ban, host, approve, reject and stack; the
    blinds for stakes; the option fields (table settings, as JSON values) for options;
    ``amount`` for stack (chips added, or taken below 0) and approve (the stack)."""

    person: Person
    action: HostAction
    seat: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    options: dict[str, Any] | None = None
    amount: int | None = None


TableCommand = (
    Sit | Act | SitOut | SitIn | Preferences | TopUp | Leave | Commit | Reveal | Chat
    | HostCommand | RunIt | Rabbit | ChooseStraddle | WaitingList
)  # fmt: skip

# Commands that change the table wait while an announced hand waits for its players'
# entropy: the hand is dealt to the table it was announced at.
WAIT_FOR_THE_DEAL = (Sit, SitOut, SitIn, TopUp, Leave, HostCommand, ChooseStraddle, WaitingList)

__all__ = [
    "WAIT_FOR_THE_DEAL",
    "Act",
    "Chat",
    "ChooseStraddle",
    "Commit",
    "HostCommand",
    "Leave",
    "Person",
    "Preferences",
    "Rabbit",
    "Reveal",
    "RunIt",
    "Sit",
    "SitIn",
    "SitOut",
    "TableCommand",
    "TopUp",
    "WaitingList",
]
