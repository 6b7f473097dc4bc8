"""A hand history as every format reads and writes it: the inputs of a hand and what
the file says happened."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from splitpot.cards import Card, CardError, parse_cards
from splitpot.engine import Action, Post, Share
from splitpot.reading import shown
from splitpot.rules import GameConfig


class HistoryError(ValueError):
    """A hand history that cannot be read; the message says where and why."""


class UnsupportedHand(HistoryError):
    """A hand of a game or a feature splitpot does not play (another game, a draw)."""


UNKNOWN = "??"  # an unknown card in history text (PHH's notation, also splitpot JSON's)
MOST_CHIPS = 10**18  # past any real stake; a file's 5,000-digit stack is refused, not printed


def whole(value: Any, what: str, low: int = 0) -> int:
    """A whole number of a file (not a bool, not a float) from ``low`` up to MOST_CHIPS,
    else HistoryError naming ``what`` and the value."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise HistoryError(f"{what} is {shown(value)}, not a whole number")
    if not low <= value <= MOST_CHIPS:
        raise HistoryError(f"{what} is {shown(value)}, not from {low} to {MOST_CHIPS:.0e}")
    return value


def string(value: Any, what: str) -> str:
    """A string of a file, else HistoryError naming ``what`` and the value."""
    if not isinstance(value, str):
        raise HistoryError(f"{what} is {shown(value)}, not a string")
    return value


def array(value: Any, what: str, length: int | None = None) -> list[Any]:
    """A list of a file (of ``length`` items, when given), else HistoryError."""
    if not isinstance(value, list):
        raise HistoryError(f"{what} is {shown(value)}, not a list")
    if length is not None and len(value) != length:
        raise HistoryError(f"{what} holds {len(value)} values, not one for each of {length}")
    return value


def cards_text(cards: Sequence[Card | None]) -> str:
    """Cards as history text, ``??`` for an unknown card: ``AsKd????``."""
    return "".join(UNKNOWN if card is None else str(card) for card in cards)


def read_cards(text: str, what: str) -> tuple[Card | None, ...]:
    """Two-character cards where ``??`` is unknown; errors name ``what`` and the card."""
    if not isinstance(text, str) or len(text) % 2:
        raise HistoryError(f"{what}: {shown(text)} is not a whole number of two-character cards")
    cards: list[Card | None] = []
    for at in range(0, len(text), 2):
        token = text[at : at + 2]
        if token == UNKNOWN:
            cards.append(None)
            continue
        try:
            cards.append(parse_cards(token)[0])
        except CardError as error:
            raise HistoryError(
                f"{what}: {token!r} at position {at // 2 + 1} is not a card"
            ) from error
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A hand that could not be read, with where it starts and why."""

    hand_id: str
    line: int
    reason: str
    skipped: bool  # True: another game or feature, recognised and skipped on purpose
    last_line: int | None = None  # the hand's last line, in formats read line by line

    @property
    def where(self) -> str:
        """``line 12`` or ``lines 12 to 30``: where a reader finds the hand."""
        if self.last_line is None or self.last_line == self.line:
            return f"line {self.line}"
        return f"lines {self.line} to {self.last_line}"


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    name: str
    seat: int  # the table's seat number
    stack: int  # chips at the start of the hand


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One action of the hand as the file gives it. BET and RAISE carry the player's new
    total for the round; a CALL may also be a check and a RAISE a bet: the replay reads
    them as the rules allow at that moment (PHH writes ``cc`` and ``cbr``)."""

    player: int
    action: Action


@dataclass(frozen=True, slots=True)
class RecordedAward:
    """A part of a pot paid to a player, as the file records it: ``board`` 0 is the first
    board (or run), 1 the second (RULES.md 7)."""

    pot: int
    share: Share
    player: int
    amount: int
    board: int = 0


@dataclass(frozen=True, slots=True)
class RecordedOutcome:
    """What the file says the hand ended with, to check a replay against."""

    finishing_stacks: tuple[int, ...] | None = None
    collected: tuple[int, ...] | None = None  # chips each player won from the pots
    uncalled: tuple[int, ...] | None = None  # chips returned to each player
    total_pot: int | None = None
    awards: tuple[RecordedAward, ...] | None = None


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """The tournament a hand was dealt in (RULES.md 8), as hand histories print it: its
    number and name, the entry (``buy_in`` paid into the prize pool, 0 in a free roll;
    the room's ``fee`` beside it, 0 for none), the level of the hand (1 is the first) and
    the number of the hand's table in the tournament (1 is the first)."""

    id: int
    name: str
    buy_in: int
    fee: int
    level: int
    table: int


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Players are in clockwise order; ``button`` indexes them. ``holes`` hold None for
    unknown cards; ``deck``, where known, is the whole order of the deck. ``serial`` is
    the room's number of the hand (unique in the room), which PokerStars text prints.

    RULES.md 7: ``second_board`` is the second board of a double board, or the whole
    second board of a board run twice (the cards both runs share, then its own); ``runs``
    is what the players chose when asked to run it twice (None: they were not asked).

    RULES.md 8: ``tournament`` is the tournament of a tournament hand (None: a cash hand),
    whose chips are tournament chips."""

    id: str
    game: str
    config: GameConfig
    players: tuple[PlayerRecord, ...]
    button: int
    posts: tuple[Post, ...]
    holes: tuple[tuple[Card | None, ...], ...]
    board: tuple[Card, ...]
    actions: tuple[RecordedAction, ...]
    deck: tuple[Card | None, ...] | None = None
    rake: int | None = None  # recorded rake, used instead of the table's rule
    pots: tuple[int, ...] | None = None  # recorded pots after rake, main pot first
    outcome: RecordedOutcome | None = None
    unit: str = "1"  # the value of one chip in the file's money: "0.01" for cents
    currency: str = ""
    extra: dict[str, str] = field(default_factory=dict)
    serial: int | None = None
    second_board: tuple[Card, ...] = ()
    runs: int | None = None
    tournament: TournamentRecord | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)
