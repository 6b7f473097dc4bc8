"""Everything that happens in a hand, as small frozen values, and who may see what.

Privacy is one function: ``view(event, viewer)`` hides the hole cards of a deal from
everyone but their owner. Cards shown at showdown are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache

from splitpot.cards import Card
from splitpot.engine.actions import ActionKind
from splitpot.engine.pots import Pot, Share
from splitpot.evaluate import HighHand, LowHand
from splitpot.frozen import quick_init


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def of_board(cls, cards: int) -> Street:
        """The street of a board of ``cards`` cards (0, 3, 4 or 5)."""
        return cls(max(0, cards - 2))


class PostKind(Enum):
    """A forced post. Blinds, straddles and a new player's post are live (they count as
    the poster's bet); a dead small blind and an ante go into the pot (RULES.md 6)."""

    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    STRADDLE = "straddle"
    KILL = "kill blind"
    LIVE = "live post"
    DEAD = "dead small blind"
    ANTE = "ante"
    BOMB = "bomb"

    @property
    def live(self) -> bool:
        return self not in _DEAD_POSTS

    @property
    def positional(self) -> bool:
        """Posted because of the seat's place after the button; decides who acts first
        (RULES.md 7: the straddler and the killer act last before the flop)."""
        return self in _POSITIONAL_POSTS


# Read at every post; made once (a member read off its enum class costs ten times a name).
_DEAD_POSTS = (PostKind.DEAD, PostKind.ANTE, PostKind.BOMB)
_POSITIONAL_POSTS = (PostKind.SMALL_BLIND, PostKind.BIG_BLIND, PostKind.STRADDLE, PostKind.KILL)


@quick_init
@dataclass(frozen=True, slots=True)
class Posted:
    player: int
    kind: PostKind
    amount: int
    all_in: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    player: int
    cards: tuple[Card | None, ...]  # None: unknown (a replayed history) or hidden in a view


@quick_init
@dataclass(frozen=True, slots=True)
class BoardDealt:
    """New cards of a board: ``board`` 0 is the first board (or run), 1 the second
    (RULES.md 7: a double board, or the board run twice)."""

    street: Street
    cards: tuple[Card | None, ...]  # the new cards only
    board: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class RunItOffered:
    """RULES.md 7: no more betting is possible before the river; the hand waits for the
    players still in to agree (or not) to run the rest of the board twice."""

    players: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class RunsChosen:
    """How many times the rest of the board is dealt: 2 when every player asked agreed."""

    times: int


@quick_init
@dataclass(frozen=True, slots=True)
class Acted:
    """A player's action as applied: ``to`` is the player's total bet in the round after
    it, ``added`` the chips it moved from the stack."""

    player: int
    kind: ActionKind
    to: int
    added: int
    all_in: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class RoundEnded:
    street: Street
    pot: int  # all chips in the middle once the round's bets are gathered
    pots: tuple[Pot, ...] = ()  # the same, as the main pot and the side pots


@quick_init
@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    player: int
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class Shown:
    """A hand shown at the showdown with its value on the first board; ``boards`` its
    (high, low) on each board or run, when the hand had more than one."""

    player: int
    cards: tuple[Card, ...]
    high: HighHand | None
    low: LowHand | None
    boards: tuple[tuple[HighHand, LowHand | None], ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class TurnedFaceUp:
    """RULES.md 5: with a player all in and no more betting possible, a hand still in is
    turned face up before the rest of the board is dealt."""

    player: int
    cards: tuple[Card, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Mucked:
    player: int


@quick_init
@dataclass(frozen=True, slots=True)
class RakeTaken:
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class PotAwarded:
    pot: int  # 0 the main pot, 1 the first side pot, ...
    share: Share
    player: int
    amount: int
    high: HighHand | None = None
    low: LowHand | None = None
    board: int = 0  # the board (or run) whose part of the pot this is


@quick_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    stacks: tuple[int, ...]


Event = (
    Posted
    | HoleCardsDealt
    | BoardDealt
    | RunItOffered
    | RunsChosen
    | Acted
    | RoundEnded
    | UncalledBetReturned
    | TurnedFaceUp
    | Shown
    | Mucked
    | RakeTaken
    | PotAwarded
    | HandEnded
)


def view(event: Event, viewer: int | None) -> Event:
    """The event as ``viewer`` may see it (None: a spectator). Only a deal of hole cards
    hides anything: its cards are visible to their owner alone."""
    if isinstance(event, HoleCardsDealt) and event.player != viewer:
        return _face_down(event.player, len(event.cards))
    return event


@cache
def _face_down(player: int, cards: int) -> HoleCardsDealt:
    """A deal of hole cards as everyone but their owner sees it: one value, made once
    (at six hands each deal is seen face down by five players, hand after hand)."""
    return HoleCardsDealt(player, (None,) * cards)
