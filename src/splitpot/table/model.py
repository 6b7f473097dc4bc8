"""The table's values, shared by the table (``table.py``) and its views (``view.py``):
its configuration, a seated player, a hand it played, and its error (RULES.md 6)."""

from __future__ import annotations

from dataclasses import dataclass

from splitpot.engine import Hand
from splitpot.engine.hand import most_players
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Rake, Variant

MAX_SEATS = 10


class TableError(ValueError):
    """A table command or setting that the rules do not allow; the table is left unchanged."""


def whole_chips(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TableError(f"{name} must be a whole number of chips, not {value!r}")
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
            raise TableError(f"variant must be a Variant, not {self.variant!r}")
        if not isinstance(self.betting, FixedLimit | PotLimit | NoLimit | Mixed):
            raise TableError(
                f"betting must be FixedLimit, PotLimit, NoLimit or Mixed, not {self.betting!r}"
            )
        if isinstance(self.seats, bool) or not isinstance(self.seats, int):
            raise TableError(f"seats must be a whole number, not {self.seats!r}")
        if not 2 <= self.seats <= MAX_SEATS:
            raise TableError(f"a table has 2 to {MAX_SEATS} seats, not {self.seats}")
        hole, most = self.variant.hole_cards, most_players(self.variant.hole_cards)
        if self.seats > most:  # docs/rules.md: the deck covers every card
            raise TableError(
                f"{self.variant.value} deals {hole} hole cards: a table has 2 to {most} seats "
                f"(one deck of 52 cards), not {self.seats}"
            )
        whole_chips("ante", self.ante)
        if self.rake is not None and not isinstance(self.rake, Rake):
            raise TableError(f"rake must be a Rake or None, not {self.rake!r}")
        low, high = self.betting.default_buy_in  # RULES.md 6
        if whole_chips("min_buy_in", self.min_buy_in) == 0:
            object.__setattr__(self, "min_buy_in", low)
        if whole_chips("max_buy_in", self.max_buy_in) == 0:
            object.__setattr__(self, "max_buy_in", max(high, self.min_buy_in))
        if self.min_buy_in > self.max_buy_in:
            raise TableError(
                f"the minimum buy-in {self.min_buy_in} is above the maximum {self.max_buy_in}"
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
