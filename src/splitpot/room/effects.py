"""What a table host asks of its shell, one step at a time (docs/architecture.md "The
table host"). ``TableHost.handle`` and ``tick`` are generators of these values:

- **work** for the store and the world (``TakeSeat``, ``LogAction``, ``StartHand``,
  ``DrawDeal``...): the shell does it and sends the answer back into the generator (or
  throws the error into it); the host changes its state only once the work is done, so a
  refused write leaves the host as it was and nothing unlogged is told;
- **tells** (``Publish``, ``Announce``, ``OfferTurn``...): what the shell sends to the
  people at the table, at once, in order.

The host never does I/O, reads no clock and draws no randomness: it asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from splitpot.cards import Card
from splitpot.dealer import Scene
from splitpot.engine import Hand, LegalActions
from splitpot.fair import PreOrder
from splitpot.history import HandRecord
from splitpot.i18n import Said
from splitpot.protocol import JsonObject
from splitpot.room.clock import Turn, Vote
from splitpot.room.commands import Person
from splitpot.room.runout import FaceUp
from splitpot.rules import Variant
from splitpot.table import TableEvent


class Presence(StrEnum):
    """A seat's standing that outlives a restart (the store keeps it)."""

    WAITING = "waiting"  # seated, dealt in when the blinds allow
    SITTING_OUT = "sitting_out"  # away: dealt no hand until back
    LEAVING = "leaving"  # asked to leave during a hand: cashed out when it ends


# ---------------------------------------------------------------- work


@dataclass(frozen=True, slots=True)
class TakeSeat:
    seat: int
    player_id: int
    buy_in: int


@dataclass(frozen=True, slots=True)
class AddChips:
    player_id: int
    amount: int


@dataclass(frozen=True, slots=True)
class EditStack:
    """The host's edit of a player's stack (``amount`` > 0 added from the player's balance,
    < 0 taken back to it), with the host as its author in the ledger; ``queued``: it waited
    for a hand's end, and its entry in the table's record goes with it."""

    player_id: int
    amount: int
    author_id: int
    queued: bool = False


@dataclass(frozen=True, slots=True)
class CashOut:
    """The player leaves the table with their stack (the ledger's cash-out)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class SaveStatus:
    player_id: int
    status: Presence


@dataclass(frozen=True, slots=True)
class LogAction:
    """Action ``seq`` of the hand in play, logged before anyone hears of it."""

    hand: str
    seq: int
    seat: int
    kind: str
    amount: int | None


@dataclass(frozen=True, slots=True)
class StartHand:
    """The hand's setup kept first (the table before the deal, the deck, the deal's
    secrets): answered with ``HandBegun``."""

    setup: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HandBegun:
    id: str
    serial: int
    started_at: datetime


@dataclass(frozen=True, slots=True)
class CancelHand:
    hand: str


@dataclass(frozen=True, slots=True)
class FinishHand:
    """The hand's record and each player's result (the ledger's hand result); ``played``:
    the record as a value and the engine's hand, which the record's document is made of
    without reading the record again and replaying it."""

    hand: str
    number: int
    serial: int
    started_at: datetime
    record: dict[str, Any]
    results: dict[int, int]
    rake: int
    played: tuple[HandRecord, Hand]


@dataclass(frozen=True, slots=True)
class ChangeTable:
    """Settings (``changes``) or the host (``host_id``) kept for a restart."""

    changes: dict[str, Any]
    host_id: int | None = None


@dataclass(frozen=True, slots=True)
class BanPlayer:
    player_id: int


@dataclass(frozen=True, slots=True)
class MakeInvite:
    """A private table's new invite: answered with the invite."""


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Everyone cashed out in one transaction and the table closed."""


@dataclass(frozen=True, slots=True)
class EndSession:
    """FAIRNESS.md's audit: the hands since the last one published; answered with a
    ``SessionEnded`` or None (no hand since)."""


@dataclass(frozen=True, slots=True)
class SessionEnded:
    number: int
    first_hand: int
    last_hand: int


@dataclass(frozen=True, slots=True)
class CheckTournament:
    """A tournament table between hands (RULES.md 8): it waits to deal hand ``ready``,
    ``next_big_blind`` due the big blind; answered with the table's ``TournamentOrders``."""

    ready: int
    next_big_blind: int | None


@dataclass(frozen=True, slots=True)
class DrawDeal:
    """The secrets of the next deal (FAIRNESS.md 1 and 2) and the cards of a draw for the
    button: answered with ``DealSecrets``, secret randomness, or a test's seeded one."""


@dataclass(frozen=True, slots=True)
class DealSecrets:
    pre_order: PreOrder
    seed: bytes
    draw: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class WorkOutEquity:
    """Each face-up hand's exact equity (heavy: off the event loop): answered with an
    ``EquityResult``, or None when it could not be worked out."""

    variant: Variant
    face_up: FaceUp
    boards: tuple[tuple[Card, ...], ...]  # the board, or both of two (RULES.md 7)


Work = (
    TakeSeat | AddChips | EditStack | CashOut | SaveStatus | LogAction | StartHand
    | CancelHand | FinishHand | ChangeTable | BanPlayer | MakeInvite | CloseTable | EndSession
    | DrawDeal | WorkOutEquity | CheckTournament
)  # fmt: skip

# ---------------------------------------------------------------- tells


@dataclass(frozen=True, slots=True)
class Publish:
    """The table's events, each to each viewer as they may see it (``seen_by``), numbered
    from ``seq``; ``scenes``: the dealer's scene before each; ``fairness``: the
    commitments of a hand's start; ``vote``: the clock of the question to run it twice
    (its ``run_it`` event tells the deadline)."""

    events: tuple[TableEvent, ...]
    scenes: tuple[Scene, ...]
    seq: int
    fairness: JsonObject | None = None
    vote: Vote | None = None


@dataclass(frozen=True, slots=True)
class Announce:
    """An event of the room's own, the same for every viewer; ``said``: its ``text`` in
    each listener's language (the event holds it in English)."""

    event: JsonObject
    seq: int
    said: Said | None = None


@dataclass(frozen=True, slots=True)
class ToAct:
    """Whose decision it is, with the clock of a player's turn (None: no clock)."""

    hand: str
    seat: int
    turn: Turn | None
    seq: int


@dataclass(frozen=True, slots=True)
class OfferTurn:
    """The player to act is offered their legal actions (every connection of theirs)."""

    player_id: int
    hand: str
    seat: int
    legal: LegalActions
    turn: Turn
    seq: int  # the seq of the event that says whose turn it is


@dataclass(frozen=True, slots=True)
class SayChat:
    person: Person
    seat: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Seated:
    """The player sat down, or asked for a seat: the command's connection, if it is
    theirs, watches the table and gets it whole; seated by the host's approval, each of
    their connections watching gets it whole."""

    player_id: int


@dataclass(frozen=True, slots=True)
class LetGo:
    """Every connection of the player stops watching the table, told why."""

    player_id: int
    reason: str
    text: str


@dataclass(frozen=True, slots=True)
class SendInvite:
    """The private table's new invite, to its host's connections alone."""

    invite: str


@dataclass(frozen=True, slots=True)
class Moved:
    """The tournament moved the player to another of its tables (RULES.md 8): their
    connections here follow them there, told so."""

    player_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Closed:
    """The table is closed: every viewer let go, told ``text``, and its task ends."""

    text: str


Tell = (
    Publish | Announce | ToAct | OfferTurn | SayChat | Seated | LetGo | SendInvite | Moved | Closed
)
TELLS = (Publish, Announce, ToAct, OfferTurn, SayChat, Seated, LetGo, SendInvite, Moved, Closed)
Effect = Work | Tell

__all__ = [
    "TELLS",
    "AddChips",
    "Announce",
    "BanPlayer",
    "CancelHand",
    "CashOut",
    "ChangeTable",
    "CheckTournament",
    "CloseTable",
    "Closed",
    "DealSecrets",
    "DrawDeal",
    "EditStack",
    "Effect",
    "EndSession",
    "FinishHand",
    "HandBegun",
    "LetGo",
    "LogAction",
    "MakeInvite",
    "Moved",
    "OfferTurn",
    "Presence",
    "Publish",
    "SaveStatus",
    "SayChat",
    "Seated",
    "SendInvite",
    "SessionEnded",
    "StartHand",
    "TakeSeat",
    "Tell",
    "ToAct",
    "Work",
    "WorkOutEquity",
]
