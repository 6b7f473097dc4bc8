"""The game's configuration as small immutable values (RULES.md sections 2 and 3).

Chips are integers in the table's smallest unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from splitpot.evaluate.variants import Variant

__all__ = [
    "FixedLimit",
    "GameConfig",
    "Mixed",
    "NoLimit",
    "PotLimit",
    "Rake",
    "Structure",
    "Variant",
]


class Structure(Enum):
    """How much may be bet: the betting structure's id."""

    FIXED_LIMIT = "limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"
    MIXED = "mixed"


def _positive(name: str, value: int) -> None:
    if not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number of chips, not {value!r}")


@dataclass(frozen=True, slots=True)
class FixedLimit:
    """Fixed limit ``small_bet/big_bet``: small bets preflop and on the flop, big bets after.

    The blinds default to half the small bet and the small bet (RULES.md 4.1: 2/4 has
    blinds of 1 and 2); ``cap`` is the number of bets a round allows (a bet and three
    raises), which also holds heads-up unless ``cap_heads_up`` is False.
    """

    small_bet: int
    big_bet: int
    small_blind: int = 0
    big_blind: int = 0
    cap: int = 4
    cap_heads_up: bool = True

    def __post_init__(self) -> None:
        _positive("small_bet", self.small_bet)
        _positive("big_bet", self.big_bet)
        if self.small_blind == 0:
            object.__setattr__(self, "small_blind", max(self.small_bet // 2, 1))
        if self.big_blind == 0:
            object.__setattr__(self, "big_blind", self.small_bet)
        _positive("small_blind", self.small_blind)
        _positive("big_blind", self.big_blind)
        if self.cap < 1:
            raise ValueError(f"cap must allow at least one bet, not {self.cap}")

    @property
    def structure(self) -> Structure:
        return Structure.FIXED_LIMIT

    @property
    def stakes(self) -> str:
        return f"{self.small_bet}/{self.big_bet}"


@dataclass(frozen=True, slots=True)
class _BigBetting:
    """Blinds ``small_blind/big_blind``; the smallest bet is ``min_bet`` (the big blind
    unless set), a raise at least the last bet or raise."""

    small_blind: int
    big_blind: int
    min_bet: int = 0

    def __post_init__(self) -> None:
        _positive("small_blind", self.small_blind)
        _positive("big_blind", self.big_blind)
        if self.min_bet == 0:
            object.__setattr__(self, "min_bet", self.big_blind)
        _positive("min_bet", self.min_bet)

    @property
    def stakes(self) -> str:
        return f"{self.small_blind}/{self.big_blind}"


@dataclass(frozen=True, slots=True)
class PotLimit(_BigBetting):
    """Pot limit: the largest bet or raise makes the total equal to the pot after a call."""

    @property
    def structure(self) -> Structure:
        return Structure.POT_LIMIT


@dataclass(frozen=True, slots=True)
class NoLimit(_BigBetting):
    """No limit: the largest bet is the player's whole stack."""

    @property
    def structure(self) -> Structure:
        return Structure.NO_LIMIT


Betting = FixedLimit | PotLimit | NoLimit


@dataclass(frozen=True, slots=True)
class Mixed:
    """Limit and pot limit in turn (RULES.md 3): each for one orbit, or ``period`` hands.

    Both sets of stakes are stated, so the blinds can go up when the game turns to limit.
    """

    limit: FixedLimit
    pot_limit: PotLimit
    period: int | None = None  # None: once the button has gone round the table

    @property
    def structure(self) -> Structure:
        return Structure.MIXED

    def betting_for(self, round_number: int) -> Betting:
        """The structure of a round (0, 1, 2, ...): limit first, then pot limit."""
        return self.limit if round_number % 2 == 0 else self.pot_limit


@dataclass(frozen=True, slots=True)
class Rake:
    """A cash table's rake: ``percent`` of each pot, at most ``cap`` a hand.

    No rake is taken when no flop is dealt ("no flop, no drop"), and an uncalled bet
    returned is never raked (RULES.md 5).
    """

    percent: Fraction
    cap: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.percent <= 100:
            raise ValueError(f"rake percent must be between 0 and 100, not {self.percent}")
        if self.cap is not None and self.cap < 0:
            raise ValueError(f"rake cap must not be negative, not {self.cap}")

    def cuts(self, pots: list[int]) -> list[int]:
        """The rake of each pot, main pot first: ``percent`` of it rounded down to whole
        chips, until the hand's rake reaches the cap."""
        left = self.cap
        cuts = []
        for pot in pots:
            cut = int(pot * Fraction(self.percent) / 100)
            if left is not None:
                cut = min(cut, left)
                left -= cut
            cuts.append(cut)
        return cuts


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything the engine needs to know about the game of one hand."""

    variant: Variant
    betting: Betting
    ante: int = 0
    rake: Rake | None = None

    def __post_init__(self) -> None:
        if self.ante < 0:
            raise ValueError(f"ante must not be negative, not {self.ante}")

    @property
    def structure(self) -> Structure:
        return self.betting.structure
