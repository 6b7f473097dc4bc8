"""The table's values, shared by the table (``table.py``) and its views (``view.py``):
its configuration, a seated player, a hand it played, and its error (RULES.md 6)."""

from __future__ import annotations

from dataclasses import dataclass

from splitpot.engine import Hand
from splitpot.engine.hand import most_players
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Rake, Refusal, Variant

MAX_SEATS = 10


class TableError(Refusal):
    """A table command or setting that the rules do not allow; the table is left unchanged
    (an English sentence with named fields, which the room says in each player's language)."""


def whole_chips(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TableError(
            "{name} must be a whole number of chips, not {value}", name=name, value=repr(value)
        )
    return value


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game, stakes, size and buy-in range (RULES.md 6)."""

    variant: Variant
    betting: FixedLimit | PotLimit | NoLimit | Mixed
    seats: int = 6
    min_buy_in: int = 0  # 0: the default of the structure
    max_buy_in: int = 0
    ante: int = 0
    rake: Rake | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise TableError("variant must be a Variant, not {value}", value=repr(self.variant))
        if not isinstance(self.betting, FixedLimit | PotLimit | NoLimit | Mixed):
            raise TableError(
                "betting must be FixedLimit, PotLimit, NoLimit or Mixed, not {value}",
                value=repr(self.betting),
            )
        if isinstance(self.seats, bool) or not isinstance(self.seats, int):
            raise TableError("seats must be a whole number, not {value}", value=repr(self.seats))
        if not 2 <= self.seats <= MAX_SEATS:
            raise TableError(
                "a table has 2 to {most} seats, not {seats}", most=MAX_SEATS, seats=self.seats
            )
        hole, most = self.variant.hole_cards, most_players(self.variant.hole_cards)
        if self.seats > most:  # docs/rules.md: the deck covers every card
            raise TableError(
                "{variant} deals {hole} hole cards: a table has 2 to {most} seats "
                "(one deck of 52 cards), not {seats}",
                variant=self.variant.value,
                hole=hole,
                most=most,
                seats=self.seats,
            )
        whole_chips("ante", self.ante)
        if self.rake is not None and not isinstance(self.rake, Rake):
            raise TableError("rake must be a Rake or None, not {value}", value=repr(self.rake))
        low, high = self.betting.default_buy_in  # RULES.md 6
        if whole_chips("min_buy_in", self.min_buy_in) == 0:
            object.__setattr__(self, "min_buy_in", low)
        if whole_chips("max_buy_in", self.max_buy_in) == 0:
            object.__setattr__(self, "max_buy_in", max(high, self.min_buy_in))
        if self.min_buy_in > self.max_buy_in:
            raise TableError(
                "the minimum buy-in {least} is above the maximum {most}",
                least=self.min_buy_in,
                most=self.max_buy_in,
            )


@dataclass
class Seat:
    """A seated player, as the table keeps them between hands.

    What a player owes (RULES.md 6): a new player owes a live big blind (``waiting``); one
    who was absent when the big blind passed owes a live big blind and a dead small blind
    (``missed_big``); one absent when only the small blind passed owes a dead small blind
    (``missed_small``). ``dead_owed`` is what a short-stacked player could not pay of a
    dead post; it is posted dead the next time they are dealt in (docs/rules.md).
    """

    name: str
    stack: int
    sitting_out: bool = False
    waiting: bool = True  # not yet dealt in: waits for the big blind unless posting
    post_now: bool = False  # a new or returning player who posts to play now
    missed_big: bool = False
    missed_small: bool = False
    dead_owed: int = 0

    @property
    def absent(self) -> bool:
        """Not dealt in while sitting out or without chips: blinds that pass are missed."""
        return self.sitting_out or self.stack == 0

    @property
    def owes_blinds(self) -> bool:
        """Must post (or wait for the big blind) before being dealt in again."""
        return self.waiting or self.missed_big or self.missed_small


@dataclass(frozen=True, slots=True)
class TableHand:
    """One hand of the table: its number, who sat where, and the engine's hand."""

    number: int
    seats: tuple[int, ...]  # the table seat of each player of the hand, clockwise
    names: tuple[str, ...]
    button_seat: int
    hand: Hand
