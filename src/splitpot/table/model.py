"""The table's values, shared by the table (``table.py``) and its views (``view.py``):
its configuration, a seated player, a hand it played, and its error (RULES.md 6)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from splitpot.engine import Hand
from splitpot.engine.hand import most_players
from splitpot.frozen import quick_init
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


class DoubleBoard(Enum):
    """RULES.md 7: when two boards are dealt."""

    OFF = "off"
    BOMB_POTS = "bomb-pots"
    ALWAYS = "always"


class Straddle(Enum):
    """A player's choice of straddle (RULES.md 7): the next time in the straddle's seat
    (then off again), or every time."""

    OFF = "off"
    NEXT = "next"
    ALWAYS = "always"


@dataclass(frozen=True, slots=True)
class Kill:
    """RULES.md 7, kill pots in fixed limit: a half kill (1.5 times the big blind and the
    bets) or a full kill (twice), started by a scoop of at least ``size`` chips (0: ten big
    blinds)."""

    full: bool = False
    size: int = 0

    @property
    def ratio(self) -> Fraction:
        return Fraction(2) if self.full else Fraction(3, 2)

    @property
    def name(self) -> str:
        return "full kill" if self.full else "half kill"


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game, stakes, size and buy-in range (RULES.md 6), and the home game's
    options it plays (RULES.md 7)."""

    variant: Variant
    betting: FixedLimit | PotLimit | NoLimit | Mixed
    seats: int = 6
    min_buy_in: int = 0  # 0: the default of the structure
    max_buy_in: int = 0
    ante: int = 0
    rake: Rake | None = None
    straddle: bool = False
    run_it_twice: bool = False
    rabbit_hunt: bool = False
    bomb_pot: int = 0  # the bomb, in big blinds (0: no bomb pots)
    bomb_every: int = 0  # a bomb pot every N hands (0: only when the host calls one)
    double_board: DoubleBoard = DoubleBoard.OFF
    kill: Kill | None = None
    tournament: bool = False  # RULES.md 8: the absent are dealt in, nobody owes a blind

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
        self._check_options()

    def _check_options(self) -> None:
        """The home game's options (RULES.md 7), each with the game it needs."""
        for name in ("straddle", "run_it_twice", "rabbit_hunt", "tournament"):
            if not isinstance(getattr(self, name), bool):
                raise TableError("{name} must be true or false", name=name)
        whole_chips("bomb_pot", self.bomb_pot)
        whole_chips("bomb_every", self.bomb_every)
        if self.bomb_every and not self.bomb_pot:
            raise TableError("a bomb pot every {hands} hands needs a bomb", hands=self.bomb_every)
        if not isinstance(self.double_board, DoubleBoard):
            raise TableError(
                "double_board must be off, bomb-pots or always, not {value}",
                value=repr(self.double_board),
            )
        if self.double_board is DoubleBoard.BOMB_POTS and not self.bomb_pot:
            raise TableError("a double board for bomb pots needs a bomb")
        most = most_players(self.variant.hole_cards, 2)
        if self.double_board is not DoubleBoard.OFF and self.seats > most:
            raise TableError(
                "two boards of {variant} need more cards: a table with a double board has "
                "2 to {most} seats, not {seats}",
                variant=self.variant.value,
                most=most,
                seats=self.seats,
            )
        if self.straddle and isinstance(self.betting, FixedLimit):
            raise TableError("a straddle is played in pot limit and no limit, not fixed limit")
        kill = self.kill
        if kill is not None:
            if not isinstance(kill, Kill):
                raise TableError("kill must be a Kill or None, not {value}", value=repr(kill))
            if not isinstance(self.betting, FixedLimit):
                raise TableError("kill pots are played in fixed limit only")
            whole_chips("kill size", kill.size)
            big_blind, small_bet = self.betting.big_blind, self.betting.small_bet
            if (big_blind * kill.ratio).denominator != 1 or (
                small_bet * kill.ratio
            ).denominator != 1:
                raise TableError(
                    "a half kill needs an even big blind and small bet, not {blind} and {bet}",
                    blind=big_blind,
                    bet=small_bet,
                )
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
    straddle: str = Straddle.OFF.value  # RULES.md 7 (a Straddle's value, for snapshots)

    @property
    def absent(self) -> bool:
        """Not dealt in while sitting out or without chips: blinds that pass are missed."""
        return self.sitting_out or self.stack == 0

    @property
    def owes_blinds(self) -> bool:
        """Must post (or wait for the big blind) before being dealt in again."""
        return self.waiting or self.missed_big or self.missed_small


@quick_init
@dataclass(frozen=True, slots=True)
class TableHand:
    """One hand of the table: its number, who sat where, and the engine's hand."""

    number: int
    seats: tuple[int, ...]  # the table seat of each player of the hand, clockwise
    names: tuple[str, ...]
    button_seat: int
    hand: Hand
    base_betting: FixedLimit | PotLimit | NoLimit  # the stakes before a kill (RULES.md 7)
